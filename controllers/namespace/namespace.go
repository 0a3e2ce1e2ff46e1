// namespace.go: the namespace controller component.
//
//	New(c, informers, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract (client.Component)
//	Reconcile(ctx, name)         empty a Terminating namespace, then finalize it
//
// It watches namespaces and queues those that are being deleted.
package namespace

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=namespace).
const Name = "namespace-controller"

// Identity is the user the controller manager authenticates as.
const Identity = "system:kube-controller-manager"

// Controller empties and finalizes namespaces that are being deleted.
type Controller struct {
	client     *client.Client
	clock      clock.Clock
	trace      *trace.Recorder
	namespaces *client.Informer[api.Namespace, *api.Namespace]
	queue      *workqueue.Queue[string]
	loop       *workloop.Loop
}

// New builds the controller on an informer from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *Controller {
	nc := &Controller{client: c, clock: clk, trace: tr,
		namespaces: client.InformerFor[api.Namespace](informers, client.FactoryOptions{}),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	nc.loop = &workloop.Loop{Queue: nc.queue, Reconcile: workloop.Errors(nc.Reconcile), Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "namespaces"}
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

// Name is the component's name in the trace.
func (nc *Controller) Name() string { return Name }

// Informers are the controller's informers.
func (nc *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{nc.namespaces}
}

// Step reconciles one queued key, if any (see workloop.Loop).
func (nc *Controller) Step(ctx context.Context) (bool, error) { return nc.loop.Step(ctx) }

// Run runs the controller's one worker until ctx ends.
func (nc *Controller) Run(ctx context.Context) { nc.loop.Run(ctx) }
