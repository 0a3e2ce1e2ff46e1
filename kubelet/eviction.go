// eviction.go: the eviction manager (pkg/kubelet/eviction), which keeps the node itself alive when
// memory or disk runs short.
//
//	synchronizeEviction(ctx)   observe the signals; set the pressure conditions; evict one pod if a
//	                           hard threshold is crossed
//
// The signals: memory.available = node memory capacity - the working set of every container (from
// the runtime's stats), and nodefs.available = free space on the node's filesystem. When
// memory.available drops below the hard threshold (100Mi by default), the node reports
// MemoryPressure=True (`kubelet has insufficient memory available`, and with it the
// node.kubernetes.io/memory-pressure:NoSchedule taint), records `EvictionThresholdMet: Attempting to
// reclaim memory`, and evicts one pod per round, chosen as Kubernetes ranks them: pods using more
// memory than they requested first (so BestEffort pods, which request nothing, go first), then lower
// priority, then the largest usage above request. The evicted pod is killed at once (hard
// thresholds allow no grace period) and stays in the API as Failed with reason Evicted and a message
// naming the container that used the most.
//
// A pressure condition stays True for evictionPressureTransitionPeriod (5 minutes) after the signal
// recovers, so the node does not flap between pressure and no pressure.
//
// kubesim simplifies: disk pressure sets the DiskPressure condition but evicts nothing (Kubernetes
// would first delete unused images and dead containers), and there are no soft thresholds.
package kubelet

import (
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

// systemCriticalPriority is the priority at and above which a pod is never evicted.
const systemCriticalPriority = 2_000_000_000

// evictionState is what the eviction manager remembers between rounds.
type evictionState struct {
	memoryPressureSeen time.Time // last time memory.available was under its threshold
	diskPressureSeen   time.Time
}

// podUsage is one pod's memory use, for ranking.
type podUsage struct {
	w       *podWorker
	usage   int64 // working set of the pod's containers
	request int64 // memory requests of the pod
	top     string
	topUse  int64
	topReq  int64
}

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
			u = &podUsage{w: w, request: api.PodRequests(w.pod).Memory().Value()}
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
		if ws-req > u.topUse-u.topReq || u.top == "" {
			u.top, u.topUse, u.topReq = c.Metadata.Name, ws, req
		}
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
		return compareInt64(b.usage-b.request, a.usage-a.request)
	})
	return out
}

// evict fails a pod with reason Evicted and kills it.
func (k *Kubelet) evict(ctx context.Context, u podUsage, available int64) {
	w := u.w
	msg := fmt.Sprintf("The node was low on resource: %s. Threshold quantity: %s, available: %s. ", resource.ResourceMemory,
		k.cfg.EvictionHard.MemoryAvailable.String(), bytesQty(available))
	if u.topUse > u.topReq {
		msg += fmt.Sprintf("Container %s was using %s, request is %s, has larger consumption of %s. ", u.top, bytesQty(u.topUse),
			bytesQty(u.topReq), resource.ResourceMemory)
	}
	k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "Evicted", msg)
	w.evicted = true
	w.status = &api.PodStatus{Phase: api.PodFailed, Reason: api.PodReasonEvicted, Message: msg}
	s := &syncResult{k: k, w: w}
	k.killPod(ctx, w, s, 0, "Stopping container %s")
	w.terminated = true
	if v, err := k.inspect(ctx, w); err == nil {
		w.view = v
	}
	k.setPodStatus(w)
	k.podRecord(w, "evict", "evicted pod %s (QoS %s, using %s of memory, requested %s): %s", w.key, api.QOSClass(w.pod),
		bytesQty(u.usage), bytesQty(u.request), msg)
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

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
