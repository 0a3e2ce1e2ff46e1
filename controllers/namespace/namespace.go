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

// Step reconciles one queued namespace, if any.
func (nc *Controller) Step(ctx context.Context) (bool, error) {
	name, ok := nc.queue.TryGet()
	if !ok {
		return false, nil
	}
	nc.process(ctx, name)
	return true, ctx.Err()
}

// Run works in real time until ctx ends.
func (nc *Controller) Run(ctx context.Context) {
	go nc.namespaces.Run(ctx)
	context.AfterFunc(ctx, nc.queue.ShutDown)
	for {
		name, shutdown := nc.queue.Get()
		if shutdown {
			return
		}
		nc.process(ctx, name)
	}
}

func (nc *Controller) process(ctx context.Context, name string) {
	defer nc.queue.Done(name)
	if err := nc.Reconcile(ctx, name); err != nil {
		nc.trace.Record(trace.Event{Component: Name, Actor: Identity, Action: "retry", Object: "namespaces/" + name}.
			Msgf("reconcile namespace %s failed: %v (retry %d with backoff)", name, err, nc.queue.NumRequeues(name)+1))
		nc.queue.AddRateLimited(name)
		return
	}
	nc.queue.Forget(name)
}
