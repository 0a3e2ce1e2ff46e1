// endpointslice.go: the EndpointSlice controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          bring the slices of Service key ("namespace/name") up to date
//
// Every change that can move an endpoint queues the Services it concerns: a Service itself, a pod
// (the Services selecting it before and after the change) and a slice (its Service).
package endpointslice

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how the trace names the controller.
const Name = "endpointslice-controller"

// ManagedBy is the value of endpointslice.kubernetes.io/managed-by on the slices it owns.
const ManagedBy = "endpointslice-controller.k8s.io"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Controller keeps EndpointSlices of selector Services.
type Controller struct {
	workloop.Component // Name, Informers, Step, Run

	client   *client.Client
	tracer   internal.Tracer
	services *client.Informer[api.Service, *api.Service]
	pods     *client.Informer[api.Pod, *api.Pod]
	slices   *client.Informer[api.EndpointSlice, *api.EndpointSlice]
	nodes    *client.Informer[api.Node, *api.Node] // an endpoint's zone is its node's
	queue    *workqueue.Queue[string]
	triggers internal.TriggerTimes // the last-change-trigger-time of each Service's last sync
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	ec := &Controller{client: c, tracer: internal.Tracer{Component: Name, Recorder: tr},
		services: client.InformerFor[api.Service](informers, client.FactoryOptions{}),
		pods:     client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		slices:   client.InformerFor[api.EndpointSlice](informers, client.FactoryOptions{}),
		nodes:    client.InformerFor[api.Node](informers, client.FactoryOptions{}),
		queue:    workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	ec.Component = workloop.NewComponent(&workloop.Loop{Queue: ec.queue, Reconcile: ec.Reconcile, Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "services"}, ec.services, ec.pods, ec.slices, ec.nodes)
	internal.QueueServices(ec.services, ec.pods, ec.queue.Add)
	ec.slices.AddHandler(client.Handler[*api.EndpointSlice]{
		OnUpdate: func(_, s *api.EndpointSlice) { ec.sliceChanged(s) },
		OnDelete: ec.sliceChanged,
	})
	return ec
}

// sliceChanged queues the Service of a slice this controller manages (someone edited or deleted it).
func (ec *Controller) sliceChanged(s *api.EndpointSlice) {
	if s.Labels[api.LabelManagedBy] == ManagedBy && s.Labels[api.LabelServiceName] != "" {
		ec.queue.Add(s.Namespace + "/" + s.Labels[api.LabelServiceName])
	}
}
