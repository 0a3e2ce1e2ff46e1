// pod_updates.go: which pod updates from the apiserver make the kubelet sync a pod, and the status
// manager's reconcile of the rest (pkg/kubelet/config/config.go checkAndUpdatePod and
// podsDifferSemantically, kubelet.go HandlePodReconcile, status/status_manager.go syncBatch and
// needsReconcile).
//
//	podUpdated(old, new)      the pod informer's update handler: SYNC or RECONCILE
//	podsDifferSemantically    spec, labels, annotations or deletion changed: a sync
//	reconcileStatuses()       every 10s, while some pod's status changed under the kubelet: compare
//	                          the apiserver's status with the kubelet's and mark it to be written
//
// The kubelet's config source turns an update into a sync of the pod only when something the
// kubelet acts on changed: the spec, the labels, the annotations, the deletion timestamp or grace
// period. An update that changes only the status, the kubelet's own status writes above all, is a
// RECONCILE: the kubelet takes the new object and does not sync. Its status manager compares, every
// 10 seconds (syncPeriod), the status the apiserver holds with the one it computed, and writes its
// own again where they differ (the node lifecycle controller set Ready=False on a lost node's pods,
// say). Everything else that drives a sync comes from the kubelet itself: the PLEG's events, probe
// results, and the pod worker's own requeues after each sync (pod_workers.go).
package kubelet

import (
	"reflect"
	"time"

	"kubesim/api"
)

// statusSyncPeriod is how often the status manager reconciles the statuses the apiserver holds with
// its own (the status manager's syncPeriod).
const statusSyncPeriod = 10 * time.Second

// podUpdated is the pod informer's update handler.
func (k *Kubelet) podUpdated(old, p *api.Pod) {
	if podsDifferSemantically(old, p) {
		k.enqueue(p.Key()) // SyncLoop UPDATE (or DELETE, for a graceful deletion)
		return
	}
	// SyncLoop RECONCILE: the status manager looks at it at its next periodic sync.
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.reconcile == nil {
		k.reconcile = map[string]bool{}
	}
	k.reconcile[p.Key()] = true
	if k.timers[taskStatusSync] == nil && !k.stopped {
		// The status manager's ticker runs from the kubelet's start, every statusSyncPeriod: its
		// next tick.
		since := k.clock.Since(k.started)
		next := (since/statusSyncPeriod + 1) * statusSyncPeriod

		k.timers[taskStatusSync] = k.clock.AfterFunc(next-since, func() {
			k.mu.Lock()
			k.due[taskStatusSync] = true
			delete(k.timers, taskStatusSync)
			k.mu.Unlock()
			k.nudge(sidePod)
		})
	}
}

// podsDifferSemantically reports whether an update changes what the kubelet acts on (Kubernetes
// compares with reflect.DeepEqual, and so does kubesim).
func podsDifferSemantically(a, b *api.Pod) bool {
	return !reflect.DeepEqual(a.Spec, b.Spec) ||
		!reflect.DeepEqual(a.Labels, b.Labels) ||
		!reflect.DeepEqual(a.Annotations, b.Annotations) ||
		!reflect.DeepEqual(a.DeletionTimestamp, b.DeletionTimestamp) ||
		!reflect.DeepEqual(a.DeletionGracePeriodSeconds, b.DeletionGracePeriodSeconds)
}

// reconcileStatuses is the status manager's periodic reconcile, for the pods whose status changed
// in the apiserver since the last one: the kubelet takes the new object, and where the status it
// holds differs from its own (and the kubelet's last write is not merely still on its way) the
// status is written again by writeOneStatus.
func (k *Kubelet) reconcileStatuses() {
	k.mu.Lock()
	keys := sortedKeys(k.reconcile)
	clear(k.reconcile)
	k.mu.Unlock()
	for _, key := range keys {
		p, ok := k.pods.Get(key)
		if !ok {
			continue
		}
		w := k.workers[p.UID]
		if w == nil || w.status == nil {
			continue
		}
		w.pod = p
		k.markStatus(w, true)
	}
}
