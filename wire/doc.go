// Package wire holds the shapes that travel between a client and the apiserver: a Request, its
// Response, and the events of a watch. It mirrors what k8s.io/apimachinery gives both sides of a REST
// call (metav1.ListOptions, watch.Event, watch.Interface), and it is a leaf: it imports only api.
//
// Read next: request.go (one API call, as the in-process form of `GET /api/v1/namespaces/default/pods`),
// then watch.go (an open watch, as a stream of events).
//
// # Why a package of its own
//
// The client and the apiserver must agree on these shapes, but a client must not depend on the
// apiserver: that would link etcd into every controller, the scheduler and the kubelets, and make the
// rule "only the apiserver touches etcd" a habit instead of a fact. With the shapes here, package
// client imports wire and never apiserver; the in-process transport (*apiserver.Server) and an HTTP
// transport both speak them.
package wire
