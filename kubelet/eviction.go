// eviction.go: the eviction manager (pkg/kubelet/eviction), which keeps the node itself alive when
// memory or disk runs short.
//
//	synchronizeEviction(ctx)   observe the signals; set the pressure conditions; evict a pod over
//	                           its ephemeral-storage limit; else, if a hard threshold is crossed,
//	                           reclaim what the node can (disk) and evict one pod
//
// The signals: memory.available = node memory capacity - the working set of every container (from
// the runtime's stats); nodefs.available and imagefs.available = free space on the node's
// filesystem, which holds the images and every container's writable layer (runtime/disk.go). Without
// a separate image filesystem, Kubernetes' default and kubesim's only layout, both measure the same
// disk, so imagefs.available<15% is crossed first, at 85% used, before nodefs.available<10%.
//
// When a hard threshold is crossed (memory.available<100Mi, nodefs.available<10%,
// imagefs.available<15% by default), the node reports MemoryPressure=True (`kubelet has insufficient
// memory available`) or DiskPressure=True (`kubelet has disk pressure`); the node lifecycle
// controller then adds the node.kubernetes.io/memory-pressure or disk-pressure:NoSchedule taint. The
// manager records `EvictionThresholdMet: Attempting to reclaim memory` (or `ephemeral-storage`).
// For disk it first reclaims what belongs to the node, not to a running pod: it deletes every dead
// container it may (container_gc.go) and every unused image older than 2 minutes (image_gc.go), and
// evicts no one if the threshold is met no longer. Otherwise it evicts one pod per round, ranked as
// Kubernetes ranks them: pods using more than they requested first (so pods that request nothing
// go first), then lower priority, then the largest usage above request. The evicted pod is killed
// with a grace period of 1 second (a hard threshold allows no more) and stays in the API as Failed
// with reason Evicted, the condition DisruptionTarget (reason TerminationByKubelet) and a message
// naming every container that used more than it requested.
//
// Before any threshold, each round checks each container's writable layer against its
// limits.ephemeral-storage: a container over its limit gets its pod evicted at once, whatever the
// node's free space (`Container log exceeded its local ephemeral storage limit "1Gi". `; Kubernetes
// adds no DisruptionTarget condition for it).
//
// A pressure condition stays True for evictionPressureTransitionPeriod (5 minutes) after the signal
// recovers, so the node does not flap between pressure and no pressure.
//
// kubesim simplifies: no soft thresholds, no inode signals, no emptyDir or pod-level limits.
package kubelet

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	fakeruntime "kubesim/runtime"
)

// evictionPressureTransitionPeriod is how long a pressure condition outlives its signal.
const evictionPressureTransitionPeriod = 5 * time.Minute

// evictionGracePeriod is the grace period of a pod evicted for a hard threshold
// (immediateEvictionGracePeriodSeconds).
const evictionGracePeriod int64 = 1

// The condition an evicted pod gets, as every disruption by a component does.
const (
	conditionDisruptionTarget  api.PodConditionType = "DisruptionTarget"
	reasonTerminationByKubelet                      = "TerminationByKubelet"
)

// systemCriticalPriority is the priority at and above which a pod is never evicted.
const systemCriticalPriority = 2_000_000_000

// evictionState is what the eviction manager, and the garbage collectors it calls on, remember
// between rounds. Only the pod side touches it.
type evictionState struct {
	memoryPressureSeen  time.Time // last time memory.available was under its threshold
	diskPressureSeen    time.Time // last time nodefs.available or imagefs.available was
	images              imageGCState
	containersCollected time.Time // the last periodic container garbage collection
}

// signal is one observed eviction signal.
type signal struct {
	name      string                // "memory.available", "imagefs.available"
	resource  resource.ResourceName // what evicting a pod reclaims
	threshold string                // the threshold's quantity, as the eviction message prints it
	available int64
	crossed   bool
}

// podUsage is one pod's use of the resource being reclaimed, for ranking.
type podUsage struct {
	w          *podWorker
	usage      int64
	request    int64
	containers map[string]containerUsage
}

// containerUsage is one container's use and request.
type containerUsage struct{ use, request int64 }

