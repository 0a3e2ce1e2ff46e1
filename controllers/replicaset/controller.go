// controller.go: the ReplicaSet controller's shape, the same for every controller: informers feed a
// work queue with "namespace/name" keys, and a worker takes one key at a time and reconciles it.
//
//	New(client, clock, trace, events) *Controller
//	Name, Informers, Step, Run            the component contract (sim.Component)
//	Step / Run -> internal.Loop -> Reconcile      the loop (client-go's sample-controller), shared
package replicaset

import (
	"context"

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
	loop         *internal.Loop
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
	rc.loop = &internal.Loop{Queue: rc.queue, Reconcile: rc.Reconcile, Informers: rc.Informers, Workers: workers,
		Tracer: rc.tracer, Resource: "replicasets"}
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

// Step reconciles one queued key, if any is queued (see internal.Loop).
func (c *Controller) Step(ctx context.Context) (bool, error) { return c.loop.Step(ctx) }

// Run runs the informers and workers until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }
