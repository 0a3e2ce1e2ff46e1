// Package endpoints is the Endpoints controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/endpoint): for every Service with a selector it keeps an Endpoints
// object of the same name, the list `kubectl get endpoints` and `kubectl describe svc` show. Since
// Kubernetes 1.33 Endpoints is deprecated in favour of EndpointSlices (controllers/endpointslice),
// which kube-proxy reads; this controller still runs in every cluster, so older tools keep working.
//
// Read next: endpoints.go, then controllers/endpointslice for the slices kube-proxy uses.
//
// What it promises: ready pods (condition Ready=True) are in subsets[].addresses, pods that are not
// ready in subsets[].notReadyAddresses, both with the target ports resolved on that pod; terminating
// and finished pods, and pods without an IP, are left out. A Service that selects nothing has an
// Endpoints object with no subsets (`kubectl get endpoints` prints <none>). Deleting the Service
// deletes its Endpoints.
//
// Each write carries the annotation endpoints.kubernetes.io/last-change-trigger-time: when the
// earliest change since the Service's last sync happened (controllers/internal/triggertime.go).
//
// What it simplifies: no publishNotReadyAddresses, no 1000-address truncation annotation.
package endpoints
