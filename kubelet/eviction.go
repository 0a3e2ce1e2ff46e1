// eviction.go: the eviction manager (pkg/kubelet/eviction), which keeps the node itself alive when
// memory or disk runs short.
//
//	synchronizeEviction(ctx)   observe the signals; set the pressure conditions; evict one pod if a
//	                           hard threshold is crossed
//
// The signals: memory.available = node memory capacity - the working set of every container (from
// the runtime's stats), and nodefs.available = free space on the node's filesystem. When
// memory.available drops below the hard threshold (100Mi by default), the node reports
// MemoryPressure=True (`kubelet has insufficient memory available`; the node lifecycle controller then adds the
// node.kubernetes.io/memory-pressure:NoSchedule taint), records `EvictionThresholdMet: Attempting to
// reclaim memory`, and evicts one pod per round, chosen as Kubernetes ranks them: pods using more
// memory than they requested first (so BestEffort pods, which request nothing, go first), then lower
// priority, then the largest usage above request. The evicted pod is killed with a grace period of
// 1 second (a hard threshold allows no more; pkg/kubelet/eviction/eviction_manager.go) and stays in
// the API as Failed with reason Evicted, the condition DisruptionTarget (reason TerminationByKubelet)
// and a message naming every container that used more than it requested.
//
// A pressure condition stays True for evictionPressureTransitionPeriod (5 minutes) after the signal
// recovers, so the node does not flap between pressure and no pressure.
//
// kubesim simplifies: disk pressure sets the DiskPressure condition but evicts nothing (Kubernetes
// would first delete unused images and dead containers), and there are no soft thresholds.
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

// evictionState is what the eviction manager remembers between rounds.
type evictionState struct {
	memoryPressureSeen time.Time // last time memory.available was under its threshold
	diskPressureSeen   time.Time
}

// podUsage is one pod's memory use, for ranking.
type podUsage struct {
	w          *podWorker
	usage      int64 // working set of the pod's containers
	request    int64 // memory requests of the pod
	containers map[string]containerUsage
}

// containerUsage is one container's memory use and request.
type containerUsage struct{ use, request int64 }

// synchronizeEviction runs one round of the eviction manager; it reports whether it evicted a pod.
func (k *Kubelet) synchronizeEviction(ctx context.Context) bool {
	var stats *fakeruntime.NodeStats
	if _, _, err := k.call(func() (err error) { stats, err = k.runtime.Stats(ctx); return }); err != nil {
		return false
	}
	now := k.clock.Now()
	capacity := k.cfg.Capacity.Memory().Value()
	available := capacity - int64(stats.MemoryWorkingSetBytes)
	threshold := k.cfg.EvictionHard.MemoryAvailable.Value()
	memoryCrossed := available < threshold
	diskCrossed := false
	if fs := stats.ImageFs; fs.CapacityBytes > 0 && k.cfg.EvictionHard.NodeFsAvailablePercent > 0 {
		free := int64(fs.CapacityBytes) - int64(fs.UsedBytes)
		diskCrossed = free*100 < int64(fs.CapacityBytes)*k.cfg.EvictionHard.NodeFsAvailablePercent
	}
	if memoryCrossed {
		k.eviction.memoryPressureSeen = now
	}
	if diskCrossed {
		k.eviction.diskPressureSeen = now
	}
	underPressure := func(seen time.Time) bool { return !seen.IsZero() && now.Sub(seen) < evictionPressureTransitionPeriod }
	k.mu.Lock()
	k.health.memoryPressure = underPressure(k.eviction.memoryPressureSeen)
	k.health.diskPressure = underPressure(k.eviction.diskPressureSeen)
	k.mu.Unlock()
	if !memoryCrossed {
		return false
	}

	k.recorder.Event(ctx, k.nodeRef(), api.EventTypeWarning, "EvictionThresholdMet", "Attempting to reclaim memory")
	k.record("eviction", "nodes/"+k.nodeName, "", "memory.available %s is below the hard eviction threshold %s: evicting a pod",
		bytesQty(available), k.cfg.EvictionHard.MemoryAvailable.String())
	candidates := k.rankForMemory(stats)
	if len(candidates) == 0 {
		k.record("eviction", "nodes/"+k.nodeName, "", "no pod can be evicted to reclaim memory")
		return true
	}
	k.evict(ctx, candidates[0], available)
	return true
}

// rankForMemory orders the evictable pods as Kubernetes' rankMemoryPressure does.
func (k *Kubelet) rankForMemory(stats *fakeruntime.NodeStats) []podUsage {
	bySandbox := map[string]*podWorker{}
	for _, w := range k.workers {
		if w.sandboxID != "" {
			bySandbox[w.sandboxID] = w
		}
	}
	usage := map[string]*podUsage{}
	for _, c := range stats.Containers {
		w := bySandbox[c.PodSandboxID]
		if w == nil || w.terminated || w.evicted || w.pod.DeletionTimestamp != nil || priority(w.pod) >= systemCriticalPriority {
			continue
		}
		u := usage[w.uid]
		if u == nil {
			u = &podUsage{w: w, request: api.PodRequests(w.pod).Memory().Value(), containers: map[string]containerUsage{}}
			usage[w.uid] = u
		}
		ws := int64(c.MemoryWorkingSetBytes)
		u.usage += ws
		req := int64(0)
		for _, spec := range w.pod.Spec.Containers {
			if spec.Name == c.Metadata.Name {
				req = spec.Resources.Requests.Memory().Value()
			}
		}
		u.containers[c.Metadata.Name] = containerUsage{use: ws, request: req}
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

// evict fails a pod with reason Evicted and kills it.
func (k *Kubelet) evict(ctx context.Context, u podUsage, available int64) {
	w := u.w
	msg := fmt.Sprintf("The node was low on resource: %s. Threshold quantity: %s, available: %s. ", resource.ResourceMemory,
		k.cfg.EvictionHard.MemoryAvailable.String(), bytesQty(available))
	for _, spec := range w.pod.Spec.Containers {
		if c, ok := u.containers[spec.Name]; ok && c.use > c.request {
			msg += fmt.Sprintf("Container %s was using %s, request is %s, has larger consumption of %s. ", spec.Name,
				bytesQty(c.use), bytesQty(c.request), resource.ResourceMemory)
		}
	}
	k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "Evicted", msg)
	w.evicted = true
	w.status = &api.PodStatus{Phase: api.PodFailed, Reason: api.PodReasonEvicted, Message: msg,
		Conditions: []api.PodCondition{{Type: conditionDisruptionTarget, Status: api.ConditionTrue,
			Reason: reasonTerminationByKubelet, Message: msg, LastTransitionTime: api.NewTime(k.clock.Now())}}}
	k.podRecord(w, "evict", "evicted pod %s (QoS %s, using %s of memory, requested %s): %s", w.key, api.QOSClass(w.pod),
		bytesQty(u.usage), bytesQty(u.request), msg)
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
