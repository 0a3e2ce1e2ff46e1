// controller.go: the ReplicaSet controller's shape, the same for every controller: informers feed a
// work queue with "namespace/name" keys, and a worker takes one key at a time and reconciles it.
//
//	New(client, informers, clock, trace, events) *Controller
//	Name, Informers, Step, Run            the component contract, from workloop.Component
//	Step / Run -> workloop.Loop -> Reconcile      the loop (client-go's sample-controller), shared
package replicaset

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
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
	workloop.Component
	pods         client.Resource[api.Pod, *api.Pod]
	replicaSets  client.Resource[api.ReplicaSet, *api.ReplicaSet]
	clock        clock.Clock
	events       *client.EventRecorder
	tracer       internal.Tracer
	rsInformer   *client.Informer[api.ReplicaSet, *api.ReplicaSet]
	podInformer  *client.Informer[api.Pod, *api.Pod]
	queue        *workqueue.Queue[string]
	expectations *internal.Expectations

	syncMu   sync.Mutex
	syncTook map[string]time.Duration // guarded by syncMu: how long each ReplicaSet's last sync took (batch.go)

	// parallel is set once Run starts (real time): a slow-start batch's creates then run at once, as
	// kube-controller-manager's do. Step mode makes them in order.
	parallel atomic.Bool
}

// Run reconciles in real time until ctx ends, a batch's creates in parallel.
func (c *Controller) Run(ctx context.Context) {
	c.parallel.Store(true)
	c.Component.Run(ctx)
}

// New builds the controller on informers from the shared factory. c must authenticate as
// system:kube-controller-manager; events should report as "replicaset-controller".
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, events *client.EventRecorder) *Controller {
	rc := &Controller{
		pods:         client.For[api.Pod](c),
		replicaSets:  client.For[api.ReplicaSet](c),
		clock:        clk,
		events:       events,
		tracer:       internal.Tracer{Component: Name, Recorder: tr},
		rsInformer:   client.InformerFor[api.ReplicaSet](informers, client.FactoryOptions{}),
		podInformer:  client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		queue:        workqueue.New(clk, "replicaset", workqueue.DefaultControllerRateLimiter[string]()),
		expectations: internal.NewExpectations(clk),
		syncTook:     map[string]time.Duration{},
	}
	rc.Component = workloop.NewComponent(&workloop.Loop{Queue: rc.queue, Reconcile: workloop.Errors(rc.Reconcile), Workers: workers,
		Component: Name, Actor: internal.User, Trace: tr, Resource: "replicasets"},
		rc.rsInformer, rc.podInformer)
	rc.podInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.Pod])
	rc.rsInformer.AddHandler(client.Handler[*api.ReplicaSet]{OnAdd: rc.addRS, OnUpdate: rc.updateRS, OnDelete: rc.deleteRS})
	rc.podInformer.AddHandler(client.Handler[*api.Pod]{OnAdd: rc.addPod, OnUpdate: rc.updatePod, OnDelete: rc.deletePod})
	return rc
}
