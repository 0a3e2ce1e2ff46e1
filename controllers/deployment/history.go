// history.go: revision history. Old ReplicaSets scaled to 0 are kept so that `kubectl rollout undo`
// can go back to their template; beyond spec.revisionHistoryLimit (default 10) the oldest revisions
// are deleted.
package deployment

import (
	"context"
	"slices"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// cleanupDeployment deletes the oldest old ReplicaSets beyond revisionHistoryLimit, but only those
// that are fully scaled down and whose controller has caught up with that.
func (c *Controller) cleanupDeployment(ctx context.Context, oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if d.Spec.RevisionHistoryLimit == nil {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	limit := int(*d.Spec.RevisionHistoryLimit)
	diff := len(cleanable) - limit
	if diff <= 0 {
		return nil
	}
	slices.SortFunc(cleanable, byRevision)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || rsReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		if _, _, err := c.replicaSets.Delete(ctx, rs.Namespace, rs.Name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		c.tracer.Record("delete", "replicasets/"+rs.Key(), rs.ResourceVersion,
			"revision history %s: delete old ReplicaSet %s (revision %d): %d old ReplicaSets, revisionHistoryLimit %d",
			d.Key(), rs.Name, revision(rs), len(cleanable), limit)
	}
	return nil
}
