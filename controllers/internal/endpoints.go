// endpoints.go: what the Endpoints and EndpointSlice controllers share (k8s.io/kubernetes
// pkg/controller/util/endpoint and pkg/api/v1/pod FindPort):
//
//	QueueServices(services, pods, add) queue a Service when it changes, or a pod it selects does
//	ServicesForPod(services, pod)      the Services in the pod's namespace whose selector matches it
//	PodsForService(pods, svc)          the pods a Service selects, sorted by name
//	ShouldPodBeInEndpoints(pod, term)  has an IP, not finished, and (unless term) not terminating
//	FindPort(pod, svcPort)             the container port a Service port's targetPort names
//
// A Service without a selector selects nothing: its endpoints are written by hand (or by another
// controller) and these controllers leave them alone.
package internal

import (
	"fmt"
	"maps"

	"kubesim/api"
	"kubesim/client"
)

// QueueServices adds a Service's key ("namespace/name") whenever the Service changes, and the keys of
// the Services that select a pod whenever the pod changes (as it was and as it is): what both
// controllers follow.
func QueueServices(services *client.Informer[api.Service, *api.Service], pods *client.Informer[api.Pod, *api.Pod], add func(key string)) {
	service := func(s *api.Service) { add(s.Namespace + "/" + s.Name) }
	services.AddHandler(client.Handler[*api.Service]{
		OnAdd: service, OnUpdate: func(_, s *api.Service) { service(s) }, OnDelete: service,
	})
	pod := func(p *api.Pod) {
		for _, svc := range ServicesForPod(services.ByIndex(client.IndexNamespace, p.Namespace), p) {
			service(svc)
		}
	}
	pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd: pod, OnUpdate: func(old, p *api.Pod) { pod(old); pod(p) }, OnDelete: pod,
	})
}

// ServicesForPod returns the Services of the pod's namespace whose selector matches the pod's
// labels, from services sorted by key.
func ServicesForPod(services []*api.Service, pod *api.Pod) []*api.Service {
	var out []*api.Service
	for _, svc := range services {
		if svc.Namespace == pod.Namespace && Selects(svc, pod) {
			out = append(out, svc)
		}
	}
	return out
}

// Selects reports whether svc's selector matches pod: every key=value of a non-empty selector.
func Selects(svc *api.Service, pod *api.Pod) bool {
	if len(svc.Spec.Selector) == 0 {
		return false
	}
	for k, v := range svc.Spec.Selector {
		if got, ok := pod.Labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// PodsForService returns the pods svc selects, from pods of its namespace sorted by key.
func PodsForService(pods []*api.Pod, svc *api.Service) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if Selects(svc, p) {
			out = append(out, p)
		}
	}
	return out
}

// ShouldPodBeInEndpoints: a pod is an endpoint once it has an IP and until it finishes; a
// terminating pod only if includeTerminating (EndpointSlices keep it, marked terminating).
func ShouldPodBeInEndpoints(pod *api.Pod, includeTerminating bool) bool {
	if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed || pod.Status.PodIP == "" {
		return false
	}
	return includeTerminating || pod.DeletionTimestamp == nil
}

// ShouldSetHostname says whether pod's endpoint in svc carries the pod's hostname: the pod has a
// hostname and names svc, in its own namespace, as its subdomain. CoreDNS then answers
// <hostname>.<service>.<namespace>.svc.cluster.local with the pod's IP.
func ShouldSetHostname(pod *api.Pod, svc *api.Service) bool {
	return pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && svc.Namespace == pod.Namespace
}

// ServiceLabels are the labels the objects listing svc's endpoints (Endpoints, EndpointSlices) take
// from it: a copy of svc's labels without the reserved keys, with service.kubernetes.io/headless when
// svc has no cluster IP. Each controller adds its own keys.
func ServiceLabels(svc *api.Service, reserved ...string) map[string]string {
	labels := maps.Clone(svc.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	for _, key := range append(reserved, api.LabelIsHeadlessService) {
		delete(labels, key)
	}
	if !api.IsServiceIPSet(svc) {
		labels[api.LabelIsHeadlessService] = ""
	}
	return labels
}

// FindPort resolves a Service port's targetPort on a pod: a number is used as it is (whether or not a
// container declares it), a name must be some container's port name, and no targetPort means the
// Service's own port.
func FindPort(pod *api.Pod, sp *api.ServicePort) (int32, error) {
	tp := sp.TargetPort
	switch {
	case tp.Type == api.StringType && tp.StrVal != "":
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == tp.StrVal && protocolOrTCP(p.Protocol) == protocolOrTCP(sp.Protocol) {
					return p.ContainerPort, nil
				}
			}
		}
		return 0, fmt.Errorf("no suitable port for manifest: %s", pod.UID)
	case tp.Type == api.IntType && tp.IntVal != 0:
		return tp.IntVal, nil
	}
	return sp.Port, nil
}

func protocolOrTCP(p api.Protocol) api.Protocol {
	if p == "" {
		return api.ProtocolTCP
	}
	return p
}
