// Package controllers is kube-controller-manager: the binary that runs Kubernetes' built-in
// controllers, one per sub-package, behind one leader election.
//
// Read next: manager.go (the replica: its controller list, its shared informer factory, its
// election), workloop (the loop every controller runs around its Reconcile), then replicaset, the
// smallest controller with the full shape, and deployment, which drives ReplicaSets. In Kubernetes:
// cmd/kube-controller-manager/app/controllermanager.go and the "Controllers" concept page.
//
// # What it promises
//
//   - Every controller has the same shape: shared informers feed its work queue with keys, and
//     workloop.Loop reconciles one key at a time, level-based, with retries and backoff.
//   - One informer per resource per replica: every controller of a replica that reads pods shares
//     one pod informer, so the apiserver serves one pod watch per replica, not one per controller.
//   - Of several replicas, only the one holding the Lease kube-system/kube-controller-manager acts;
//     the others keep their caches warm and take over when the Lease expires.
//   - Controllers talk only to the apiserver, through client, as system:kube-controller-manager.
//
// # What it simplifies
//
// The controller list is fixed (no --controllers flag) and all controllers share one identity
// (kubeadm's default). A replica that loses its Lease stops its controllers rather than exiting.
package controllers
