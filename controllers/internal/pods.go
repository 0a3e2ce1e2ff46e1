// pods.go: the pod predicates the workload controllers count with (k8s.io/kubernetes pkg/api/v1/pod and
// pkg/controller): active, ready, available.
//
//	IsPodActive(pod), IsPodAvailable(pod, minReadySeconds, now)   (readiness: api.IsPodReady)
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

// IsPodAvailable reports whether a pod has been ready for more than minReadySeconds at now (as in
// Kubernetes, the Ready transition plus minReadySeconds must lie strictly before now): the definition
// of "available" that ReplicaSet and Deployment status count.
func IsPodAvailable(pod *api.Pod, minReadySeconds int32, now time.Time) bool {
	if !api.IsPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := api.GetPodCondition(pod, api.PodReady)
	minReady := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(minReady).Before(now)
}
