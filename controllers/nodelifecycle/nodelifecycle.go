// nodelifecycle.go: the node lifecycle controller component.
//
//	New(c, informers, clk, tr, ev, opts) *Controller
//	Name, Informers, Step, Run   the component contract (client.Component)
//
// Its work is four work loops (workloop.Loop) and one rate-limited pass. One Step does the first of
// these that has work:
//
//  1. the monitor pass, a key that requeues itself every NodeMonitorPeriod (health.go);
//  2. one node whose NoSchedule taints may be out of date (taints.go);
//  3. one node waiting in a zone's queue for its NoExecute taint, if the zone's rate allows (zones.go);
//  4. one node or pod for the taint manager to (re)consider (taintmanager.go);
//  5. one pod whose toleration has run out: evict it (taintmanager.go).
//
// Handlers only queue; timers (the monitor period, rate-limit tokens, toleration deadlines) are on
// the injected clock, so in step mode the driver jumps straight to them. In real time the loops run
// on goroutines of their own and the NoExecute pass runs every NodeEvictionPeriod, as in Kubernetes.
package nodelifecycle

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

// Name is how Kubernetes names the controller (--controllers=node-lifecycle-controller).
const Name = "node-lifecycle-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// EventSource is the source.component of the events it records, as in Kubernetes.
const EventSource = "node-controller"

// Kubernetes' defaults (kube-controller-manager flags of the same names).
const (
	DefaultNodeMonitorPeriod = 5 * time.Second
	// DefaultNodeMonitorGracePeriod is 50 s since Kubernetes 1.32 (kubernetes/kubernetes#126287);
	// 40 s before.
	DefaultNodeMonitorGracePeriod    = 50 * time.Second
	DefaultNodeStartupGracePeriod    = time.Minute
	DefaultNodeEvictionRate          = 0.1
	DefaultSecondaryNodeEvictionRate = 0.01
	DefaultLargeClusterSizeThreshold = 50
	DefaultUnhealthyZoneThreshold    = 0.55
)

// NodeEvictionPeriod is how often, in real time, the NoExecute tainting pass looks at the zones'
// queues (scheduler.NodeEvictionPeriod).
const NodeEvictionPeriod = 100 * time.Millisecond

// monitorKey is the one key of the monitor loop: "a node health pass is due".
const monitorKey = "monitor"

// Options tune the controller; a zero field takes Kubernetes' default.
type Options struct {
	NodeMonitorPeriod         time.Duration
	NodeMonitorGracePeriod    time.Duration
	NodeStartupGracePeriod    time.Duration
	NodeEvictionRate          float64 // nodes per second, in a healthy zone
	SecondaryNodeEvictionRate float64 // nodes per second, in a partially disrupted large zone
	LargeClusterSizeThreshold int
	UnhealthyZoneThreshold    float64
}

func (o Options) withDefaults() Options {
	o.NodeMonitorPeriod = cmp.Or(o.NodeMonitorPeriod, DefaultNodeMonitorPeriod)
	o.NodeMonitorGracePeriod = cmp.Or(o.NodeMonitorGracePeriod, DefaultNodeMonitorGracePeriod)
	o.NodeStartupGracePeriod = cmp.Or(o.NodeStartupGracePeriod, DefaultNodeStartupGracePeriod)
	o.NodeEvictionRate = cmp.Or(o.NodeEvictionRate, DefaultNodeEvictionRate)
	o.SecondaryNodeEvictionRate = cmp.Or(o.SecondaryNodeEvictionRate, DefaultSecondaryNodeEvictionRate)
	o.LargeClusterSizeThreshold = cmp.Or(o.LargeClusterSizeThreshold, DefaultLargeClusterSizeThreshold)
	o.UnhealthyZoneThreshold = cmp.Or(o.UnhealthyZoneThreshold, DefaultUnhealthyZoneThreshold)
	return o
}

