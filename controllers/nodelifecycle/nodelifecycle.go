// nodelifecycle.go: the node lifecycle controller component.
//
//	New(c, clk, tr, ev, opts) *Controller
//	Name, Informers, Step, Run   the component contract (sim.Component)
//
// One Step does the first of these that has work:
//
//  1. the monitor pass, every NodeMonitorPeriod (health.go);
//  2. one node whose NoSchedule taints may be out of date (taints.go);
//  3. one node waiting in a zone's queue for its NoExecute taint, if the zone's rate allows (zones.go);
//  4. one node or pod for the taint manager to (re)consider (taintmanager.go);
//  5. one pod whose toleration has run out: evict it (taintmanager.go).
//
// Handlers only queue; timers (the monitor period, rate-limit tokens, toleration deadlines) are on
// the injected clock, so in step mode the driver jumps straight to them.
package nodelifecycle

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

// Name is how Kubernetes names the controller (--controllers=node-lifecycle-controller).
const Name = "node-lifecycle-controller"

// Identity is the user the controller manager authenticates as.
const Identity = "system:kube-controller-manager"

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
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.NodeMonitorPeriod, DefaultNodeMonitorPeriod)
	def(&o.NodeMonitorGracePeriod, DefaultNodeMonitorGracePeriod)
	def(&o.NodeStartupGracePeriod, DefaultNodeStartupGracePeriod)
	if o.NodeEvictionRate == 0 {
		o.NodeEvictionRate = DefaultNodeEvictionRate
	}
	if o.SecondaryNodeEvictionRate == 0 {
		o.SecondaryNodeEvictionRate = DefaultSecondaryNodeEvictionRate
	}
	if o.LargeClusterSizeThreshold == 0 {
		o.LargeClusterSizeThreshold = DefaultLargeClusterSizeThreshold
	}
	if o.UnhealthyZoneThreshold == 0 {
		o.UnhealthyZoneThreshold = DefaultUnhealthyZoneThreshold
	}
	return o
}

// Controller is the node lifecycle controller with its taint manager.
type Controller struct {
	client *client.Client
	clock  clock.Clock
	trace  *trace.Recorder
	events *client.EventRecorder
	opts   Options

	nodes  *client.Informer[api.Node, *api.Node]
	leases *client.Informer[api.Lease, *api.Lease]
	pods   *client.Informer[api.Pod, *api.Pod]

	noScheduleQueue *workqueue.Queue[string] // node names whose NoSchedule taints to check
	taintQueue      *workqueue.Queue[string] // "node/<name>" or "pod/<ns>/<name>" for the taint manager
	evictQueue      *workqueue.Queue[string] // pod keys whose eviction may be due
	wake            chan struct{}            // poked by timers, for Run

	// mu guards everything below.
	mu           sync.Mutex
	monitorDue   bool
	health       map[string]*nodeHealth // node name -> last sign of life
	zoneStates   map[string]zoneState
	tainters     map[string]*zoneTainter // zone -> nodes waiting for their NoExecute taint
	tokenTimer   clock.Timer             // wakes the tainter when a zone's next token is due
	tokenTimerAt time.Time
	evictions    map[string]scheduledEviction // pod key -> when the taint manager will delete it
}

