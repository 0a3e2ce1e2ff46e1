// namespace.go: the namespace controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, name)         empty a Terminating namespace, then finalize it
//
// It watches namespaces and queues those that are being deleted.
package namespace

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=namespace).
const Name = "namespace-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Controller empties and finalizes namespaces that are being deleted.
type Controller struct {
	workloop.Component
	client     *client.Client
	clock      clock.Clock
	tracer     internal.Tracer
	namespaces *client.Informer[api.Namespace, *api.Namespace]
	queue      *workqueue.Queue[string]
}

// New builds the controller on an informer from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	nc := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr},
		namespaces: client.InformerFor[api.Namespace](informers, client.FactoryOptions{}),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	nc.Component = workloop.NewComponent(&workloop.Loop{Queue: nc.queue, Reconcile: workloop.Errors(nc.Reconcile), Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "namespaces"},
		nc.namespaces)
	nc.namespaces.AddHandler(client.Handler[*api.Namespace]{
		OnAdd:    nc.enqueue,
		OnUpdate: func(_, ns *api.Namespace) { nc.enqueue(ns) },
	})
	return nc
}

func (nc *Controller) enqueue(ns *api.Namespace) {
	if ns.DeletionTimestamp != nil {
		nc.queue.Add(ns.Name)
	}
}
