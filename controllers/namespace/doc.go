// Package namespace is the namespace controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/namespace, with its deletion/namespaced_resources_deleter.go): it
// empties a namespace that is being deleted, then lets it go.
//
// Read next: namespace.go (the controller), deleter.go (emptying one namespace), then Kubernetes'
// "Namespaces" concept page and the real namespaced_resources_deleter.go.
//
// How deletion works, in Kubernetes and here:
//
//  1. `kubectl delete namespace demo`: the apiserver does not remove the namespace. It sets a
//     deletionTimestamp and status.phase Terminating; from then on the NamespaceLifecycle admission
//     plugin refuses new objects in it. Every namespace carries the spec finalizer "kubernetes".
//  2. This controller sees the Terminating namespace, deletes every object in it, kind by kind, and
//     waits (requeueing itself) while some remain, for example pods still in their grace period.
//  3. Once nothing is left it removes "kubernetes" from spec.finalizers through the
//     namespaces/finalize subresource; with no finalizer left, the apiserver deletes the namespace.
//
// What it promises: nothing in a deleted namespace survives it; the namespace disappears only when it
// is empty.
//
// What it simplifies: Kubernetes discovers every namespaced resource (including custom ones) through
// the discovery API and uses deletecollection with the metadata client; kubesim walks the kinds its
// apiserver registers and deletes object by object. Like Kubernetes, it lists the namespace's contents
// from the apiserver, not from informers: it must see every kind, and must not miss what a cache has
// not caught up with. The status conditions Kubernetes reports while deleting
// (NamespaceContentRemaining, NamespaceDeletionContentFailure, ...) are not written.
package namespace