// New builds the controller. c must act as system:kube-controller-manager; ev should record as
// EventSource.
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder, ev *client.EventRecorder, opts Options) *Controller {
	opts = opts.withDefaults()
	inf := func(what string) client.InformerOptions {
		return client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " " + what}
	}
	leaseOpts := inf("leases")
	leaseOpts.Namespace = api.NamespaceNodeLease
	limiter := func() workqueue.RateLimiter[string] { return workqueue.DefaultControllerRateLimiter[string]() }
	nc := &Controller{client: c, clock: clk, trace: tr, events: ev, opts: opts,
		nodes:           client.NewInformer[api.Node](c, inf("nodes")),
		leases:          client.NewInformer[api.Lease](c, leaseOpts),
		pods:            client.NewInformer[api.Pod](c, inf("pods")),
		noScheduleQueue: workqueue.New(clk, Name+" noschedule", limiter()),
		taintQueue:      workqueue.New(clk, Name+" taint manager", limiter()),
		evictQueue:      workqueue.New(clk, Name+" evictions", limiter()),
		wake:            make(chan struct{}, 1),
		monitorDue:      true,
		health:          map[string]*nodeHealth{},
		zoneStates:      map[string]zoneState{},
		tainters:        map[string]*zoneTainter{},
		evictions:       map[string]scheduledEviction{},
	}
	nc.pods.AddIndexer(client.IndexNodeName, client.PodNodeNameIndex)
	nc.nodes.AddHandler(client.Handler[*api.Node]{
		OnAdd: func(n *api.Node) {
			nc.add(nc.noScheduleQueue, n.Name)
			if len(noExecuteTaints(n)) > 0 {
				nc.add(nc.taintQueue, "node/"+n.Name)
			}
		},
		OnUpdate: func(old, n *api.Node) {
			nc.add(nc.noScheduleQueue, n.Name)
			if !sameTaints(noExecuteTaints(old), noExecuteTaints(n)) {
				nc.add(nc.taintQueue, "node/"+n.Name)
			}
		},
		OnDelete: func(n *api.Node) { nc.add(nc.taintQueue, "node/"+n.Name) },
	})
	nc.pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    nc.podChanged,
		OnUpdate: func(_, p *api.Pod) { nc.podChanged(p) },
		OnDelete: nc.podChanged,
	})
	clk.AfterFunc(opts.NodeMonitorPeriod, nc.monitorTick)
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
		nc.add(nc.taintQueue, "pod/"+key)
		return
	}
	if p.Spec.NodeName == "" {
		return
	}
	if n, ok := nc.nodes.Get(p.Spec.NodeName); ok && len(noExecuteTaints(n)) > 0 {
		nc.add(nc.taintQueue, "pod/"+key)
	}
}

// monitorTick marks the monitor pass due and arms the next one.
func (nc *Controller) monitorTick() {
	nc.mu.Lock()
	nc.monitorDue = true
	nc.mu.Unlock()
	nc.poke()
	nc.clock.AfterFunc(nc.opts.NodeMonitorPeriod, nc.monitorTick)
}

func (nc *Controller) poke() {
	select {
	case nc.wake <- struct{}{}:
	default:
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
	nc.mu.Lock()
	due := nc.monitorDue
	nc.monitorDue = false
	nc.mu.Unlock()
	did := due && nc.monitorNodeHealth(ctx)
	did = did || drain(nc.noScheduleQueue, func(name string) bool { return nc.doNoScheduleTaintingPass(ctx, name) })
	did = did || nc.doNoExecuteTaintingPass(ctx)
	did = did || drain(nc.taintQueue, func(key string) bool { return nc.processTaintKey(ctx, key) })
	did = did || drain(nc.evictQueue, func(key string) bool { return nc.evict(ctx, key) })
	return did, ctx.Err()
}

// drain takes keys from q until work(key) reports that it did something, or q is empty.
func drain(q *workqueue.Queue[string], work func(string) bool) bool {
	for {
		key, ok := q.TryGet()
		if !ok {
			return false
		}
		did := work(key)
		q.Done(key)
		if did {
			return true
		}
	}
}

// Run works in real time until ctx ends: Step until there is no work, then wait for a handler or
// a timer to poke.
func (nc *Controller) Run(ctx context.Context) {
	for _, inf := range nc.Informers() {
		go inf.Run(ctx)
	}
	for {
		for {
			did, err := nc.Step(ctx)
			if err != nil || !did {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-nc.wake:
		}
	}
}

// add queues key on q and wakes Run.
func (nc *Controller) add(q *workqueue.Queue[string], key string) {
	q.Add(key)
	nc.poke()
}

// nodePath and podPath name a node or pod in the trace: "nodes/node-2", "pods/default/web".
func nodePath(name string) string           { return "nodes/" + name }
func podPath(namespace, name string) string { return "pods/" + namespace + "/" + name }
