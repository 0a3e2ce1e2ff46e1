// resourcehelpers.go: PodRequests, the resources a pod asks for, as the scheduler's NodeResourcesFit
// plugin and the ResourceQuota admission plugin count them (PodRequests in
// k8s.io/component-helpers/resource). A node fits a pod if the pod's requests plus those of the pods
// already on the node stay within the node's allocatable.
package api

import "kubesim/api/resource"

// PodRequests sums the requests of a pod's containers. A resource a container does not request
// counts as zero here; the scheduler's scoring, not this sum, substitutes defaults for those.
// (kubesim has no init containers or pod overhead, which Kubernetes also adds in.)
func PodRequests(pod *Pod) resource.ResourceList {
	total := resource.ResourceList{}
	for i := range pod.Spec.Containers {
		total.Add(pod.Spec.Containers[i].Resources.Requests)
	}
	return total
}
