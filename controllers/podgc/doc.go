// Package podgc is the pod garbage collector of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/podgc, gc_controller.go): it deletes pods nobody else will.
//
// Read next: podgc.go (the component and its 20-second pass), collect.go (what each pass deletes),
// then the "Garbage collection of Pods" section of Kubernetes' "Pod Lifecycle" page.
//
// Every gcCheckPeriod (20 s) one pass deletes, with grace period 0 (a force delete: there is no
// kubelet left to stop these pods, or no need to):
//
//  1. Terminated pods (phase Succeeded or Failed) beyond --terminated-pod-gc-threshold (12500 by
//     default), the oldest first. Below the threshold, finished pods stay for `kubectl logs`.
//  2. Orphaned pods: pods bound to a node that no longer exists. A node missing from the cache is
//     first quarantined for 40 s and then confirmed missing with the apiserver, so a node that is
//     only late to appear in the cache does not lose its pods. Before deleting an orphaned pod the
//     collector marks it Failed with the condition DisruptionTarget=True (reason DeletionByPodGC,
//     message "PodGC: node no longer exists"), as Kubernetes does since 1.26.
//  3. Unscheduled terminating pods: pods being deleted that never reached a node, which no kubelet
//     will ever confirm.
//
// What it simplifies: Kubernetes also force-deletes terminating pods on nodes tainted
// node.kubernetes.io/out-of-service (non-graceful node shutdown); kubesim does not.
package podgc
