// container_gc.go: the container garbage collector (pkg/kubelet/container/container_gc.go,
// pkg/kubelet/kuberuntime/kuberuntime_gc.go), which removes dead containers and sandboxes, and with
// them their writable layers, from the node's disk.
//
//	containerGarbageCollect(ctx, now)   every minute (ContainerGCPeriod): the content of evicted pods
//	deleteAllUnusedContainers(ctx)      the eviction manager's reclaim: that of every finished pod too
//
// A live pod keeps the last dead run of each of its containers, for `kubectl logs --previous`
// (sync_pod.go's pruneDeadContainers removes the older ones as it restarts a container), and a
// deleted pod's sandboxes go when it terminates (termination.go). What is left for the collector is
// the pods that are over but still in the API: an evicted pod's content may go at once (its
// containers, its sandbox: kubectl logs has nothing to show for it afterwards); a pod that finished
// (Succeeded, or Failed for another reason) keeps its containers until the eviction manager, short
// of disk, deletes every unused container.
package kubelet

import (
	"context"
	"time"

	fakeruntime "kubesim/runtime"
)

// containerGCPeriod is how often the container garbage collector runs (ContainerGCPeriod).
const containerGCPeriod = time.Minute

// containerGarbageCollect is the periodic collection, due every containerGCPeriod.
func (k *Kubelet) containerGarbageCollect(ctx context.Context, now time.Time) {
	if !k.eviction.containersCollected.IsZero() && now.Sub(k.eviction.containersCollected) < containerGCPeriod {
		return
	}
	k.eviction.containersCollected = now
	k.collectContainers(ctx, false)
}

// deleteAllUnusedContainers removes the content of every pod that has finished.
func (k *Kubelet) deleteAllUnusedContainers(ctx context.Context) { k.collectContainers(ctx, true) }

// collectContainers removes the sandboxes (and their containers) of evicted pods, and with
// finished, of every pod whose containers will not run again.
func (k *Kubelet) collectContainers(ctx context.Context, finished bool) {
	var sandboxes []*fakeruntime.PodSandbox
	if _, _, err := k.call(func() (err error) { sandboxes, err = k.runtime.ListPodSandbox(ctx, nil); return }); err != nil {
		return
	}
	for _, sb := range sandboxes {
		w := k.workers[sb.Metadata.UID]
		if w == nil || !w.terminated || w.deleted || !w.evicted && !finished {
			continue // running, still stopping, or not the collector's (cleanupOrphans, termination.go)
		}
		if _, _, err := k.call(func() error { return k.runtime.RemovePodSandbox(ctx, sb.ID) }); err != nil {
			continue
		}
		if w.evicted {
			k.podRecord(w, "container-gc", "removed sandbox %s and its containers: the pod was evicted", shortID(sb.ID))
		} else {
			k.podRecord(w, "container-gc", "removed sandbox %s and its containers: the pod has finished and the disk is short", shortID(sb.ID))
		}
	}
}
