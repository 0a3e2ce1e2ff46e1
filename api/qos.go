// qos.go: QOSClass, a pod's quality of service class as the kubelet computes it (GetPodQOS in
// k8s.io/kubernetes/pkg/apis/core/v1/helper/qos). Under memory pressure the kubelet evicts BestEffort
// pods first, then Burstable pods using more than they requested, and Guaranteed pods last.
package api

import "kubesim/api/resource"

// QOSClass computes a pod's class from the cpu and memory of its containers:
//   - BestEffort: no container requests or limits any cpu or memory;
//   - Guaranteed: every container has cpu and memory limits, and every request equals its limit;
//   - Burstable: anything in between.
//
// It reads the requests as stored, after defaulting, which copies a missing request from the limit
// (SetDefaults): a pod written with limits only is Guaranteed only once defaulted.
func QOSClass(pod *Pod) PodQOSClass {
	requests, limits := resource.ResourceList{}, resource.ResourceList{}
	guaranteed := true
	for _, c := range AllContainers(&pod.Spec) {
		res := &c.Resources
		for name, q := range res.Requests {
			if qosResource(name) && q.Sign() > 0 {
				requests.Add(resource.ResourceList{name: q})
			}
		}
		limited := 0
		for name, q := range res.Limits {
			if qosResource(name) && q.Sign() > 0 {
				limits.Add(resource.ResourceList{name: q})
				limited++
			}
		}
		if limited < 2 { // not both cpu and memory
			guaranteed = false
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return PodQOSBestEffort
	}
	if guaranteed {
		for name, req := range requests {
			if limit, ok := limits[name]; !ok || limit.Cmp(req) != 0 {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return PodQOSGuaranteed
	}
	return PodQOSBurstable
}

// qosResource reports whether a resource counts towards QoS: only cpu and memory do.
func qosResource(name resource.ResourceName) bool {
	return name == resource.ResourceCPU || name == resource.ResourceMemory
}
