// quotausage.go: what an object counts for against a ResourceQuota, the quota evaluators of
// k8s.io/kubernetes/pkg/quota/v1/evaluator/core and the generic object-count evaluator. The
// ResourceQuota admission plugin charges a new object's usage to status.used, and the resourcequota
// controller sums the usage of every object in a namespace to recompute it; both read it here.
//
//	QuotaResources(res)        the quota names res's evaluator counts ("pods", "requests.cpu", "count/deployments.apps")
//	QuotaUsage(obj, now)       what one object counts for
//	PodCountsAgainstQuota(pod, now)   whether a pod still holds its resources
//	ObjectCountResource(res)   "count/<resource>.<group>", the object-count name of any resource
package api

import (
	"time"

	"kubesim/api/resource"
)

// ObjectCountResource is the object-count quota name of a resource, as Kubernetes accepts it for
// every resource: "count/pods", "count/deployments.apps".
func ObjectCountResource(res *Resource) resource.ResourceName {
	return resource.ResourceName("count/" + res.GroupResource())
}

// legacyCountResources are the older quota names of some object counts, kept by Kubernetes beside
// count/<resource> ("services: 10"). Of them, kubesim has services and resourcequotas.
var legacyCountResources = map[string]resource.ResourceName{
	"services":       "services",
	"resourcequotas": "resourcequotas",
}

// podComputeResources are the compute quota names of the pod evaluator; cpu and memory are the older
// spellings of requests.cpu and requests.memory.
var podComputeResources = []resource.ResourceName{
	resource.ResourceCPU, resource.ResourceMemory,
	ResourceRequestsCPU, ResourceRequestsMemory,
	ResourceLimitsCPU, ResourceLimitsMemory,
}

// QuotaResources are the quota names the evaluator of res counts: for pods the pod count and the
// compute resources, for every other namespaced resource its object count.
func QuotaResources(res *Resource) []resource.ResourceName {
	names := countResources(res)
	if res.Name == "pods" {
		names = append(names, podComputeResources...)
	}
	return names
}

// countResources are the names under which one object of res counts as one.
func countResources(res *Resource) []resource.ResourceName {
	names := []resource.ResourceName{ObjectCountResource(res)}
	if res.Name == "pods" {
		names = append(names, resource.ResourcePods)
	}
	if legacy, ok := legacyCountResources[res.Name]; ok {
		names = append(names, legacy)
	}
	return names
}

// PodComputeResources are the quota names that, once a quota constrains them, every container of a
// new pod must set (the pod evaluator's Constraints).
func PodComputeResources() []resource.ResourceName { return podComputeResources }

// QuotaUsage is what obj counts for against a quota: one object under each of its count names, and
// for a pod its containers' requests and limits. A pod that no longer counts (PodCountsAgainstQuota)
// counts for nothing; a compute resource no container sets is left out rather than counted as zero.
func QuotaUsage(obj Object, now time.Time) resource.ResourceList {
	res, ok := ResourceOf(obj)
	if !ok {
		return resource.ResourceList{}
	}
	pod, isPod := obj.(*Pod)
	if isPod && !PodCountsAgainstQuota(pod, now) {
		return resource.ResourceList{}
	}
	usage := resource.ResourceList{}
	for _, name := range countResources(res) {
		usage[name] = resource.NewQuantity(1, resource.DecimalSI)
	}
	if isPod {
		usage.Add(podComputeUsage(pod))
	}
	return usage
}

// podComputeUsage is a pod's containers' requests and limits under their quota names.
func podComputeUsage(pod *Pod) resource.ResourceList {
	usage := resource.ResourceList{}
	requests := PodRequests(pod)
	limits := resource.ResourceList{}
	for i := range pod.Spec.Containers {
		limits.Add(pod.Spec.Containers[i].Resources.Limits)
	}
	if q, ok := requests[resource.ResourceCPU]; ok {
		usage[resource.ResourceCPU], usage[ResourceRequestsCPU] = q, q
	}
	if q, ok := requests[resource.ResourceMemory]; ok {
		usage[resource.ResourceMemory], usage[ResourceRequestsMemory] = q, q
	}
	if q, ok := limits[resource.ResourceCPU]; ok {
		usage[ResourceLimitsCPU] = q
	}
	if q, ok := limits[resource.ResourceMemory]; ok {
		usage[ResourceLimitsMemory] = q
	}
	return usage
}

// PodCountsAgainstQuota (Kubernetes' QuotaV1Pod): a pod that has finished (Succeeded or Failed) no
// longer holds its resources, and neither does one whose deletion grace period has run out (the
// kubelet is only late to say so).
func PodCountsAgainstQuota(pod *Pod, now time.Time) bool {
	if pod.Status.Phase == PodSucceeded || pod.Status.Phase == PodFailed {
		return false
	}
	if pod.DeletionTimestamp != nil && pod.DeletionGracePeriodSeconds != nil {
		end := pod.DeletionTimestamp.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second)
		if now.After(end) {
			return false
		}
	}
	return true
}
