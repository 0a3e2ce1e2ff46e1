// pods.go: the pod predicates the workload controllers count with (k8s.io/kubernetes pkg/api/v1/pod and
// pkg/controller): active, ready, available.
//
//	IsPodActive(pod), IsPodReady(pod), PodCondition(pod, t), IsPodAvailable(pod, minReadySeconds, now)
package internal

import (
	"time"

	"kubesim/api"
)

// IsPodActive reports whether a pod still counts towards its controller's replicas: it has not
// finished (Succeeded or Failed) and is not being deleted. A terminating pod does not count, so a
// ReplicaSet replaces it at once rather than when it is finally gone.
func IsPodActive(pod *api.Pod) bool {
	return pod.Status.Phase != api.PodSucceeded && pod.Status.Phase != api.PodFailed && pod.DeletionTimestamp == nil
}

// PodCondition returns the pod's condition of type t, or nil: api.GetPodCondition.
func PodCondition(pod *api.Pod, t api.PodConditionType) *api.PodCondition {
	return api.GetPodCondition(pod, t)
}

// IsPodReady reports whether the kubelet says the pod is Ready (condition Ready=True): api.IsPodReady.
func IsPodReady(pod *api.Pod) bool { return api.IsPodReady(pod) }

// IsPodAvailable reports whether a pod has been ready for more than minReadySeconds at now (as in
// Kubernetes, the Ready transition plus minReadySeconds must lie strictly before now): the definition
// of "available" that ReplicaSet and Deployment status count.
func IsPodAvailable(pod *api.Pod, minReadySeconds int32, now time.Time) bool {
	if !IsPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := PodCondition(pod, api.PodReady)
	minReady := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(minReady).Before(now)
}
