// Package garbagecollector is the garbage collector of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/garbagecollector): it deletes objects whose owners are gone,
// following metadata.ownerReferences, which is why deleting a Deployment also removes its
// ReplicaSets and their Pods.
//
// Read next: garbagecollector.go (the controller and what its informers enqueue), graph.go (how it
// finds an object's owners and dependents), reconcile.go (the three deletion policies), then
// Kubernetes' "Garbage Collection" and "Use Cascading Deletion" pages and the real package's
// garbagecollector.go (attemptToDeleteItem, orphanDependents).
//
// What it promises, as Kubernetes does:
//
//  1. Background propagation (the default): an object all of whose owners (matched by
//     ownerReferences[].uid) no longer exist is deleted. Deleting a Deployment removes its
//     ReplicaSets; their disappearance in turn removes the Pods.
//  2. Foreground propagation: the apiserver gives an owner deleted with propagationPolicy
//     Foreground a deletionTimestamp and the finalizer foregroundDeletion. The collector deletes the
//     owner's dependents first and removes the finalizer once no dependent with
//     blockOwnerDeletion=true remains; only then does the apiserver remove the owner.
//  3. Orphan propagation: an owner deleted with propagationPolicy Orphan gets the finalizer orphan.
//     The collector removes the owner's reference from every dependent, then the finalizer; the
//     dependents stay.
//  4. Before it deletes a dependent because its owner seems gone, it asks the apiserver (a live GET)
//     rather than trusting its cache, as Kubernetes' isDangling does: a lagging cache must never
//     cause a deletion.
//
// What it simplifies: Kubernetes builds a graph of every resource the apiserver serves, through
// discovery and metadata-only informers, with "virtual" nodes for owners it has not seen yet. kubesim
// watches a fixed list of kinds (Deployments, DaemonSets, ReplicaSets, Pods) and answers "who are the
// dependents of uid X?" with an owner-uid index on each informer. Deletes carry no uid precondition.
package garbagecollector
