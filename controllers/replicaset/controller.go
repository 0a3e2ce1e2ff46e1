// controller.go: the ReplicaSet controller's shape, the same for every controller: informers feed a
// work queue with "namespace/name" keys, and a worker takes one key at a time and reconciles it.
//
//	New(client, clock, trace, events) *Controller
//	Name, Informers, Step, Run            the component contract (sim.Component)
//	runWorker -> processNextWorkItem -> Reconcile   the loop (client-go's sample-controller)
package replicaset

import (
	"context"
	"sync"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// Name is the controller's name in kube-controller-manager, in the trace and as the source of its
// events.
const Name = "replicaset-controller"

// workers is how many keys Run reconciles at once (kube-controller-manager's
// --concurrent-replicaset-syncs, default 5). Step mode always does one at a time.
const workers = 5

// Controller is the ReplicaSet controller.
type Controller struct {
	pods         client.Resource[api.Pod, *api.Pod]
	replicaSets  client.Resource[api.ReplicaSet, *api.ReplicaSet]
	clock        clock.Clock
	events       *client.EventRecorder
	tracer       internal.Tracer
	rsInformer   *client.Informer[api.ReplicaSet, *api.ReplicaSet]
	podInformer  *client.Informer[api.Pod, *api.Pod]
	queue        *workqueue.Queue[string]
	expectations *internal.Expectations
}

// New builds the controller. c must authenticate as system:kube-controller-manager; events should
// report as "replicaset-controller".
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder, events *client.EventRecorder) *Controller {
	rc := &Controller{
		pods:         client.For[api.Pod](c),
		replicaSets:  client.For[api.ReplicaSet](c),
		clock:        clk,
		events:       events,
		tracer:       internal.Tracer{Component: Name, Recorder: tr},
		rsInformer:   client.NewInformer[api.ReplicaSet](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " replicasets"}),
		podInformer:  client.NewInformer[api.Pod](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " pods"}),
		queue:        workqueue.New(clk, "replicaset", workqueue.DefaultControllerRateLimiter[string]()),
		expectations: internal.NewExpectations(clk),
	}
	rc.podInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.Pod])
	rc.rsInformer.AddHandler(client.Handler[*api.ReplicaSet]{OnAdd: rc.addRS, OnUpdate: rc.updateRS, OnDelete: rc.deleteRS})
	rc.podInformer.AddHandler(client.Handler[*api.Pod]{OnAdd: rc.addPod, OnUpdate: rc.updatePod, OnDelete: rc.deletePod})
	return rc
}

// Name is "replicaset-controller".
func (c *Controller) Name() string { return Name }

// Informers are the ReplicaSet and Pod informers.
func (c *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{c.rsInformer, c.podInformer}
}

// Step reconciles one queued ReplicaSet, if any is queued.
func (c *Controller) Step(ctx context.Context) (bool, error) {
	return c.processNextWorkItem(ctx, false), nil
}

// Run runs the informers and workers until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	for _, inf := range c.Informers() {
		go inf.Run(ctx)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.runWorker(ctx)
		}()
	}
	<-ctx.Done()
	c.queue.ShutDown()
	wg.Wait()
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx, true) {
	}
}

// processNextWorkItem takes one key (waiting for one if blocking) and reconciles it. A failed
// reconcile goes back into the queue with per-key exponential backoff; a successful one resets the
// backoff. It returns false when there was no key (or the queue is shutting down).
func (c *Controller) processNextWorkItem(ctx context.Context, blocking bool) bool {
	var key string
	if blocking {
		k, shutdown := c.queue.Get()
		if shutdown {
			return false
		}
		key = k
	} else {
		k, ok := c.queue.TryGet()
		if !ok {
			return false
		}
		key = k
	}
	defer c.queue.Done(key)
	if err := c.Reconcile(ctx, key); err != nil {
		c.queue.AddRateLimited(key)
		c.tracer.Record("retry", "replicasets/"+key, "", "reconcile %s failed: %v -> requeued with backoff (retry %d)",
			key, err, c.queue.NumRequeues(key))
		return true
	}
	c.queue.Forget(key)
	return true
}
