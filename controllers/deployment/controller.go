// controller.go: the Deployment controller's shape, the same as every controller's: informers feed a
// work queue with "namespace/name" keys of Deployments, and a worker reconciles one key at a time.
//
//	New(client, informers, clock, trace, events) *Controller
//	Name, Informers, Step, Run            the component contract, from workloop.Component
//	Step / Run -> workloop.Loop -> Reconcile      the loop (client-go's sample-controller), shared
package deployment

import (
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
const Name = "deployment-controller"

// workers is how many keys Run reconciles at once (--concurrent-deployment-syncs, default 5).
const workers = 5

// maxRetries is how many times a failing Deployment is retried with backoff before the controller
// drops it until its next change (Kubernetes' maxRetries).
const maxRetries = 15

// Controller is the Deployment controller.
type Controller struct {
	workloop.Component
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

// New builds the controller on informers from the shared factory. c must authenticate as
// system:kube-controller-manager; events should report as "deployment-controller".
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, events *client.EventRecorder) *Controller {
	dc := &Controller{
		deployments: client.For[api.Deployment](c),
		replicaSets: client.For[api.ReplicaSet](c),
		clock:       clk,
		events:      events,
		tracer:      internal.Tracer{Component: Name, Recorder: tr},
		dInformer:   client.InformerFor[api.Deployment](informers, client.FactoryOptions{}),
		rsInformer:  client.InformerFor[api.ReplicaSet](informers, client.FactoryOptions{}),
		podInformer: client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		queue:       workqueue.New(clk, "deployment", workqueue.DefaultControllerRateLimiter[string]()),
	}
	dc.Component = workloop.NewComponent(&workloop.Loop{Queue: dc.queue, Reconcile: workloop.Errors(dc.Reconcile), Workers: workers,
		Component: Name, Actor: internal.User, Trace: tr, Resource: "deployments",
		MaxRetries: maxRetries, DroppedUntil: "the Deployment changes"},
		dc.dInformer, dc.rsInformer, dc.podInformer)
	dc.rsInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.ReplicaSet])
	dc.podInformer.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.Pod])
	dc.dInformer.AddHandler(client.Handler[*api.Deployment]{OnAdd: dc.addDeployment, OnUpdate: dc.updateDeployment, OnDelete: dc.deleteDeployment})
	dc.rsInformer.AddHandler(client.Handler[*api.ReplicaSet]{OnAdd: dc.addReplicaSet, OnUpdate: dc.updateReplicaSet, OnDelete: dc.deleteReplicaSet})
	dc.podInformer.AddHandler(client.Handler[*api.Pod]{OnDelete: dc.deletePod})
	return dc
}
