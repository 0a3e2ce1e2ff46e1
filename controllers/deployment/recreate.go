// recreate.go: the Recreate strategy. All old pods go before any new one comes: scale every old
// ReplicaSet to 0, wait until none of their pods exists any more (terminating ones included), and
// only then create (or scale up) the new ReplicaSet. There is downtime, and never two versions at once.
package deployment

import (
	"context"

	"kubesim/api"
)

func (c *Controller) rolloutRecreate(ctx context.Context, d *api.Deployment, rsList []*api.ReplicaSet, podMap map[string][]*api.Pod) error {
	// Do not create the new ReplicaSet yet: that waits until the old pods are gone.
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)

	scaledDown := false
	for _, rs := range filterActive(oldRSs) {
		scaled, err := c.scaleReplicaSetAndRecordEvent(ctx, d, rs, 0,
			because("recreate %s: scale down old ReplicaSet %s from %d to 0 (every old pod goes before a new one comes)", d.Key(), rs.Name, rsReplicas(rs)))
		if err != nil {
			return err
		}
		scaledDown = scaledDown || scaled
	}
	if scaledDown {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if n := oldPodsRunning(newRS, oldRSs, podMap); n > 0 {
		c.tracer.Record("reconcile", "deployments/"+d.Key(), d.ResourceVersion,
			"recreate %s: %d pods of old ReplicaSets still exist -> wait until they are gone before starting new ones", d.Key(), n)
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = withNew(oldRSs, newRS)
	}
	if _, err := c.scaleReplicaSetAndRecordEvent(ctx, d, newRS, replicasOf(d),
		because("recreate %s: the old pods are gone -> scale up new ReplicaSet %s from %d to %d", d.Key(), newRS.Name, rsReplicas(newRS), replicasOf(d))); err != nil {
		return err
	}
	if deploymentComplete(d, &d.Status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// oldPodsRunning counts the pods of old ReplicaSets that have not finished: the old ReplicaSets' own
// count while their controller catches up, then every pod left in the cache, terminating or not.
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, podMap map[string][]*api.Pod) int {
	if n := sumStatus(oldRSs, statusReplicas); n > 0 {
		return int(n)
	}
	n := 0
	for _, rs := range oldRSs {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		for _, pod := range podMap[rs.UID] {
			if pod.Status.Phase != api.PodFailed && pod.Status.Phase != api.PodSucceeded {
				n++
			}
		}
	}
	return n
}
