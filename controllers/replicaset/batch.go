// batch.go: how soon a ReplicaSet is synced again after a change that can only move its status.
//
//	(*Controller).enqueueStatusChange(rs)   queue rs after its batch delay
//	(*Controller).noteCountCost(key, took)  how long the last sync took to claim and count its pods
//
// Every sync of a ReplicaSet lists and counts all its pods (Kubernetes' syncReplicaSet does the same):
// for 10,000 pods that is milliseconds of CPU, and during a rollout one of its pods changes status
// hundreds of times a second, so the controller would spend a whole core recounting. Kubernetes has
// the same cost but gives kube-controller-manager cores of its own; kubesim's controllers share two
// cores with the whole cluster. So, as Kubernetes' Job and EndpointSlice controllers batch pod updates
// (podUpdateBatchPeriod, --endpointslice-updates-batch-period), a pod change that cannot make the
// ReplicaSet create or delete anything (a pod became ready, or was scheduled; a create it still
// waits for showed up; the ReplicaSet's own status was written, which else starts the next recount
// at once) queues the ReplicaSet only after statusBatchFactor times its last sync took to claim and count
// its pods:
// one ReplicaSet's recounting takes at most a fifth of a core, and its status lags by as much. The
// delay is measured on the cluster clock, which stands still in step mode: there it is zero, and
// the step-by-step story is the one without batching. Changes that can call for a create or a
// delete (a pod going, a label or controller reference changing, the last expected create showing
// up) still queue the ReplicaSet at once.
package replicaset

import (
	"time"

	"kubesim/api"
)

// statusBatchFactor: a status-only change waits this many times the ReplicaSet's last sync.
const statusBatchFactor = 4

// enqueueStatusChange queues rs after its batch delay (at once if it has not been synced yet, or its
// syncs take no cluster time).
func (c *Controller) enqueueStatusChange(rs *api.ReplicaSet) {
	key := rs.Key()
	c.syncMu.Lock()
	took := c.syncTook[key]
	c.syncMu.Unlock()
	c.queue.AddAfter(key, statusBatchFactor*took)
}

// noteCountCost remembers how long the last sync of key took to claim and count its pods (the
// writes it made are not counted: a slow apiserver must not slow the status down).
func (c *Controller) noteCountCost(key string, took time.Duration) {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.syncTook[key] = took
}

// forgetCountCost forgets a deleted ReplicaSet's cost.
func (c *Controller) forgetCountCost(key string) {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	delete(c.syncTook, key)
}
