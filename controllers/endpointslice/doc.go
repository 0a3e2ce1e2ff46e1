// Package endpointslice is the EndpointSlice controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/endpointslice): for every Service with a selector it keeps
// EndpointSlices (discovery.k8s.io/v1) listing the pods the selector matches, with their IPs, the
// resolved target ports and three conditions per endpoint. kube-proxy and CoreDNS read these slices.
//
// Read next: endpointslice.go (the controller), reconcile.go (one Service's slices), then the
// Endpoints mirror in controllers/endpoints and the consumers in kubeproxy/ and dns/.
//
// What it promises:
//
//  1. A pod is an endpoint of a Service when the selector matches its labels, it has a pod IP and it
//     has not finished. Its conditions: serving = the pod is Ready (its readiness probe passes);
//     terminating = it has a deletionTimestamp; ready = serving and not terminating. A readiness
//     flip changes the slice within one reconcile.
//  2. targetPort is resolved per pod: a number as it is, a name through the pod's container ports,
//     none as the Service's port. Pods whose ports resolve differently go into different slices; a
//     named port a pod does not have is left out of that pod's slice.
//  3. Slices carry the labels kubernetes.io/service-name and
//     endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io, and the Service as
//     their controller owner.
//  4. The slices a sync creates or updates carry endpoints.kubernetes.io/last-change-trigger-time:
//     when the earliest change since the Service's last sync happened (a pod's Ready condition
//     turning over, or the Service's creation at its first sync; controllers/internal/triggertime.go).
//
// What it simplifies: no 100-endpoint limit per slice, no topology hints, no dual stack; the
// Service's deletion deletes its slices here rather than through the garbage collector.
package endpointslice
