// podcondition.go: reading a pod's conditions, as every component that looks at pods does
// (k8s.io/kubernetes pkg/api/v1/pod: GetPodCondition, IsPodReady). Interface: GetPodCondition,
// IsPodReady.
//
// The kubelet writes the conditions (PodScheduled by the scheduler, DisruptionTarget by whoever
// evicts); Ready=True is what Services, ReplicaSets and kubectl's READY column count.
package api

// GetPodCondition returns the pod's condition of type t, or nil if it has none.
func GetPodCondition(pod *Pod, t PodConditionType) *PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == t {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the kubelet says the pod is Ready (condition Ready=True).
func IsPodReady(pod *Pod) bool {
	c := GetPodCondition(pod, PodReady)
	return c != nil && c.Status == ConditionTrue
}
