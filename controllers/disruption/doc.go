// Package disruption is the disruption controller of kube-controller-manager
// (k8s.io/kubernetes pkg/controller/disruption): it keeps every PodDisruptionBudget's status, so that
// the Eviction API can answer "may this pod go now?" from one number, disruptionsAllowed.
//
// Read next: apiserver/subresources.go (the Eviction API, which reads that number, refuses with 429
// when it is 0, and otherwise takes one disruption from it), kubectl/nodes.go (drain, which retries a
// refused eviction every 5 seconds).
//
// For each budget it counts the pods its selector picks in its namespace:
//
//	expectedPods     the pods there should be: with an integer minAvailable, the pods found; with
//	                 maxUnavailable or a percentage, the scale of their controllers (a Deployment's
//	                 or ReplicaSet's spec.replicas)
//	desiredHealthy   minAvailable (a percentage of expectedPods, rounded up), or expectedPods minus
//	                 maxUnavailable
//	currentHealthy   the pods that are Ready, not being deleted, and not among disruptedPods (evicted
//	                 moments ago, not yet seen to go)
//	disruptionsAllowed   currentHealthy - desiredHealthy, at least 0
//
// and sets the DisruptionAllowed condition (SufficientPods or InsufficientPods).
//
// Simplified: controllers are found through ownerReferences to ReplicaSets and Deployments only
// (no StatefulSets or scale subresources of custom resources); an entry of disruptedPods is dropped
// as soon as the pod is gone or being deleted, or after the 2-minute DeletionTimeout.
package disruption
