// podgc.go: the pod garbage collector component.
//
//	New(c, informers, clk, tr, opts) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Collect(ctx)                 one pass (in collect.go)
//
// The pass is periodic work on the shared work loop: one key, passKey, that requeues itself every
// GCCheckPeriod of cluster time (Kubernetes runs gcc.gc with wait.UntilWithContext).
package podgc

import (
	"cmp"
	"context"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=podgc, "pod-garbage-collector").
const Name = "pod-garbage-collector"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Kubernetes' timings and default.
const (
	// GCCheckPeriod is how often the collector looks.
	GCCheckPeriod = 20 * time.Second
	// QuarantineTime is how long a node must stay missing before its pods count as orphaned.
	QuarantineTime = 40 * time.Second
	// DefaultTerminatedPodThreshold is --terminated-pod-gc-threshold.
	DefaultTerminatedPodThreshold = 12500
)

// Options tune the collector.
type Options struct {
	// TerminatedPodThreshold is how many terminated pods may exist before the oldest are deleted;
	// 0 means the default, a negative value turns that part of collection off.
	TerminatedPodThreshold int
}

// Controller is the pod garbage collector.
type Controller struct {
	workloop.Component
	client    *client.Client
	clock     clock.Clock
	tracer    internal.Tracer
	threshold int
	pods      *client.Informer[api.Pod, *api.Pod]
	nodes     *client.Informer[api.Node, *api.Node]
	// quarantine holds the names of missing nodes; each becomes available QuarantineTime after it
	// was first missed (the deletedNodesQueue).
	quarantine *workqueue.Queue[string]

	// mu guards quarantined.
	mu          sync.Mutex
	quarantined map[string]bool // nodes waiting out their quarantine
}

// passKey is the one key of the collector's work queue: "a collection pass is due".
const passKey = "pass"

// New builds the collector on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, opts Options) *Controller {
	gc := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr}, threshold: cmp.Or(opts.TerminatedPodThreshold, DefaultTerminatedPodThreshold),
		pods:        client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		nodes:       client.InformerFor[api.Node](informers, client.FactoryOptions{}),
		quarantine:  workqueue.New(clk, Name+" deleted nodes", workqueue.DefaultControllerRateLimiter[string]()),
		quarantined: map[string]bool{},
	}
	queue := workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())
	gc.Component = workloop.NewComponent(&workloop.Loop{Queue: queue, Reconcile: gc.reconcile, Workers: 1, Component: Name, Actor: Identity, Trace: tr},
		gc.nodes, gc.pods)
	gc.pods.AddIndexer(client.IndexNodeName, client.PodNodeNameIndex)
	queue.AddAfter(passKey, GCCheckPeriod)
	return gc
}

// reconcile runs one pass and asks for the next one; a pass that deletes nothing is Idle.
func (gc *Controller) reconcile(ctx context.Context, _ string) (workloop.Result, error) {
	return workloop.Result{RequeueAfter: GCCheckPeriod, Idle: !gc.Collect(ctx)}, nil
}
