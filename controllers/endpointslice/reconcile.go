// reconcile.go: one Service's EndpointSlices (pkg/controller/endpointslice/reconciler.go, much
// simplified).
//
//	Reconcile(ctx, key)   desired slices from the selected pods, then create, update or delete
//
// The desired state is one slice per distinct set of resolved ports (usually one), holding every
// selected pod that should be an endpoint, sorted by pod name, each with its node's name and zone. A
// Service that selects nothing keeps one empty slice, as Kubernetes keeps a placeholder; when its
// first pod comes, the placeholder is updated in place, not replaced. A pod whose node the controller
// does not know is left out and the Service retried.
package endpointslice

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
)

// desiredSlice is the content one slice should have.
type desiredSlice struct {
	labels    map[string]string // the same for every slice of the Service
	ports     []api.EndpointSlicePort
	endpoints []api.Endpoint
}

// Reconcile brings the slices of the Service key up to date. It is Idle when they already are.
func (ec *Controller) Reconcile(ctx context.Context, k string) (workloop.Result, error) {
	namespace, name, _ := strings.Cut(k, "/")
	existing := ec.slicesOf(namespace, name)
	svc, ok := ec.services.Get(k)
	if !ok || len(svc.Spec.Selector) == 0 {
		if ok { // a Service without a selector: its endpoints are someone else's business
			return workloop.Result{Idle: true}, nil
		}
		ec.triggers.Forget(namespace, name)
		// The Service is gone: so are its slices (Kubernetes leaves this to the garbage collector,
		// through the slices' owner reference).
		for _, s := range existing {
			ec.record("delete", s, "Service %s is gone: delete its EndpointSlice %s", k, s.Name)
			if _, _, err := client.For[api.EndpointSlice](ec.client).Delete(ctx, s.Namespace, s.Name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return workloop.Result{}, err
			}
		}
		return workloop.Result{Idle: len(existing) == 0}, nil
	}

	pods := internal.PodsForService(ec.pods.ByIndex(client.IndexNamespace, svc.Namespace), svc)
	// Computed at every sync, a write or not, so that the next one compares with what this one saw;
	// only the slices this sync creates or updates carry it.
	triggerTime := ec.triggers.Compute(svc, pods)
	desired, missing := ec.desired(svc, pods)
	byPorts := map[string]*api.EndpointSlice{}
	var extra []*api.EndpointSlice
	for _, s := range existing {
		pk := portsKey(s.Ports)
		if _, dup := byPorts[pk]; dup {
			extra = append(extra, s)
			continue
		}
		byPorts[pk] = s
	}
	wrote := false
	var creates []desiredSlice
	for _, d := range desired {
		pk := portsKey(d.ports)
		cur, ok := byPorts[pk]
		delete(byPorts, pk)
		if !ok {
			creates = append(creates, d)
			continue
		}
		if internal.SameList(cur.Endpoints, d.endpoints) && internal.SameList(cur.Ports, d.ports) && maps.Equal(cur.Labels, d.labels) {
			continue
		}
		wrote = true
		if err := ec.write(ctx, svc, cur, d, triggerTime); err != nil {
			return workloop.Result{}, err
		}
	}
	for _, s := range byPorts {
		extra = append(extra, s)
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].Name < extra[j].Name })
	// A slice that would be deleted while another is created is updated to the new content instead,
	// as Kubernetes' reconciler does (finalize): the placeholder of a Service that selected nothing
	// becomes its first real slice under the same name.
	for len(extra) > 0 && len(creates) > 0 {
		cur, d := extra[0], creates[len(creates)-1]
		extra, creates = extra[1:], creates[:len(creates)-1]
		wrote = true
		if err := ec.write(ctx, svc, cur, d, triggerTime); err != nil {
			return workloop.Result{}, err
		}
	}
	for _, d := range creates {
		wrote = true
		if err := ec.write(ctx, svc, nil, d, triggerTime); err != nil {
			return workloop.Result{}, err
		}
	}
	for _, s := range extra {
		wrote = true
		ec.record("delete", s, "Service %s no longer needs EndpointSlice %s (its ports changed)", k, s.Name)
		if _, _, err := client.For[api.EndpointSlice](ec.client).Delete(ctx, s.Namespace, s.Name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return workloop.Result{}, err
		}
	}
	return workloop.Result{Idle: !wrote}, missing
}

