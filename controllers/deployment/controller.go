// controller.go: the Deployment controller's shape, the same as every controller's: informers feed a
// work queue with "namespace/name" keys of Deployments, and a worker reconciles one key at a time.
//
//	New(client, clock, trace, events) *Controller
//	Name, Informers, Step, Run            the component contract (sim.Component)
//	runWorker -> processNextWorkItem -> Reconcile   the loop (client-go's sample-controller)
package deployment

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
const Name = "deployment-controller"

// workers is how many keys Run reconciles at once (--concurrent-deployment-syncs, default 5).
const workers = 5

// maxRetries is how many times a failing Deployment is retried with backoff before the controller
// drops it until its next change (Kubernetes' maxRetries).
const maxRetries = 15

// Controller is the Deployment controller.
type Controller struct {
	deployments client.Resource[api.Deployment, *api.Deployment]
	replicaSets client.Resource[api.ReplicaSet, *api.ReplicaSet]
	clock       clock.Clock
	events      *client.EventRecorder
	tracer      internal.Tracer
	dInformer   *client.Informer[api.Deployment, *api.Deployment]
	rsInformer  *client.Informer[api.ReplicaSet, *api.ReplicaSet]
	podInformer *client.Informer[api.Pod, *api.Pod]
	queue       *workqueue.Queue[string]
}

// New builds the controller. c must authenticate as system:kube-controller-manager; events should
// report as "deployment-controller".
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder, events *client.EventRecorder) *Controller {
	dc := &Controller{
		deployments: client.For[api.Deployment](c),
		replicaSets: client.For[api.ReplicaSet](c),
		clock:       clk,
		events:      events,
		tracer:      internal.Tracer{Component: Name, Recorder: tr},
		dInformer:   client.NewInformer[api.Deployment](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " deployments"}),
		rsInformer:  client.NewInformer[api.ReplicaSet](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " replicasets"}),
		podInformer: client.NewInformer[api.Pod](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " pods"}),
		queue:       workqueue.New(clk, "deployment", workqueue.DefaultControllerRateLimiter[string]()),
	}
	dc.rsInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.ReplicaSet])
	dc.podInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.Pod])
	dc.dInformer.AddHandler(client.Handler[*api.Deployment]{OnAdd: dc.addDeployment, OnUpdate: dc.updateDeployment, OnDelete: dc.deleteDeployment})
	dc.rsInformer.AddHandler(client.Handler[*api.ReplicaSet]{OnAdd: dc.addReplicaSet, OnUpdate: dc.updateReplicaSet, OnDelete: dc.deleteReplicaSet})
	dc.podInformer.AddHandler(client.Handler[*api.Pod]{OnDelete: dc.deletePod})
	return dc
}

// Name is "deployment-controller".
func (c *Controller) Name() string { return Name }

// Informers are the Deployment, ReplicaSet and Pod informers.
func (c *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{c.dInformer, c.rsInformer, c.podInformer}
}

// Step reconciles one queued Deployment, if any is queued.
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

// processNextWorkItem takes one key (waiting for one if blocking) and reconciles it. A failure is
// retried with per-key exponential backoff, up to maxRetries times. It returns false when there was no
// key (or the queue is shutting down).
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
	err := c.Reconcile(ctx, key)
	switch {
	case err == nil:
		c.queue.Forget(key)
	case c.queue.NumRequeues(key) < maxRetries:
		c.queue.AddRateLimited(key)
		c.tracer.Record("retry", "deployments/"+key, "", "reconcile %s failed: %v -> requeued with backoff (retry %d)",
			key, err, c.queue.NumRequeues(key))
	default:
		c.queue.Forget(key)
		c.tracer.Record("retry", "deployments/"+key, "", "reconcile %s failed %d times: %v -> dropped until the Deployment changes",
			key, maxRetries, err)
	}
	return true
}
