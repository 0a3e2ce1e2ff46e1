// podgc.go: the pod garbage collector component.
//
//	New(c, clk, tr, opts) *Controller
//	Name, Informers, Step, Run   the component contract (sim.Component)
//	Collect(ctx)                 one pass (in collect.go)
//
// The pass runs on a timer, every gcCheckPeriod of cluster time; Step runs it when it is due.
package podgc

import (
	"context"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=podgc, "pod-garbage-collector").
const Name = "pod-garbage-collector"

// Identity is the user the controller manager authenticates as.
const Identity = "system:kube-controller-manager"

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
	client    *client.Client
	clock     clock.Clock
	trace     *trace.Recorder
	threshold int
	pods      *client.Informer[api.Pod, *api.Pod]
	nodes     *client.Informer[api.Node, *api.Node]
	// quarantine holds the names of missing nodes; each becomes available QuarantineTime after it
	// was first missed (the deletedNodesQueue).
	quarantine *workqueue.Queue[string]
	wake       chan struct{} // poked when the pass is due, for Run

	// mu guards due and quarantined.
	mu          sync.Mutex
	due         bool
	quarantined map[string]bool // nodes waiting out their quarantine
}

// New builds the collector. c must act as system:kube-controller-manager.
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder, opts Options) *Controller {
	threshold := opts.TerminatedPodThreshold
	if threshold == 0 {
		threshold = DefaultTerminatedPodThreshold
	}
	gc := &Controller{client: c, clock: clk, trace: tr, threshold: threshold,
		pods:        client.NewInformer[api.Pod](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " pods"}),
		nodes:       client.NewInformer[api.Node](c, client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " nodes"}),
		quarantine:  workqueue.New(clk, Name+" deleted nodes", workqueue.DefaultControllerRateLimiter[string]()),
		wake:        make(chan struct{}, 1),
		quarantined: map[string]bool{},
	}
	gc.pods.AddIndexer(client.IndexNodeName, client.PodNodeNameIndex)
	clk.AfterFunc(GCCheckPeriod, gc.tick)
	return gc
}

// tick marks a pass due and arms the next tick.
func (gc *Controller) tick() {
	gc.mu.Lock()
	gc.due = true
	gc.mu.Unlock()
	select {
	case gc.wake <- struct{}{}:
	default:
	}
	gc.clock.AfterFunc(GCCheckPeriod, gc.tick)
}

// Name is the component's name in the trace.
func (gc *Controller) Name() string { return Name }

// Informers are the collector's informers.
func (gc *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{gc.nodes, gc.pods}
}

// Step runs one collection pass if one is due, and reports whether it deleted anything.
func (gc *Controller) Step(ctx context.Context) (bool, error) {
	gc.mu.Lock()
	due := gc.due
	gc.due = false
	gc.mu.Unlock()
	if !due {
		return false, nil
	}
	return gc.Collect(ctx), ctx.Err()
}

// Run collects in real time until ctx ends.
func (gc *Controller) Run(ctx context.Context) {
	for _, inf := range gc.Informers() {
		go inf.Run(ctx)
	}
	for {
		select {
		case <-ctx.Done():
			gc.quarantine.ShutDown()
			return
		case <-gc.wake:
			gc.Step(ctx)
		}
	}
}