// slicesOf returns the slices this controller manages for a Service, sorted by name.
func (ec *Controller) slicesOf(namespace, service string) []*api.EndpointSlice {
	var out []*api.EndpointSlice
	for _, s := range ec.slices.ByIndex(client.IndexNamespace, namespace) {
		if s.Labels[api.LabelServiceName] == service && s.Labels[api.LabelManagedBy] == ManagedBy {
			out = append(out, s)
		}
	}
	return out
}

// desired groups the Service's endpoints by their resolved ports. missing names the pods left out
// because their node is not known (yet).
func (ec *Controller) desired(svc *api.Service, pods []*api.Pod) ([]desiredSlice, error) {
	labels := sliceLabels(svc)
	groups := map[string]*desiredSlice{}
	var order []string
	var missing []error
	for _, pod := range pods {
		if !internal.ShouldPodBeInEndpoints(pod, true) {
			continue
		}
		node, found := ec.nodes.Get(pod.Spec.NodeName)
		if !found {
			missing = append(missing, fmt.Errorf("skipping Pod %s for Service %s/%s: Node %s Not Found", pod.Name, svc.Namespace, svc.Name, pod.Spec.NodeName))
			continue
		}
		ports := endpointPorts(svc, pod)
		pk := portsKey(ports)
		g, ok := groups[pk]
		if !ok {
			g = &desiredSlice{labels: labels, ports: ports}
			groups[pk] = g
			order = append(order, pk)
		}
		g.endpoints = append(g.endpoints, podToEndpoint(svc, pod, node))
	}
	if len(order) == 0 {
		return []desiredSlice{{labels: labels}}, errors.Join(missing...) // the placeholder: no endpoints, no ports
	}
	sort.Strings(order)
	out := make([]desiredSlice, 0, len(order))
	for _, pk := range order {
		out = append(out, *groups[pk])
	}
	return out, errors.Join(missing...)
}

// endpointPorts resolves each Service port on the pod; a port the pod cannot resolve is left out.
func endpointPorts(svc *api.Service, pod *api.Pod) []api.EndpointSlicePort {
	var out []api.EndpointSlicePort
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		port, err := internal.FindPort(pod, sp)
		if err != nil {
			continue
		}
		proto := sp.Protocol
		if proto == "" {
			proto = api.ProtocolTCP
		}
		out = append(out, api.EndpointSlicePort{Name: api.Ptr(sp.Name), Protocol: api.Ptr(proto), Port: api.Ptr(port)})
	}
	return out
}

// podToEndpoint is the pod as an endpoint of svc, with its three conditions, its node and the node's
// zone, and its hostname when the pod names svc as its subdomain.
func podToEndpoint(svc *api.Service, pod *api.Pod, node *api.Node) api.Endpoint {
	terminating := pod.DeletionTimestamp != nil
	serving := api.IsPodReady(pod)
	ep := api.Endpoint{
		Addresses: []string{pod.Status.PodIP},
		Conditions: api.EndpointConditions{Ready: api.Ptr(serving && !terminating), Serving: api.Ptr(serving),
			Terminating: api.Ptr(terminating)},
		TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
	}
	if internal.ShouldSetHostname(pod, svc) {
		ep.Hostname = api.Ptr(pod.Spec.Hostname)
	}
	if pod.Spec.NodeName != "" {
		ep.NodeName = api.Ptr(pod.Spec.NodeName)
	}
	if zone, ok := node.Labels[api.LabelTopologyZone]; ok {
		ep.Zone = api.Ptr(zone)
	}
	return ep
}

