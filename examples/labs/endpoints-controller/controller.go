// Package endpointscontroller is lab 8: a whole controller, the endpoints controller (swap.go puts it
// in the place of kube-controller-manager's). For every Service with a selector, keep an Endpoints
// object of the same name that lists the IPs of the pods it selects (ready ones under addresses, the
// others under notReadyAddresses): what kube-proxy and CoreDNS read to send a Service's traffic
// somewhere. README.md says what to read.
//
// controller.go holds what is given: the informers, the handlers, the work loop and small helpers.
// You write PodChanged and Reconcile in reconcile.go.
package endpointscontroller

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/controllers/workloop"
	"kubesim/sim"
)

// Name is the controller's name in the trace.
const Name = "my-endpoints-controller"

// Controller is an endpoints controller.
type Controller struct {
	Services  *client.Informer[api.Service, *api.Service]
	Pods      *client.Informer[api.Pod, *api.Pod]
	Endpoints *client.Informer[api.Endpoints, *api.Endpoints]
	// Queue holds Service keys ("namespace/name") to reconcile.
	Queue *workqueue.Queue[string]
	// Writer creates, updates and deletes Endpoints through the apiserver.
	Writer client.Resource[api.Endpoints, *api.Endpoints]

	loop *workloop.Loop
}

// NewController builds the controller and adds it to the cluster.
func NewController(ctx context.Context, c *sim.Cluster) (*Controller, error) {
	ec := build(c)
	return ec, c.Add(ctx, ec)
}

// build builds the controller on the cluster's apiserver, not yet added to the cluster.
func build(c *sim.Cluster) *Controller {
	cl := c.Client(sim.ControllerManagerUser, Name)
	o := func(what string) client.InformerOptions {
		return client.InformerOptions{Clock: c.Clock, Trace: c.Trace, Name: Name + " " + what + " informer"}
	}
	ec := &Controller{
		Services:  client.NewInformer[api.Service](cl, o("services")),
		Pods:      client.NewInformer[api.Pod](cl, o("pods")),
		Endpoints: client.NewInformer[api.Endpoints](cl, o("endpoints")),
		Queue:     workqueue.New(c.Clock, Name, workqueue.DefaultControllerRateLimiter[string]()),
		Writer:    client.For[api.Endpoints](cl),
	}
	ec.loop = &workloop.Loop{Queue: ec.Queue, Reconcile: workloop.Errors(ec.Reconcile), Component: Name,
		Actor: sim.ControllerManagerUser, Trace: c.Trace, Resource: "services"}
	enqueue := func(s *api.Service) { ec.Queue.Add(s.Key()) }
	ec.Services.AddHandler(client.Handler[*api.Service]{OnAdd: enqueue,
		OnUpdate: func(_, s *api.Service) { enqueue(s) }, OnDelete: enqueue})
	ec.Pods.AddHandler(client.Handler[*api.Pod]{OnAdd: ec.PodChanged, OnDelete: ec.PodChanged,
		OnUpdate: func(old, cur *api.Pod) { ec.PodChanged(old); ec.PodChanged(cur) }})
	return ec
}

// Selects reports whether svc's selector selects pod: same namespace, and every key=value of the
// selector among the pod's labels. A Service without a selector selects nothing (its Endpoints are
// someone else's business).
func Selects(svc *api.Service, pod *api.Pod) bool {
	if len(svc.Spec.Selector) == 0 || svc.Namespace != pod.Namespace {
		return false
	}
	for k, v := range svc.Spec.Selector {
		if pod.Labels[k] != v {
			return false
		}
	}
	return true
}

// IsReady reports whether the kubelet says the pod is Ready.
func IsReady(pod *api.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// Ports are the Endpoints ports of svc: each Service port's targetPort (a number here; the port itself
// when unset).
func Ports(svc *api.Service) []api.EndpointPort {
	var ports []api.EndpointPort
	for _, p := range svc.Spec.Ports {
		target := p.Port
		if p.TargetPort.IntVal != 0 {
			target = p.TargetPort.IntVal
		}
		ports = append(ports, api.EndpointPort{Name: p.Name, Port: target, Protocol: p.Protocol})
	}
	return ports
}

// Address is pod's entry in an Endpoints subset.
func Address(pod *api.Pod) api.EndpointAddress {
	return api.EndpointAddress{IP: pod.Status.PodIP, NodeName: api.Ptr(pod.Spec.NodeName),
		TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}}
}

// Name is the controller's name.
func (ec *Controller) Name() string { return Name }

// Informers are the three informers the controller reads.
func (ec *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{ec.Services, ec.Pods, ec.Endpoints}
}

// Step reconciles one key.
func (ec *Controller) Step(ctx context.Context) (bool, error) { return ec.loop.Step(ctx) }

// Run reconciles in real time.
func (ec *Controller) Run(ctx context.Context) { ec.loop.Run(ctx) }
