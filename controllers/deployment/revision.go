// revision.go: which ReplicaSet is the new one, and the revision annotations. Every ReplicaSet of a
// Deployment is one revision of its pod template (deployment.kubernetes.io/revision, 1, 2, 3, ...);
// the ReplicaSet whose template equals the Deployment's current one is the new ReplicaSet, all others
// are old. Going back to an old template (a rollback) makes its old ReplicaSet new again, with the
// next revision number; its former numbers are kept in deployment.kubernetes.io/revision-history.
//
//	getAllReplicaSetsAndSyncRevision(ctx, d, rsList, create) (newRS, oldRSs, error)
package deployment

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/internal"
)

// Annotations the controller writes on ReplicaSets (and the revision on the Deployment too).
const (
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the ReplicaSet was last scaled:
	// a difference means the Deployment was scaled since.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge at that time, the basis of proportional scaling.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// maxRevHistoryLengthInChars bounds the revision-history annotation.
	maxRevHistoryLengthInChars = 2000
)

// annotationsNotCopied are the Deployment annotations that are not passed on to its ReplicaSets.
var annotationsNotCopied = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	api.RevisionAnnotation:                             true,
	RevisionHistoryAnnotation:                          true,
	DesiredReplicasAnnotation:                          true,
	MaxReplicasAnnotation:                              true,
	"deprecated.deployment.rollback.to":                true,
}

// findNewAndOld splits rsList into the new ReplicaSet (the oldest one whose template equals the
// Deployment's, or nil) and the others.
func findNewAndOld(d *api.Deployment, rsList []*api.ReplicaSet) (*api.ReplicaSet, []*api.ReplicaSet) {
	sorted := slices.Clone(rsList)
	slices.SortFunc(sorted, byCreation)
	var newRS *api.ReplicaSet
	var oldRSs []*api.ReplicaSet
	for _, rs := range sorted {
		if newRS == nil && equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			continue
		}
		oldRSs = append(oldRSs, rs)
	}
	return newRS, oldRSs
}

// getAllReplicaSetsAndSyncRevision returns the new ReplicaSet (creating it if create is set and there
// is none) and the old ones, and brings the revision annotations of the new ReplicaSet and the
// Deployment up to date.
func (c *Controller) getAllReplicaSetsAndSyncRevision(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, create bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	existing, oldRSs := findNewAndOld(d, rsList)
	newRS, err := c.getNewReplicaSet(ctx, d, existing, oldRSs, create)
	return newRS, oldRSs, err
}