// write creates the slice (cur nil) or updates it to d, with the sync's trigger time.
func (ec *Controller) write(ctx context.Context, svc *api.Service, cur *api.EndpointSlice, d desiredSlice, triggerTime time.Time) error {
	slices := client.For[api.EndpointSlice](ec.client)
	if cur == nil {
		s := &api.EndpointSlice{
			ObjectMeta: api.ObjectMeta{GenerateName: svc.Name + "-", Namespace: svc.Namespace,
				Labels: maps.Clone(d.labels),
				OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID,
					Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}}},
			AddressType: api.AddressTypeIPv4, Endpoints: d.endpoints, Ports: d.ports,
		}
		internal.SetTriggerTime(&s.Annotations, triggerTime)
		created, err := slices.Create(ctx, s)
		if err == nil {
			ec.record("create", created, "Service %s/%s: create EndpointSlice %s: %s", svc.Namespace, svc.Name, created.Name, Summary(created))
		}
		return err
	}
	s := api.DeepCopy(cur) // never modify the cache's copy
	s.Endpoints, s.Ports, s.Labels = d.endpoints, d.ports, maps.Clone(d.labels)
	internal.SetTriggerTime(&s.Annotations, triggerTime)
	ec.record("update", s, "Service %s/%s: update EndpointSlice %s: %s", svc.Namespace, svc.Name, s.Name, Summary(s))
	_, err := slices.Update(ctx, s)
	return err
}

// sliceLabels are the labels of a Service's slices (setEndpointSliceLabels): the Service's own (with
// the headless label), and the two the controller owns.
func sliceLabels(svc *api.Service) map[string]string {
	labels := internal.ServiceLabels(svc, api.LabelServiceName, api.LabelManagedBy)
	labels[api.LabelServiceName] = svc.Name
	labels[api.LabelManagedBy] = ManagedBy
	return labels
}

func (ec *Controller) record(action string, s *api.EndpointSlice, format string, args ...any) {
	ec.tracer.Record(action, "endpointslices/"+s.Namespace+"/"+s.Name, s.ResourceVersion,
		format, args...)
}

// Summary says what a slice holds, the way a learner reads it: "ready 10.244.0.2:80 (web-1); not
// ready 10.244.1.2 (web-2, serving=false)".
func Summary(s *api.EndpointSlice) string {
	var ports []string
	for _, p := range s.Ports {
		if p.Port != nil {
			ports = append(ports, fmt.Sprint(*p.Port))
		}
	}
	var ready, notReady []string
	for _, ep := range s.Endpoints {
		who := strings.Join(ep.Addresses, ",")
		if ep.TargetRef != nil {
			who += " (" + ep.TargetRef.Name + ")"
		}
		switch {
		case ep.Conditions.Ready == nil || *ep.Conditions.Ready:
			ready = append(ready, who)
		case ep.Conditions.Terminating != nil && *ep.Conditions.Terminating:
			notReady = append(notReady, who+" terminating")
		default:
			notReady = append(notReady, who)
		}
	}
	out := "ports [" + strings.Join(ports, " ") + "]"
	if len(ready) > 0 {
		out += ", ready " + strings.Join(ready, ", ")
	}
	if len(notReady) > 0 {
		out += ", not ready " + strings.Join(notReady, ", ")
	}
	if len(s.Endpoints) == 0 {
		out += ", no endpoints"
	}
	return out
}

// portsKey identifies a set of resolved ports.
func portsKey(ports []api.EndpointSlicePort) string {
	parts := make([]string, 0, len(ports))
	for _, p := range ports {
		var name, proto string
		var port int32
		if p.Name != nil {
			name = *p.Name
		}
		if p.Protocol != nil {
			proto = string(*p.Protocol)
		}
		if p.Port != nil {
			port = *p.Port
		}
		parts = append(parts, fmt.Sprintf("%s/%s/%d", name, proto, port))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