// synchronizeEviction runs one round of the eviction manager; it reports whether it did something
// (evicted a pod, or reclaimed disk).
func (k *Kubelet) synchronizeEviction(ctx context.Context) bool {
	stats := k.nodeStats(ctx)
	if stats == nil {
		return false
	}
	now := k.clock.Now()
	memory, disk := k.observeMemory(stats), k.observeDisk(stats)
	if memory.crossed {
		k.eviction.memoryPressureSeen = now
	}
	if disk.crossed {
		k.eviction.diskPressureSeen = now
	}
	underPressure := func(seen time.Time) bool { return !seen.IsZero() && now.Sub(seen) < evictionPressureTransitionPeriod }
	k.mu.Lock()
	k.health.memoryPressure = underPressure(k.eviction.memoryPressureSeen)
	k.health.diskPressure = underPressure(k.eviction.diskPressureSeen)
	k.mu.Unlock()
	if k.evictOverLimit(ctx, stats) {
		return true
	}
	sig := memory
	if !memory.crossed {
		sig = disk
	}
	if !sig.crossed {
		return false
	}

	k.recorder.Event(ctx, k.nodeRef(), api.EventTypeWarning, "EvictionThresholdMet", "Attempting to reclaim "+string(sig.resource))
	if sig.resource == resource.ResourceEphemeralStorage {
		k.record("eviction", "nodes/"+k.nodeName, "", "%s %s is below the hard eviction threshold %s: reclaiming dead containers and unused images first",
			sig.name, bytesQty(sig.available), sig.threshold)
		k.deleteAllUnusedContainers(ctx)
		k.deleteUnusedImages(ctx, now)
		if stats = k.nodeStats(ctx); stats == nil {
			return true
		}
		if sig = k.observeDisk(stats); !sig.crossed {
			k.record("eviction", "nodes/"+k.nodeName, "", "disk reclaimed without evicting a pod: %s", k.diskSummary(stats))
			return true
		}
		k.record("eviction", "nodes/"+k.nodeName, "", "%s %s is still below %s with nothing left to reclaim: evicting a pod",
			sig.name, bytesQty(sig.available), sig.threshold)
	} else {
		k.record("eviction", "nodes/"+k.nodeName, "", "%s %s is below the hard eviction threshold %s: evicting a pod",
			sig.name, bytesQty(sig.available), sig.threshold)
	}
	usageOf := func(c fakeruntime.ContainerStats) int64 { return int64(c.MemoryWorkingSetBytes) }
	if sig.resource == resource.ResourceEphemeralStorage {
		usageOf = func(c fakeruntime.ContainerStats) int64 { return int64(c.RootfsUsedBytes) }
	}
	candidates := k.rankPods(stats, sig.resource, usageOf)
	if len(candidates) == 0 {
		k.record("eviction", "nodes/"+k.nodeName, "", "no pod can be evicted to reclaim %s", sig.resource)
		return true
	}
	k.evict(ctx, candidates[0], sig)
	return true
}

// nodeStats asks the runtime for the node's usage; nil if it does not answer.
func (k *Kubelet) nodeStats(ctx context.Context) *fakeruntime.NodeStats {
	var stats *fakeruntime.NodeStats
	if _, _, err := k.call(func() (err error) { stats, err = k.runtime.Stats(ctx); return }); err != nil {
		return nil
	}
	return stats
}

// observeMemory is the memory.available signal.
func (k *Kubelet) observeMemory(stats *fakeruntime.NodeStats) signal {
	available := k.cfg.Capacity.Memory().Value() - int64(stats.MemoryWorkingSetBytes)
	threshold := k.cfg.EvictionHard.MemoryAvailable
	return signal{name: "memory.available", resource: resource.ResourceMemory, threshold: threshold.String(),
		available: available, crossed: available < threshold.Value()}
}

// observeDisk is the first disk signal crossed (imagefs.available, then nodefs.available: on one
// shared filesystem imagefs's larger threshold is crossed first), or imagefs.available if neither is.
func (k *Kubelet) observeDisk(stats *fakeruntime.NodeStats) signal {
	capacity := int64(stats.Fs.CapacityBytes)
	available := capacity - int64(stats.Fs.UsedBytes)
	var signals []signal
	for _, t := range []struct {
		name    string
		percent int64
	}{{"imagefs.available", k.cfg.EvictionHard.ImageFsAvailablePercent}, {"nodefs.available", k.cfg.EvictionHard.NodeFsAvailablePercent}} {
		threshold := percentOf(t.percent, capacity)
		signals = append(signals, signal{name: t.name, resource: resource.ResourceEphemeralStorage, available: available,
			threshold: resource.NewQuantity(threshold, resource.BinarySI).String(),
			crossed:   capacity > 0 && t.percent > 0 && available < threshold})
	}
	for _, sig := range signals {
		if sig.crossed {
			return sig
		}
	}
	return signals[0]
}

