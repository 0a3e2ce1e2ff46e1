// namespace.go: the namespace controller component.
//
//	New(c, clk, tr) *Controller
//	Name, Informers, Step, Run   the component contract (sim.Component)
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
	"kubesim/controllers/internal"
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
}

// New builds the controller. c must act as system:kube-controller-manager.
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder) *Controller {
	nc := &Controller{client: c, clock: clk, trace: tr,
		namespaces: client.NewInformer[api.Namespace](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " namespaces"}),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
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

// Step reconciles one queued key, if any (see internal.Loop).
func (nc *Controller) Step(ctx context.Context) (bool, error) { return nc.loop().Step(ctx) }

// Run works in real time until ctx ends.
func (nc *Controller) Run(ctx context.Context) { nc.loop().Run(ctx) }

// loop is the controller's work loop: one worker, retries with backoff.
func (nc *Controller) loop() *internal.Loop {
	return &internal.Loop{Queue: nc.queue, Reconcile: nc.Reconcile, Informers: nc.Informers, Workers: 1,
		Tracer: internal.Tracer{Component: Name, Recorder: nc.trace}, Resource: "namespaces"}
}
