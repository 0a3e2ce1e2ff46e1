// Package internal holds the few helpers the workload controllers share, each the kubesim form of a
// piece of k8s.io/kubernetes pkg/controller (controller_utils.go, controller_ref_manager.go) and
// pkg/api/v1/pod (util.go):
//
//   - Expectations (expectations.go): ControllerExpectations, the memory of writes a controller has made
//     but not yet seen come back through its informer. It is what keeps a ReplicaSet controller with a
//     lagging cache from creating the same pods twice.
//   - Claim, RefWriter and NewControllerRef (controllerref.go): the ControllerRefManager's adoption and
//     release (RefWriter writes and traces them, for any kind), and the ownerReference a controller
//     stamps on what it creates.
//   - IsPodActive, IsPodReady, IsPodAvailable (pods.go): podutil's readiness and availability.
//   - SameStatus, SameList (status.go): whether a status or list write would change nothing.
//   - Tracer (tracer.go): how a controller writes its lines of the trace under its identity.
//
// Read next: pkg/controller/controller_utils.go (ControllerExpectations, UIDTrackingControllerExpectations)
// and pkg/controller/controller_ref_manager.go (ClaimPods, ClaimReplicaSets) in Kubernetes.
//
// Simplifications: one Expectations type tracks adds by count and deletes by pod key (Kubernetes has a
// counting type and a UID-tracking wrapper); adoption checks the owner's deletionTimestamp in the
// informer cache instead of re-reading it live from the apiserver; adoption and release are updates
// (with optimistic concurrency) rather than patches.
package internal
