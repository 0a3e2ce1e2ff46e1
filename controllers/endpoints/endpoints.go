// endpoints.go: the Endpoints controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          write the Endpoints of Service key ("namespace/name")
//
// Subsets are grouped by resolved port set, addresses sorted by pod name, as Kubernetes'
// RepackSubsets does (it sorts by IP; by name reads better and is as stable).
package endpoints

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how the trace names the controller.
const Name = "endpoints-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Controller keeps the Endpoints of selector Services.
type Controller struct {
	workloop.Component // Name, Informers, Step, Run

	client    *client.Client
	tracer    internal.Tracer
	services  *client.Informer[api.Service, *api.Service]
	pods      *client.Informer[api.Pod, *api.Pod]
	endpoints *client.Informer[api.Endpoints, *api.Endpoints]
	queue     *workqueue.Queue[string]
	triggers  internal.TriggerTimes // the last-change-trigger-time of each Service's last sync
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	ec := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr},
		services:  client.InformerFor[api.Service](informers, client.FactoryOptions{}),
		pods:      client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		endpoints: client.InformerFor[api.Endpoints](informers, client.FactoryOptions{}),
		queue:     workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	ec.Component = workloop.NewComponent(&workloop.Loop{Queue: ec.queue, Reconcile: ec.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "services"}, ec.services, ec.pods, ec.endpoints)
	internal.QueueServices(ec.services, ec.pods, ec.queue.Add)
	ec.endpoints.AddHandler(client.Handler[*api.Endpoints]{
		OnDelete: func(e *api.Endpoints) { ec.queue.Add(e.Namespace + "/" + e.Name) },
	})
	return ec
}

// Reconcile writes the Endpoints of the Service key. It is Idle when they are already right.
func (ec *Controller) Reconcile(ctx context.Context, key string) (workloop.Result, error) {
	namespace, name, _ := strings.Cut(key, "/")
	cur, exists := ec.endpoints.Get(key)
	svc, ok := ec.services.Get(key)
	epClient := client.For[api.Endpoints](ec.client)
	if !ok {
		ec.triggers.Forget(namespace, name)
		if !exists {
			return workloop.Result{Idle: true}, nil
		}
		ec.record("delete", cur, "Service %s is gone: delete its Endpoints", key)
		if _, _, err := epClient.Delete(ctx, namespace, name, client.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return workloop.Result{}, err
		}
		return workloop.Result{}, nil
	}
	if len(svc.Spec.Selector) == 0 {
		return workloop.Result{Idle: true}, nil
	}
	pods := internal.PodsForService(ec.pods.ByIndex(client.IndexNamespace, svc.Namespace), svc)
	// Computed at every sync, a write or not, so that the next one compares with what this one saw.
	triggerTime := ec.triggers.Compute(svc, pods)
	subsets := ec.subsets(svc, pods)
	labels := endpointsLabels(svc)
	if exists && internal.SameList(cur.Subsets, subsets) && maps.Equal(cur.Labels, labels) {
		return workloop.Result{Idle: true}, nil
	}
	if !exists {
		ep := &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace, Labels: labels}, Subsets: subsets}
		internal.SetTriggerTime(&ep.Annotations, triggerTime)
		ec.record("create", ep, "Service %s: create Endpoints: %s", key, Summary(ep))
		_, err := epClient.Create(ctx, ep)
		return workloop.Result{}, err
	}
	ep := api.DeepCopy(cur) // never modify the cache's copy
	ep.Subsets, ep.Labels = subsets, labels
	internal.SetTriggerTime(&ep.Annotations, triggerTime)
	ec.record("update", ep, "Service %s: update Endpoints: %s", key, Summary(ep))
	_, err := epClient.Update(ctx, ep)
	return workloop.Result{}, err
}

// LabelManagedBy marks the Endpoints this controller writes (endpoints.kubernetes.io/managed-by:
// endpoint-controller): the apiserver skips its IP warnings for them, and the EndpointSlice mirroring
// controller leaves them alone.
const LabelManagedBy = "endpoints.kubernetes.io/managed-by"

// endpointsLabels are the Service's labels (with the headless label) and the managed-by label. A
// change of the Service's labels is an update of its Endpoints.
func endpointsLabels(svc *api.Service) map[string]string {
	labels := internal.ServiceLabels(svc)
	labels[LabelManagedBy] = "endpoint-controller"
	return labels
}

// subsets builds the Service's subsets from the pods it selects.
func (ec *Controller) subsets(svc *api.Service, pods []*api.Pod) []api.EndpointSubset {
	byPorts := map[string]*api.EndpointSubset{}
	var order []string
	for _, pod := range pods {
		if !internal.ShouldPodBeInEndpoints(pod, false) {
			continue
		}
		var ports []api.EndpointPort
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			port, err := internal.FindPort(pod, sp)
			if err != nil {
				continue // the pod has no such named port: it does not serve this one
			}
			proto := sp.Protocol
			if proto == "" {
				proto = api.ProtocolTCP
			}
			ports = append(ports, api.EndpointPort{Name: sp.Name, Port: port, Protocol: proto})
		}
		if len(ports) == 0 && len(svc.Spec.Ports) > 0 {
			continue
		}
		pk := fmt.Sprint(ports)
		ss, ok := byPorts[pk]
		if !ok {
			ss = &api.EndpointSubset{Ports: ports}
			byPorts[pk] = ss
			order = append(order, pk)
		}
		addr := api.EndpointAddress{IP: pod.Status.PodIP,
			TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}}
		if internal.ShouldSetHostname(pod, svc) {
			addr.Hostname = pod.Spec.Hostname
		}
		if pod.Spec.NodeName != "" {
			addr.NodeName = api.Ptr(pod.Spec.NodeName)
		}
		if api.IsPodReady(pod) {
			ss.Addresses = append(ss.Addresses, addr)
		} else {
			ss.NotReadyAddresses = append(ss.NotReadyAddresses, addr)
		}
	}
	sort.Strings(order)
	var out []api.EndpointSubset
	for _, pk := range order {
		out = append(out, *byPorts[pk])
	}
	return out
}

func (ec *Controller) record(action string, ep *api.Endpoints, format string, args ...any) {
	ec.tracer.Record(action, "endpoints/"+ep.Namespace+"/"+ep.Name, ep.ResourceVersion, format, args...)
}

// Summary is the ENDPOINTS column of `kubectl get endpoints`: ready addresses with their ports, then
// how many are not ready; "<none>" when no address is ready.
func Summary(ep *api.Endpoints) string {
	var ready []string
	notReady := 0
	for _, ss := range ep.Subsets {
		for _, a := range ss.Addresses {
			if len(ss.Ports) == 0 {
				ready = append(ready, a.IP)
			}
			for _, p := range ss.Ports {
				ready = append(ready, fmt.Sprintf("%s:%d", a.IP, p.Port))
			}
		}
		notReady += len(ss.NotReadyAddresses)
	}
	out := "<none>"
	if len(ready) > 0 {
		out = strings.Join(ready, ",")
	}
	if notReady > 0 {
		out += fmt.Sprintf(" (%d not ready)", notReady)
	}
	return out
}
