// resourcehelpers.go: PodRequests, the resources a pod asks for, as the scheduler's NodeResourcesFit
// plugin and the ResourceQuota admission plugin count them (PodRequests in
// k8s.io/component-helpers/resource). A node fits a pod if the pod's requests plus those of the pods
// already on the node stay within the node's allocatable.
package api

import "kubesim/api/resource"

// PodRequests sums the requests of a pod's containers; init containers run one at a time before
// them, so for each resource the pod needs the larger of that sum and any one init container's
// request. A resource a container does not request counts as zero here; the scheduler's scoring, not
// this sum, substitutes defaults for those. (kubesim has no pod overhead, which Kubernetes also adds.)
func PodRequests(pod *Pod) resource.ResourceList {
	total := resource.ResourceList{}
	for i := range pod.Spec.Containers {
		total.Add(pod.Spec.Containers[i].Resources.Requests)
	}
	for i := range pod.Spec.InitContainers {
		for name, q := range pod.Spec.InitContainers[i].Resources.Requests {
			if cur, ok := total[name]; !ok || q.Cmp(cur) > 0 {
				total[name] = q
			}
		}
	}
	return total
}

// AllContainers lists a pod's init containers, then its app containers, as the kubelet starts them.
func AllContainers(spec *PodSpec) []*Container {
	out := make([]*Container, 0, len(spec.InitContainers)+len(spec.Containers))
	for i := range spec.InitContainers {
		out = append(out, &spec.InitContainers[i])
	}
	for i := range spec.Containers {
		out = append(out, &spec.Containers[i])
	}
	return out
}
