// admission.go: node-level admission (pkg/kubelet/lifecycle/predicate.go), the kubelet's own check
// before it runs a pod.
//
//	admitPod(ctx, w, s)   accept the pod, or fail it: Evicted (the node is under pressure), OutOfcpu,
//	                      OutOfmemory, OutOfpods, NodeAffinity
//
// The scheduler already checked all of this, so why again? Because the kubelet cannot trust that a
// pod came through the scheduler: a pod created with spec.nodeName set skips it, and the scheduler
// may have decided from a stale cache. A rejected pod is not retried: it fails at once, phase Failed,
// with the reason and `Pod was rejected: Node didn't have enough resource: cpu, requested: 2000,
// used: 3500, capacity: 4000`. Its controller (a ReplicaSet) will notice and make another.
package kubelet

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/api/resource"
)

// admitPod runs the admission predicates; it reports whether the pod may run.
func (k *Kubelet) admitPod(ctx context.Context, w *podWorker, s *syncResult) bool {
	reason, message := k.admissionFailure(w)
	if reason == "" {
		w.admitted = true
		s.add("admitted pod %s (requests fit the node's allocatable)", w.key)
		return true
	}
	w.rejected = true
	w.terminated = true
	k.recorder.Event(ctx, w.pod, api.EventTypeWarning, reason, message)
	w.status = &api.PodStatus{Phase: api.PodFailed, Reason: reason, Message: "Pod was rejected: " + message}
	s.add("rejected pod %s: %s: %s", w.key, reason, message)
	return false
}

// admissionFailure returns why the pod cannot run here ("" if it can). The eviction manager's check
// comes first, as its admit handler is the kubelet's first.
func (k *Kubelet) admissionFailure(w *podWorker) (reason, message string) {
	if message := k.pressureRejects(w.pod); message != "" {
		return "Evicted", message
	}
	if !k.matchesNodeSelector(w.pod) {
		return "NodeAffinity", "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
	}
	alloc := k.cfg.Allocatable()
	// What the other admitted pods request: summed as whole millicores and bytes while each pod's
	// requests are whole ones (then the sum is exact, as the quantities' sum is), else as quantities.
	var sums admittedSums
	count := int64(0)
	exact := true
	for _, o := range k.workers {
		if o.uid == w.uid || !o.admitted || o.terminated {
			continue
		}
		exact = exact && sums.add(o.podRequests())
		count++
	}
	var used resource.ResourceList
	if !exact {
		used = resource.ResourceList{}
		for _, o := range k.workers { // quantities add exactly: the order does not matter
			if o.uid != w.uid && o.admitted && !o.terminated {
				used.Add(api.PodRequests(o.pod))
			}
		}
	}
	want := api.PodRequests(w.pod)
	if capacity := alloc.Pods().Value(); count+1 > capacity {
		return "OutOfpods", insufficient("pods", 1, count, capacity)
	}
	for i, name := range admissionResources {
		req, ok := want[name]
		if !ok || req.Sign() == 0 {
			continue
		}
		capacity, inUse, asked := admissionValue(name, alloc[name]), sums[i], admissionValue(name, req)
		if !exact {
			inUse = admissionValue(name, used[name])
		}
		if inUse+asked > capacity {
			return "OutOf" + string(name), insufficient(string(name), asked, inUse, capacity)
		}
	}
	return "", ""
}

// admissionResources are the resources node admission checks, in its order.
var admissionResources = [3]resource.ResourceName{resource.ResourceCPU, resource.ResourceMemory, resource.ResourceEphemeralStorage}

// admissionValue is a quantity as admission compares it: millicores for cpu, else whole units,
// rounded up.
func admissionValue(name resource.ResourceName, q resource.Quantity) int64 {
	if name == resource.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

// podRequestsMemo is a pod's requests as admission's whole numbers (exact: each of them is a
// whole number of millicores or bytes, so that whole numbers sum them exactly). The quantities
// themselves are not kept: a map of them per pod cost more than the rest of the pod worker, and
// the rare admission that needs them (a request of a fraction of a millicore or byte) sums them
// again from the pod.
type podRequestsMemo struct {
	whole  [3]int64 // by admissionResources
	exact  bool
	summed bool // the fields above are set
}

// admittedSums is the admitted pods' requests, in admission's whole numbers.
type admittedSums [3]int64

// add adds one pod's requests; false if they are not whole numbers, or the sum overflows.
func (s *admittedSums) add(r *podRequestsMemo) bool {
	if !r.exact {
		return false
	}
	for i, v := range r.whole {
		sum := s[i] + v
		if v > 0 && sum < s[i] {
			return false
		}
		s[i] = sum
	}
	return true
}

// pressureRejects is the eviction manager's admission (Admit in pkg/kubelet/eviction/eviction_manager.go):
// a node under disk pressure admits no pod; under memory pressure alone it refuses only BestEffort
// pods, unless they tolerate the memory-pressure taint. Critical pods are always admitted.
func (k *Kubelet) pressureRejects(p *api.Pod) string {
	k.mu.Lock()
	memory, disk := k.health.memoryPressure, k.health.diskPressure
	k.mu.Unlock()
	var conditions []string
	if memory {
		conditions = append(conditions, string(api.NodeMemoryPressure))
	}
	if disk {
		conditions = append(conditions, string(api.NodeDiskPressure))
	}
	switch {
	case len(conditions) == 0, p.Spec.Priority != nil && *p.Spec.Priority >= systemCriticalPriority:
		return ""
	case memory && !disk && (api.QOSClass(p) != api.PodQOSBestEffort ||
		api.TolerationsTolerateTaint(p.Spec.Tolerations, &api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule})):
		return ""
	}
	return fmt.Sprintf("The node had condition: [%s]. ", strings.Join(conditions, " "))
}

func insufficient(name string, requested, used, capacity int64) string {
	return fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", name, requested, used, capacity)
}

// matchesNodeSelector checks nodeSelector and required node affinity against the node's labels.
func (k *Kubelet) matchesNodeSelector(p *api.Pod) bool {
	return api.RequiredNodeSelectionMatches(p, k.nodeName, k.cfg.nodeLabels(k.nodeName))
}

// podRequests is api.PodRequests of the worker's pod in admission's whole numbers, summed once: a
// pod's resources never change (kubesim has no in-place resize, and validation forbids changing
// them), and the admission of each pod sums those of every other pod on the node.
func (w *podWorker) podRequests() *podRequestsMemo {
	if !w.requests.summed {
		list := api.PodRequests(w.pod)
		r := podRequestsMemo{exact: true, summed: true}
		for i, name := range admissionResources {
			q, ok := list[name]
			if !ok {
				continue
			}
			v := admissionValue(name, q)
			back := resource.NewQuantity(v, resource.DecimalSI)
			if name == resource.ResourceCPU {
				back = resource.NewMilliQuantity(v, resource.DecimalSI)
			}
			r.whole[i] = v
			r.exact = r.exact && v >= 0 && q.Cmp(back) == 0
		}
		w.requests = r
	}
	return &w.requests
}