// percentOf is a percentage threshold's quantity as the kubelet computes it: the flag's percentage
// parsed as a float32 fraction, times the capacity. That is why a real message reads "Threshold
// quantity: 644245120" for 15% of 4Gi, not 614Mi.
func percentOf(percent, capacity int64) int64 {
	fraction := float32(percent) / 100
	return int64(float64(capacity) * float64(fraction))
}

// diskSummary describes the node's disk for trace lines.
func (k *Kubelet) diskSummary(stats *fakeruntime.NodeStats) string {
	fs := stats.Fs
	if fs.CapacityBytes == 0 {
		return "no disk"
	}
	return fmt.Sprintf("%s used of %s (%d%%), %s available", bytesQty(int64(fs.UsedBytes)), bytesQty(int64(fs.CapacityBytes)),
		fs.UsedBytes*100/fs.CapacityBytes, bytesQty(int64(fs.CapacityBytes)-int64(fs.UsedBytes)))
}

// evictable returns the worker of a pod the eviction manager may evict, by sandbox ID.
func (k *Kubelet) evictable() map[string]*podWorker {
	bySandbox := map[string]*podWorker{}
	for _, w := range k.workers {
		if evictable(w) {
			bySandbox[w.sandboxID] = w
		}
	}
	return bySandbox
}

// evictable reports whether the eviction manager may evict w's pod.
func evictable(w *podWorker) bool {
	return w.sandboxID != "" && !w.terminated && !w.evicted && w.pod.DeletionTimestamp == nil && priority(w.pod) < systemCriticalPriority
}

// storageLimited reports whether a container of w's pod has a limits.ephemeral-storage, which
// evictOverLimit checks each round (a pod's resources never change: worked out once).
func (w *podWorker) storageLimited() bool {
	if w.storageLimit == 0 {
		w.storageLimit = -1
		for _, spec := range w.pod.Spec.Containers {
			if limit, ok := spec.Resources.Limits[resource.ResourceEphemeralStorage]; ok && limit.Sign() > 0 {
				w.storageLimit = 1
			}
		}
	}
	return w.storageLimit > 0
}

// evictOverLimit evicts every pod with a container whose writable layer exceeds its
// limits.ephemeral-storage (the eviction manager's localStorageEviction); it reports whether it
// evicted any.
func (k *Kubelet) evictOverLimit(ctx context.Context, stats *fakeruntime.NodeStats) bool {
	var bySandbox map[string]*podWorker // the evictable pods with a limit to exceed
	for _, w := range k.workers {
		if w.storageLimited() && evictable(w) {
			if bySandbox == nil {
				bySandbox = map[string]*podWorker{}
			}
			bySandbox[w.sandboxID] = w
		}
	}
	if bySandbox == nil {
		return false
	}
	did := false
	for _, c := range stats.Containers {
		w := bySandbox[c.PodSandboxID]
		if w == nil || w.evicted {
			continue
		}
		for _, spec := range w.pod.Spec.Containers {
			limit, ok := spec.Resources.Limits[resource.ResourceEphemeralStorage]
			if spec.Name != c.Metadata.Name || !ok || limit.Sign() <= 0 || int64(c.RootfsUsedBytes) <= limit.Value() {
				continue
			}
			msg := fmt.Sprintf("Container %s exceeded its local ephemeral storage limit %q. ", spec.Name, limit.String())
			k.evictPod(ctx, w, msg, false, "evicted pod %s (container %s wrote %s, over its limits.ephemeral-storage %s): %s",
				w.key, spec.Name, bytesQty(int64(c.RootfsUsedBytes)), limit.String(), msg)
			did = true
		}
	}
	return did
}

