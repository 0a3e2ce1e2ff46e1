// Package client is client-go in miniature: how every component talks to the apiserver.
//
// Read next: client.go (the typed client), informer.go (list + watch + local cache), factory.go
// (shared informers), component.go (the contract every component implements), record.go (events),
// retry.go (RetryOnConflict), and the workqueue sub-package.
//
// # What it promises
//
//   - Every call goes through the apiserver's full pipeline under the caller's identity (its token);
//     there is no other way to reach etcd.
//   - client.For[api.Pod](c) is the typed client of one kind: Get, List, Create, Update, UpdateStatus,
//     Delete, Watch; objects returned by Get, List and writes belong to the caller. c.Resource(res) is
//     the dynamic client (dynamic.go) for a resource known only at run time, as the garbage collector
//     and the namespace controller need.
//   - The client speaks only the shapes of package wire through a Transport, so it never depends on
//     the apiserver (and never links etcd).
//   - An Informer lists once, watches from the list's resourceVersion, applies each change to an
//     indexed local cache (by namespace, and by any index you add, such as spec.nodeName), calls
//     handlers in order, resumes a broken watch from its last resourceVersion and relists on 410
//     Gone. Its cached objects are shared: never modify them (KUBESIM_CACHE_MUTATION_DETECTOR=true
//     makes an informer panic when one was, as client-go's KUBE_CACHE_MUTATION_DETECTOR does).
//   - The event recorder aggregates identical events (count, lastTimestamp) as client-go does.
//
// # What it simplifies
//
// One transport today, the in-process one (*apiserver.Server); an HTTP transport will produce the
// same wire requests. An InformerFactory shares one informer per resource among the components of one
// process (kube-controller-manager's controllers); the scheduler and each kubelet own theirs. The
// event recorder writes synchronously and does not merge "similar" events.
package client