// Controller is the node lifecycle controller with its taint manager.
type Controller struct {
	client *client.Client
	clock  clock.Clock
	tracer internal.Tracer
	events *client.EventRecorder
	opts   Options

	nodes  *client.Informer[api.Node, *api.Node]
	leases *client.Informer[api.Lease, *api.Lease]
	pods   *client.Informer[api.Pod, *api.Pod]

	monitor         *workloop.Loop           // monitorKey, every NodeMonitorPeriod
	noScheduleQueue *workqueue.Queue[string] // node names whose NoSchedule taints to check
	noSchedule      *workloop.Loop
	taintQueue      *workqueue.Queue[string] // "node/<name>" or "pod/<ns>/<name>" for the taint manager
	taintManager    *workloop.Loop
	evictQueue      *workqueue.Queue[string] // pod keys whose eviction may be due
	evictor         *workloop.Loop

	// mu guards everything below.
	mu           sync.Mutex
	health       map[string]*nodeHealth // node name -> last sign of life
	zoneStates   map[string]zoneState
	tainters     map[string]*zoneTainter // zone -> nodes waiting for their NoExecute taint
	tokenTimer   clock.Timer             // due when a zone's next token is (see armTokenTimerLocked)
	tokenTimerAt time.Time
	evictions    map[string]scheduledEviction // pod key -> when the taint manager will delete it
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager; ev should record as EventSource.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, ev *client.EventRecorder, opts Options) *Controller {
	opts = opts.withDefaults()
	queue := func(name string) *workqueue.Queue[string] {
		return workqueue.New(clk, name, workqueue.DefaultControllerRateLimiter[string]())
	}
	nc := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr}, events: ev, opts: opts,
		nodes:           client.InformerFor[api.Node](informers, client.FactoryOptions{}),
		leases:          client.InformerFor[api.Lease](informers, client.FactoryOptions{Namespace: api.NamespaceNodeLease}),
		pods:            client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		noScheduleQueue: queue(Name + " noschedule"),
		taintQueue:      queue(Name + " taint manager"),
		evictQueue:      queue(Name + " evictions"),
		health:          map[string]*nodeHealth{},
		zoneStates:      map[string]zoneState{},
		tainters:        map[string]*zoneTainter{},
		evictions:       map[string]scheduledEviction{},
	}
	// Each loop's work reports whether it did anything: a key that needed nothing is Idle, so one
	// Step goes on to the next key.
	loop := func(q *workqueue.Queue[string], work func(context.Context, string) (workloop.Result, error)) *workloop.Loop {
		return &workloop.Loop{Queue: q, Reconcile: work, Workers: 1, Component: Name, Actor: Identity, Trace: tr}
	}
	idle := func(work func(context.Context, string) bool) func(context.Context, string) (workloop.Result, error) {
		return func(ctx context.Context, key string) (workloop.Result, error) {
			return workloop.Result{Idle: !work(ctx, key)}, nil
		}
	}
	nc.monitor = loop(queue(Name+" monitor"), func(ctx context.Context, _ string) (workloop.Result, error) {
		return workloop.Result{RequeueAfter: opts.NodeMonitorPeriod, Idle: !nc.monitorNodeHealth(ctx)}, nil
	})
	nc.noSchedule = loop(nc.noScheduleQueue, idle(nc.doNoScheduleTaintingPass))
	nc.taintManager = loop(nc.taintQueue, idle(nc.processTaintKey))
	nc.evictor = loop(nc.evictQueue, idle(nc.evict))
	nc.monitor.Queue.Add(monitorKey) // the first pass is due at once
	nc.pods.AddIndexer(client.IndexNodeName, client.PodNodeNameIndex)
	nc.nodes.AddHandler(client.Handler[*api.Node]{
		OnAdd: func(n *api.Node) {
			nc.noScheduleQueue.Add(n.Name)
			if len(noExecuteTaints(n)) > 0 {
				nc.taintQueue.Add("node/" + n.Name)
			}
		},
		OnUpdate: func(old, n *api.Node) {
			nc.noScheduleQueue.Add(n.Name)
			if !sameTaints(noExecuteTaints(old), noExecuteTaints(n)) {
				nc.taintQueue.Add("node/" + n.Name)
			}
		},
		OnDelete: func(n *api.Node) { nc.taintQueue.Add("node/" + n.Name) },
	})
	nc.pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    nc.podChanged,
		OnUpdate: func(_, p *api.Pod) { nc.podChanged(p) },
		OnDelete: nc.podChanged,
	})
	return nc
}

// podChanged queues a pod for the taint manager if it may need (or no longer need) an eviction: it
// is on a node with NoExecute taints, or an eviction is already scheduled for it.
func (nc *Controller) podChanged(p *api.Pod) {
	key := p.Namespace + "/" + p.Name
	nc.mu.Lock()
	_, scheduled := nc.evictions[key]
	nc.mu.Unlock()
	if scheduled {
		nc.taintQueue.Add("pod/" + key)
		return
	}
	if p.Spec.NodeName == "" {
		return
	}
	if n, ok := nc.nodes.Get(p.Spec.NodeName); ok && len(noExecuteTaints(n)) > 0 {
		nc.taintQueue.Add("pod/" + key)
	}
}

// Name is the component's name in the trace.
func (nc *Controller) Name() string { return Name }

// Informers are the controller's informers.
func (nc *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{nc.nodes, nc.leases, nc.pods}
}

// Step does one unit of work, if there is one (see the head of this file for the order). Queued
// keys that turn out to need nothing are skipped within the same Step.
func (nc *Controller) Step(ctx context.Context) (bool, error) {
	for _, step := range []func(context.Context) (bool, error){
		nc.monitor.Step,
		nc.noSchedule.Step,
		func(ctx context.Context) (bool, error) { return nc.doNoExecuteTaintingPass(ctx), nil },
		nc.taintManager.Step,
		nc.evictor.Step,
	} {
		if did, err := step(ctx); did || err != nil {
			return did, err
		}
	}
	return false, ctx.Err()
}

// Run works in real time until ctx ends: each loop on its own goroutine, and the NoExecute tainting
// pass every NodeEvictionPeriod.
func (nc *Controller) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, l := range []*workloop.Loop{nc.monitor, nc.noSchedule, nc.taintManager, nc.evictor} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Run(ctx)
		}()
	}
	tick := nc.clock.NewTicker(NodeEvictionPeriod)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-tick.C():
			for nc.doNoExecuteTaintingPass(ctx) {
			}
		}
	}
}

// nodePath and podPath name a node or pod in the trace: "nodes/node-2", "pods/default/web".
func nodePath(name string) string           { return "nodes/" + name }
func podPath(namespace, name string) string { return "pods/" + namespace + "/" + name }