func (c *Controller) getNewReplicaSet(ctx context.Context, d *api.Deployment, existing *api.ReplicaSet, oldRSs []*api.ReplicaSet, create bool) (*api.ReplicaSet, error) {
	newRevision := strconv.FormatInt(maxRevision(oldRSs)+1, 10)

	if existing != nil {
		cp := api.DeepCopy(existing)
		before := existing.Annotations[api.RevisionAnnotation]
		annotationsChanged := setNewReplicaSetAnnotations(d, cp, newRevision, true)
		if annotationsChanged || cp.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			cp.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			updated, err := c.replicaSets.Update(ctx, cp)
			if err != nil {
				return nil, err
			}
			if after := updated.Annotations[api.RevisionAnnotation]; after != before {
				c.tracer.Record("update", "replicasets/"+updated.Key(), updated.ResourceVersion,
					"reconcile %s: ReplicaSet %s has the current pod template again -> revision %s (was %s)", d.Key(), updated.Name, after, before)
			}
			*existing = *updated
			return existing, nil
		}
		annotations := setDeploymentRevision(d, cp.Annotations[api.RevisionAnnotation])
		status := false
		if hasProgressDeadline(d) && api.GetDeploymentCondition(d.Status, api.DeploymentProgressing) == nil {
			setCondition(&d.Status, c.newCondition(api.DeploymentProgressing, api.ConditionTrue, reasonFoundNewRS,
				fmt.Sprintf("Found new replica set %q", cp.Name)))
			status = true
		}
		if err := c.writeDeployment(ctx, d, annotations, status); err != nil {
			return nil, err
		}
		return existing, nil
	}
	if !create {
		return nil, nil
	}

	// The new ReplicaSet: the Deployment's template, labelled with its hash, which also joins the
	// selector so that this ReplicaSet never counts the pods of another revision as its own.
	hash := ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	template := api.DeepCopy(d).Spec.Template
	template.Labels = withLabel(template.Labels, api.DefaultDeploymentUniqueLabelKey, hash)
	selector := api.DeepCopy(d).Spec.Selector
	selector.MatchLabels = withLabel(selector.MatchLabels, api.DefaultDeploymentUniqueLabelKey, hash)
	newRS := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			Labels:          maps.Clone(template.Labels),
			OwnerReferences: []api.OwnerReference{internal.NewControllerRef(&d.ObjectMeta, "Deployment")},
		},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](0), MinReadySeconds: d.Spec.MinReadySeconds, Selector: selector, Template: template},
	}
	newReplicas := newRSNewReplicas(d, append(slices.Clone(oldRSs), newRS), newRS)
	newRS.Spec.Replicas = api.Ptr(newReplicas)
	setNewReplicaSetAnnotations(d, newRS, newRevision, false)

	// The decision first, then the write it causes: the story reads in that order.
	c.tracer.Record("reconcile", "deployments/"+d.Key(), d.ResourceVersion,
		"reconcile %s: no ReplicaSet has the current pod template -> create ReplicaSet %s (pod-template-hash %s, revision %s, replicas %d)",
		d.Key(), newRS.Name, hash, newRevision, newReplicas)
	created, err := c.replicaSets.Create(ctx, newRS)
	alreadyExists := false
	switch {
	case apierrors.IsAlreadyExists(err):
		alreadyExists = true
		rs, ok := c.rsInformer.Get(newRS.Key())
		if !ok {
			return nil, err
		}
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID && equalIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created, err = api.DeepCopy(rs), nil
			break
		}
		// Another template hashed to the same name: bump collisionCount to get another name next time.
		before := int32(0)
		if d.Status.CollisionCount != nil {
			before = *d.Status.CollisionCount
		}
		d.Status.CollisionCount = api.Ptr(before + 1)
		c.tracer.Record("reconcile", "deployments/"+d.Key(), d.ResourceVersion,
			"reconcile %s: ReplicaSet %s exists with another pod template (hash collision) -> collisionCount %d -> %d", d.Key(), newRS.Name, before, before+1)
		if werr := c.writeStatus(ctx, d, d.Status); werr != nil {
			return nil, werr
		}
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if hasProgressDeadline(d) {
			setCondition(&d.Status, c.newCondition(api.DeploymentProgressing, api.ConditionFalse, reasonFailedRSCreate, msg))
			_ = c.writeStatus(ctx, d, d.Status) // the create error is what gets retried
		}
		c.events.Event(ctx, d, client.EventWarning, reasonFailedRSCreate, msg)
		return nil, err
	}
	if !alreadyExists {
		if newReplicas > 0 {
			c.events.Eventf(ctx, d, client.EventNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", created.Name, newReplicas)
		}
	}
	annotations := setDeploymentRevision(d, newRevision)
	status := false
	if !alreadyExists && hasProgressDeadline(d) {
		setCondition(&d.Status, c.newCondition(api.DeploymentProgressing, api.ConditionTrue, reasonNewRSCreated,
			fmt.Sprintf("Created new replica set %q", created.Name)))
		status = true
	}
	if err := c.writeDeployment(ctx, d, annotations, status); err != nil {
		return nil, err
	}
	return created, nil
}

func withLabel(m map[string]string, key, value string) map[string]string {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}

// setDeploymentRevision makes the Deployment's revision annotation follow its new ReplicaSet's.
func setDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations[api.RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[api.RevisionAnnotation] = revision
	return true
}

// setNewReplicaSetAnnotations copies the Deployment's annotations onto its new ReplicaSet, raises the
// ReplicaSet's revision to newRevision (remembering the old one in revision-history when an old
// ReplicaSet becomes new again) and, for a ReplicaSet being created, records the replica annotations.
// It reports whether anything changed.
func setNewReplicaSetAnnotations(d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for _, k := range slices.Sorted(maps.Keys(d.Annotations)) {
		if annotationsNotCopied[k] {
			continue
		}
		if v, ok := rs.Annotations[k]; !ok || v != d.Annotations[k] {
			rs.Annotations[k] = d.Annotations[k]
			changed = true
		}
	}
	oldRevision := rs.Annotations[api.RevisionAnnotation]
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil && oldRevision != "" {
		return false
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldInt < newInt {
		rs.Annotations[api.RevisionAnnotation] = newRevision
		changed = true
		if oldRevision != "" {
			appendRevisionHistory(rs, oldRevision)
		}
	}
	if !exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d)+maxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds old to the comma-separated revision-history, dropping the oldest entries
// if it would grow past maxRevHistoryLengthInChars.
func appendRevisionHistory(rs *api.ReplicaSet, old string) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	if history == "" {
		rs.Annotations[RevisionHistoryAnnotation] = old
		return
	}
	revs := strings.Split(history, ",")
	total := len(history) + len(old) + 1
	start := 0
	for total > maxRevHistoryLengthInChars && start < len(revs) {
		total -= len(revs[start]) + 1
		start++
	}
	if total <= maxRevHistoryLengthInChars {
		rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(revs[start:], old), ",")
	}
}

// setReplicasAnnotations records desired-replicas and max-replicas on a ReplicaSet; it reports
// whether they changed.
func setReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if !replicasAnnotationsNeedUpdate(rs, desired, maxReplicas) {
		return false
	}
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations[DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
	rs.Annotations[MaxReplicasAnnotation] = strconv.Itoa(int(maxReplicas))
	return true
}

func replicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// int32Annotation reads one of the replica annotations.
func int32Annotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}
