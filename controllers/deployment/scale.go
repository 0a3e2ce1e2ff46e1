// scale.go: scaling. A change of spec.replicas alone (kubectl scale) is not a rollout: the controller
// resizes the ReplicaSets it already has. With one active ReplicaSet that one takes the new size;
// in the middle of a rolling update the change is shared out in proportion to each ReplicaSet's size,
// so that the rollout's shape is kept. A paused Deployment is only ever scaled this way.
//
//	sync(ctx, d, rsList)                       scale, prune history if paused, refresh status
//	isScalingEvent(ctx, d, rsList) (bool, error)
//	scaleReplicaSet(ctx, d, rs, size, why)     the one place a ReplicaSet is resized (with its event)
package deployment

import (
	"context"
	"maps"
	"math"
	"slices"

	"kubesim/api"
	"kubesim/client"
)

// why is the explanation a scale gets in the trace: a format with its arguments, kept apart so the
// trace can be told in another language.
type why struct {
	format string
	args   []any
}

func because(format string, args ...any) why { return why{format, args} }

// sync scales a Deployment that is paused or whose replicas changed, and refreshes its status.
func (c *Controller) sync(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	if d.Spec.Paused {
		c.tracer.Detail("reconcile", "deployments/"+d.Key(), d.ResourceVersion, "reconcile %s: paused -> no rollout; only scaling applies", d.Key())
	}
	if err := c.scale(ctx, d, newRS, oldRSs); err != nil {
		return err
	}
	if d.Spec.Paused {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncDeploymentStatus(ctx, withNew(oldRSs, newRS), newRS, d)
}

// isScalingEvent reports whether spec.replicas differs from the desired-replicas annotation of an
// active ReplicaSet: the Deployment was scaled since that ReplicaSet was last sized.
func (c *Controller) isScalingEvent(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range filterActive(withNew(oldRSs, newRS)) {
		if desired, ok := int32Annotation(rs, DesiredReplicasAnnotation); ok && desired != replicasOf(d) {
			return true, nil
		}
	}
	return false, nil
}

// scale resizes the ReplicaSets to spec.replicas.
func (c *Controller) scale(ctx context.Context, d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	want := replicasOf(d)
	// One active ReplicaSet (or none: then the newest) simply takes the new size.
	if rs := findActiveOrLatest(newRS, oldRSs); rs != nil {
		if rsReplicas(rs) == want {
			return nil
		}
		_, err := c.scaleReplicaSetAndRecordEvent(ctx, d, rs, want,
			because("scale %s: spec.replicas is %d -> scale ReplicaSet %s from %d to %d", d.Key(), want, rs.Name, rsReplicas(rs), want))
		return err
	}
	// The new ReplicaSet is complete: the old ones just go.
	if isSaturated(d, newRS) {
		for _, old := range filterActive(oldRSs) {
			if _, err := c.scaleReplicaSetAndRecordEvent(ctx, d, old, 0,
				because("scale %s: new ReplicaSet %s has all %d pods available -> scale old ReplicaSet %s from %d to 0", d.Key(), newRS.Name, want, old.Name, rsReplicas(old))); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRollingUpdate(d) {
		return nil
	}
	// Mid-rollout: share the change out in proportion to each ReplicaSet's size.
	allRSs := filterActive(withNew(oldRSs, newRS))
	allowed := int32(0)
	if want > 0 {
		allowed = want + maxSurge(d)
	}
	toAdd := allowed - sumReplicas(allRSs)
	switch {
	case toAdd > 0:
		slices.SortFunc(allRSs, bySizeNewer)
	case toAdd < 0:
		slices.SortFunc(allRSs, bySizeOlder)
	}
	sizes := make(map[string]int32, len(allRSs))
	var added int32
	for _, rs := range allRSs {
		p := proportion(rs, d, toAdd, added)
		sizes[rs.Name] = rsReplicas(rs) + p
		added += p
	}
	// Rounding leftovers go to the largest ReplicaSet.
	if len(allRSs) > 0 && toAdd != 0 {
		first := allRSs[0].Name
		sizes[first] = max(sizes[first]+toAdd-added, 0)
	}
	for _, rs := range allRSs {
		if _, err := c.scaleReplicaSet(ctx, d, rs, sizes[rs.Name],
			because("scale %s: spec.replicas is %d during a rollout -> scale ReplicaSet %s from %d to %d (in proportion, at most %d pods)",
				d.Key(), want, rs.Name, rsReplicas(rs), sizes[rs.Name], allowed)); err != nil {
			return err
		}
	}
	return nil
}

// findActiveOrLatest returns the only active ReplicaSet, or, if none is active, the new one or else the
// newest old one; nil when several are active (a rollout is under way).
func findActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	newestFirst := slices.Clone(oldRSs)
	slices.SortFunc(newestFirst, func(a, b *api.ReplicaSet) int { return byCreation(b, a) })
	active := filterActive(withNew(newestFirst, newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return newestFirst[0]
	case 1:
		return active[0]
	}
	return nil
}

// isSaturated: the new ReplicaSet was sized for this spec.replicas and has all of them available.
func isSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := int32Annotation(rs, DesiredReplicasAnnotation)
	return ok && desired == replicasOf(d) && rsReplicas(rs) == replicasOf(d) && rs.Status.AvailableReplicas == replicasOf(d)
}

// proportion is the part of toAdd (still toAdd-added to share out) that falls to rs.
func proportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is how much rs should grow (or shrink) to keep its share of the Deployment when
// the Deployment goes from the size in its max-replicas annotation to the new replicas + maxSurge.
func replicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if replicasOf(d) == 0 {
		return -rsReplicas(rs)
	}
	total := replicasOf(d) + maxSurge(d)
	annotated, ok := int32Annotation(rs, MaxReplicasAnnotation)
	if !ok {
		annotated = d.Status.Replicas
	}
	if annotated <= 0 {
		return 0
	}
	size := float64(rsReplicas(rs)*total) / float64(annotated)
	return int32(math.Round(size)) - rsReplicas(rs)
}

// scaleReplicaSetAndRecordEvent resizes rs unless it already has size.
func (c *Controller) scaleReplicaSetAndRecordEvent(ctx context.Context, d *api.Deployment, rs *api.ReplicaSet, size int32, w why) (bool, error) {
	if rsReplicas(rs) == size {
		return false, nil
	}
	return c.scaleReplicaSet(ctx, d, rs, size, w)
}

// scaleReplicaSet writes rs's new size and its replica annotations (desired-replicas, max-replicas),
// and, if the size changed, explains why in the trace and reports a ScalingReplicaSet event on the
// Deployment. rs is left as stored.
func (c *Controller) scaleReplicaSet(ctx context.Context, d *api.Deployment, rs *api.ReplicaSet, size int32, w why) (bool, error) {
	from := rsReplicas(rs)
	sizeChanged := from != size
	if !sizeChanged && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), replicasOf(d)+maxSurge(d)) {
		return false, nil
	}
	cp := api.DeepCopy(rs)
	cp.Annotations = maps.Clone(cp.Annotations)
	cp.Spec.Replicas = api.Ptr(size)
	setReplicasAnnotations(cp, replicasOf(d), replicasOf(d)+maxSurge(d))
	updated, err := c.replicaSets.Update(ctx, cp)
	if err != nil {
		return false, err
	}
	*rs = *updated
	if sizeChanged {
		op := "up"
		if size < from {
			op = "down"
		}
		c.tracer.Record("scale", "replicasets/"+rs.Key(), rs.ResourceVersion, w.format, w.args...)
		c.events.Eventf(ctx, d, client.EventNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d", op, rs.Name, from, size)
	}
	return sizeChanged, nil
}
