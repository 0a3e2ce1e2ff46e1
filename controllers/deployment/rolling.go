// rolling.go: the RollingUpdate strategy. Each reconcile makes at most one kind of move:
//
//  1. scale the new ReplicaSet up, as far as maxSurge allows: the ReplicaSets together may be told to
//     run at most replicas + maxSurge pods;
//  2. otherwise scale old ReplicaSets down, as far as maxUnavailable allows: at least
//     replicas - maxUnavailable pods must stay available. Old pods that are not available anyway go
//     first, since removing them costs nothing;
//  3. otherwise, if the rollout is complete, prune old ReplicaSets beyond revisionHistoryLimit.
//
// Then it writes status. As new pods become available, the ReplicaSet controller updates the new
// ReplicaSet's status, which brings the Deployment back here for the next move.
package deployment

import (
	"context"
	"slices"

	"kubesim/api"
)

func (c *Controller) rolloutRolling(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)

	scaledUp, err := c.reconcileNewReplicaSet(ctx, allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	scaledDown, err := c.reconcileOldReplicaSets(ctx, allRSs, filterActive(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if deploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// reconcileNewReplicaSet scales the new ReplicaSet towards spec.replicas within maxSurge.
func (c *Controller) reconcileNewReplicaSet(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	want := replicasOf(d)
	switch {
	case rsReplicas(newRS) == want:
		return false, nil
	case rsReplicas(newRS) > want:
		return c.scaleReplicaSetAndRecordEvent(ctx, d, newRS, want,
			because("rolling update %s: new ReplicaSet %s has more than spec.replicas -> scale it down from %d to %d", d.Key(), newRS.Name, rsReplicas(newRS), want))
	}
	size := newRSNewReplicas(d, allRSs, newRS)
	return c.scaleReplicaSetAndRecordEvent(ctx, d, newRS, size,
		because("rolling update %s: scale up new ReplicaSet %s from %d to %d (the ReplicaSets may run %d pods: replicas %d + maxSurge %d; they had %d)",
			d.Key(), newRS.Name, rsReplicas(newRS), size, want+maxSurge(d), want, maxSurge(d), sumReplicas(allRSs)))
}

// newRSNewReplicas is the size the new ReplicaSet may have now: for Recreate, all of spec.replicas;
// for RollingUpdate, as many more as keep the total within replicas + maxSurge.
func newRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	if !isRollingUpdate(d) {
		return replicasOf(d)
	}
	current := sumReplicas(allRSs)
	maxTotal := replicasOf(d) + maxSurge(d)
	if current >= maxTotal {
		return rsReplicas(newRS)
	}
	up := min(maxTotal-current, replicasOf(d)-rsReplicas(newRS))
	return rsReplicas(newRS) + up
}

// reconcileOldReplicaSets scales old ReplicaSets down within maxUnavailable.
func (c *Controller) reconcileOldReplicaSets(ctx context.Context, allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if sumReplicas(oldRSs) == 0 {
		return false, nil
	}
	minAvailable := replicasOf(d) - maxUnavailable(d)
	newRSUnavailable := rsReplicas(newRS) - newRS.Status.AvailableReplicas
	// The most that may go: everything above minAvailable, counting the new ReplicaSet's not yet
	// available pods as already missing.
	maxScaledDown := sumReplicas(allRSs) - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	cleaned, err := c.cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown)
	if err != nil {
		return false, err
	}
	scaled, err := c.scaleDownOldReplicaSetsForRollingUpdate(ctx, withNew(oldRSs, newRS), oldRSs, d)
	if err != nil {
		return false, err
	}
	return cleaned+scaled > 0, nil
}

// cleanupUnhealthyReplicas removes old ReplicaSets' unavailable pods, oldest ReplicaSet first, up to
// maxCleanup: they serve nothing, so no availability is lost.
func (c *Controller) cleanupUnhealthyReplicas(ctx context.Context, oldRSs []*api.ReplicaSet, d *api.Deployment, maxCleanup int32) (int32, error) {
	slices.SortFunc(oldRSs, byCreation)
	var total int32
	for _, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		unavailable := rsReplicas(rs) - rs.Status.AvailableReplicas
		if rsReplicas(rs) == 0 || unavailable <= 0 {
			continue
		}
		n := min(maxCleanup-total, unavailable)
		size := rsReplicas(rs) - n
		if _, err := c.scaleReplicaSetAndRecordEvent(ctx, d, rs, size,
			because("rolling update %s: scale down old ReplicaSet %s from %d to %d (%d of its pods are not available: removing them costs no availability)",
				d.Key(), rs.Name, rsReplicas(rs), size, unavailable)); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate removes available old pods, oldest ReplicaSet first, as long
// as replicas - maxUnavailable pods stay available.
func (c *Controller) scaleDownOldReplicaSetsForRollingUpdate(ctx context.Context, allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment) (int32, error) {
	minAvailable := replicasOf(d) - maxUnavailable(d)
	available := sumStatus(allRSs, statusAvailable)
	if available <= minAvailable {
		return 0, nil
	}
	slices.SortFunc(oldRSs, byCreation)
	toScaleDown := available - minAvailable
	var total int32
	for _, rs := range oldRSs {
		if total >= toScaleDown {
			break
		}
		if rsReplicas(rs) == 0 {
			continue
		}
		n := min(rsReplicas(rs), toScaleDown-total)
		size := rsReplicas(rs) - n
		if _, err := c.scaleReplicaSetAndRecordEvent(ctx, d, rs, size,
			because("rolling update %s: scale down old ReplicaSet %s from %d to %d (%d pods available, %d must stay: replicas %d - maxUnavailable %d)",
				d.Key(), rs.Name, rsReplicas(rs), size, available, minAvailable, replicasOf(d), maxUnavailable(d))); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