// rankPods orders the evictable pods as Kubernetes' rankMemoryPressure and rankDiskPressureFunc
// do: usage over request first, then lower priority, then the largest usage above request.
func (k *Kubelet) rankPods(stats *fakeruntime.NodeStats, res resource.ResourceName, usageOf func(fakeruntime.ContainerStats) int64) []podUsage {
	bySandbox := k.evictable()
	usage := map[string]*podUsage{}
	for _, c := range stats.Containers {
		w := bySandbox[c.PodSandboxID]
		if w == nil {
			continue
		}
		u := usage[w.uid]
		if u == nil {
			requests := api.PodRequests(w.pod)[res]
			u = &podUsage{w: w, request: requests.Value(), containers: map[string]containerUsage{}}
			usage[w.uid] = u
		}
		use := usageOf(c)
		u.usage += use
		req := int64(0)
		for _, spec := range w.pod.Spec.Containers {
			if spec.Name == c.Metadata.Name {
				q := spec.Resources.Requests[res]
				req = q.Value()
			}
		}
		u.containers[c.Metadata.Name] = containerUsage{use: use, request: req}
	}
	out := make([]podUsage, 0, len(usage))
	for _, uid := range sortedKeys(usage) {
		out = append(out, *usage[uid])
	}
	slices.SortStableFunc(out, func(a, b podUsage) int {
		aOver, bOver := a.usage > a.request, b.usage > b.request
		switch {
		case aOver != bOver:
			if aOver {
				return -1
			}
			return 1
		case priority(a.w.pod) != priority(b.w.pod):
			return int(priority(a.w.pod) - priority(b.w.pod))
		}
		return cmp.Compare(b.usage-b.request, a.usage-a.request)
	})
	return out
}

// evict evicts the pod first in line to reclaim sig's resource.
func (k *Kubelet) evict(ctx context.Context, u podUsage, sig signal) {
	msg := fmt.Sprintf("The node was low on resource: %s. Threshold quantity: %s, available: %s. ", sig.resource,
		sig.threshold, bytesQty(sig.available))
	for _, spec := range u.w.pod.Spec.Containers {
		if c, ok := u.containers[spec.Name]; ok && c.use > c.request {
			msg += fmt.Sprintf("Container %s was using %s, request is %s, has larger consumption of %s. ", spec.Name,
				bytesQty(c.use), bytesQty(c.request), sig.resource)
		}
	}
	k.evictPod(ctx, u.w, msg, true, "evicted pod %s (QoS %s, using %s of %s, requested %s): %s", u.w.key, api.QOSClass(u.w.pod),
		bytesQty(u.usage), sig.resource, bytesQty(u.request), msg)
}

// evictPod fails a pod with reason Evicted and msg, and kills it; format and args tell the trace why.
// disruption adds the DisruptionTarget condition (a threshold's eviction has it; a limit's does not).
func (k *Kubelet) evictPod(ctx context.Context, w *podWorker, msg string, disruption bool, format string, args ...any) {
	k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "Evicted", msg)
	w.evicted = true
	w.status = &api.PodStatus{Phase: api.PodFailed, Reason: api.PodReasonEvicted, Message: msg}
	if disruption {
		w.status.Conditions = []api.PodCondition{{Type: conditionDisruptionTarget, Status: api.ConditionTrue,
			Reason: reasonTerminationByKubelet, Message: msg, LastTransitionTime: api.NewTime(k.clock.Now())}}
	}
	k.podRecord(w, "evict", format, args...)
	k.finishEviction(ctx, w, &syncResult{k: k, w: w})
}

// finishEviction stops an evicted pod's containers, each with the eviction's grace period, then its
// sandbox. While a container is still stopping, the pod's next sync (when the stop completes) comes
// back here.
func (k *Kubelet) finishEviction(ctx context.Context, w *podWorker, s *syncResult) {
	k.killPod(ctx, w, s, evictionGracePeriod, "Stopping container %s")
	if now := k.clock.Now(); now.Before(w.busyUntil) {
		k.enqueueAfter(w.key, w.busyUntil.Sub(now))
		return
	}
	w.terminated = true
	if v, err := k.inspect(ctx, w); err == nil {
		w.view = v
	}
	k.setPodStatus(w)
}

func priority(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// bytesQty prints a byte count as Kubernetes prints memory quantities ("100Mi", "51200Ki"). Real
// working sets are whole pages, so real messages show Ki; the fake's are rounded down to match.
func bytesQty(b int64) string { return resource.NewQuantity(b/1024*1024, resource.BinarySI).String() }
