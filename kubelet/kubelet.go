// kubelet.go: the Kubelet, its construction and its two loops (pkg/kubelet/kubelet.go).
//
//	New(Options) *Kubelet
//	Name, Informers, Step, Run       the component contract (see sim/component.go)
//	Stop, Start                      the node-down fault: the kubelet process dies and comes back
//	NodeName, Config, Stopped, PLEGHealthy   what the simulator and tests may ask
//
// A real kubelet runs many goroutines; kubesim keeps the two that matter for what a learner can
// observe, because they fail independently:
//
//   - the node side: register the Node, renew the Lease, report the node status. It never calls the
//     container runtime, only reads what the pod side learned, so a hung runtime cannot stop the
//     heartbeat (the node goes NotReady through "PLEG is not healthy", not through a missing Lease).
//   - the pod side: the PLEG relist, probes, housekeeping (eviction, runtime status), one pod sync
//     at a time, and the status manager's writes.
//
// In step mode Step runs one unit of work from the node side, else one from the pod side; in real
// time Run gives each side its own goroutine. Either way, informer handlers and clock timers only
// mark work as due; the writes happen in Step.
package kubelet

import (
	"context"
	"math/rand"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	fakeruntime "kubesim/runtime"
	"kubesim/trace"
)

// Runtime is the container runtime as the kubelet sees it: the two CRI services.
type Runtime interface {
	fakeruntime.RuntimeService
	fakeruntime.ImageService
}

// Options are what a kubelet is built from.
type Options struct {
	NodeName string
	// Client must carry the node's identity: user system:node:<NodeName>, group system:nodes. The
	// apiserver's Node authorizer then lets it touch only its own Node, Lease and pods.
	Client   *client.Client
	Clock    clock.Clock
	Trace    *trace.Recorder
	Recorder *client.EventRecorder // source component "kubelet", host NodeName
	Runtime  Runtime
	// RuntimeClock, if set, is the CRIClock the runtime was built on (see cri.go): in step mode it
	// lets slow runtime calls (image pulls, a hung runtime) take their time without stopping the
	// rest of the cluster. Without it, such calls hold up the step driver for as long as they take.
	RuntimeClock *CRIClock
	Config       NodeConfig
	// Seed seeds the pod workers' jitter (their resync and retry periods): the cluster derives it
	// from its own seed and the node, so that step mode plays the same story every time.
	Seed int64
}

// Kubelet is one node's agent.
type Kubelet struct {
	nodeName string
	cfg      NodeConfig
	client   *client.Client
	clock    clock.Clock
	trace    *trace.Recorder
	recorder *client.EventRecorder
	runtime  Runtime
	cri      *CRIClock
	started  time.Time // when the kubelet was built: the start of its fast status checks

	pods  *client.Informer[api.Pod, *api.Pod]   // pods bound to this node (fieldSelector spec.nodeName)
	nodes *client.Informer[api.Node, *api.Node] // this node only (fieldSelector metadata.name)
	// services are the Services with a cluster IP, of every namespace, for the containers' Service
	// variables (service_env.go).
	services *client.Informer[api.Service, *api.Service]
	queue    *workqueue.Queue[string] // pod keys ("namespace/name") to sync

	// mu guards everything in this block: it is shared by the two sides, informer handlers and timer
	// callbacks.
	mu      sync.Mutex
	stopped bool
	due     map[task]bool        // periodic tasks whose timer has fired
	timers  map[task]clock.Timer // the armed timer of each periodic task
	health  runtimeHealth        // what the pod side learned that the node status reports
	// readyExpected: the node has been Ready once, or nodeReadyGracePeriod has passed since started;
	// the starting kubelet's fast status checks are over (network.go).
	readyExpected bool
	wake          [2]chan struct{} // nudges the node and pod loops in real time
	// reconcile holds the keys of pods whose status alone changed in the apiserver, for the status
	// manager's next periodic reconcile (pod_updates.go).
	reconcile map[string]bool
	// restarted: Start brought the kubelet back; the pod side forgets the statuses it wrote, as a
	// new kubelet process starts with an empty status manager cache.
	restarted bool
	// pullingUntil is, per image, when a step-mode pull still running in virtual time completes.
	pullingUntil map[string]time.Time
	// mirrorsDue: the pod side should check the static pods' mirror pods (static_pods.go).
	mirrorsDue bool

	node   nodeSide // the node side's own state: only the node side touches it
	static []static // the static pods (static_pods.go); fixed at New
	podSide
}

// New builds a kubelet. It does nothing until the cluster adds it (Sync of its informers, then Step
// or Run).
func New(o Options) *Kubelet {
	k := &Kubelet{
		nodeName: o.NodeName,
		cfg:      o.Config.withDefaults(),
		client:   o.Client,
		clock:    o.Clock,
		trace:    o.Trace,
		recorder: o.Recorder,
		runtime:  o.Runtime,
		cri:      o.RuntimeClock,
		started:  o.Clock.Now(),
		queue:    workqueue.New[string](o.Clock, "kubelet/"+o.NodeName, workqueue.DefaultControllerRateLimiter[string]()),
		due:      map[task]bool{},
		timers:   map[task]clock.Timer{},
		wake:     [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)},
	}
	k.podSide = newPodSide(o.Clock, o.Config.CrashLoopBackOff)
	k.static = staticPods(o.Config.StaticPods, o.NodeName, o.Clock.Now())
	k.mirrorsDue = len(k.static) > 0
	k.rng = rand.New(rand.NewSource(o.Seed))
	k.pods = client.NewInformer[api.Pod](o.Client, client.InformerOptions{
		List: client.ListOptions{FieldSelector: "spec.nodeName=" + o.NodeName}, Clock: o.Clock, Trace: o.Trace,
		Name: k.Name() + " pods"})
	k.pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    func(p *api.Pod) { k.enqueue(p.Key()) },
		OnUpdate: k.podUpdated,
		OnDelete: func(p *api.Pod) {
			k.enqueue(p.Key())
			if _, mirror := p.Annotations[ConfigMirrorAnnotation]; mirror {
				k.markMirrorsDue()
			}
		},
	})
	k.nodes = client.NewInformer[api.Node](o.Client, client.InformerOptions{
		List: client.ListOptions{FieldSelector: "metadata.name=" + o.NodeName}, Clock: o.Clock, Trace: o.Trace,
		Name: k.Name() + " node"})
	if len(k.static) > 0 {
		k.nodes.AddHandler(client.Handler[*api.Node]{OnAdd: func(*api.Node) { k.markMirrorsDue() }})
	}
	k.services = client.NewInformer[api.Service](o.Client, client.InformerOptions{
		List: client.ListOptions{FieldSelector: "spec.clusterIP!=" + api.ClusterIPNone}, Clock: o.Clock, Trace: o.Trace,
		Name: k.Name() + " services"})
	// Everything is due at once: register, then the first lease, status, relist and housekeeping.
	for _, t := range allTasks {
		k.due[t] = true
	}
	return k
}

// Name is how the trace names this kubelet: "kubelet/node-1".
func (k *Kubelet) Name() string { return "kubelet/" + k.nodeName }

// actor is the identity the kubelet acts under.
func (k *Kubelet) actor() string { return "system:node:" + k.nodeName }

// NodeName is the node this kubelet runs.
func (k *Kubelet) NodeName() string { return k.nodeName }

// Config is the node's configuration, with defaults filled in.
func (k *Kubelet) Config() NodeConfig { return k.cfg }

// Informers are the pod, node and service informers.
func (k *Kubelet) Informers() []client.InformerHandle {
	return []client.InformerHandle{k.pods, k.nodes, k.services}
}

// Step does one unit of work: first from the node side (registration, a Lease renewal, a node status
// report), else from the pod side (a pod sync, an eviction, a status write).
func (k *Kubelet) Step(ctx context.Context) (bool, error) {
	if k.isStopped() {
		return false, nil
	}
	if k.nodeStep(ctx) || k.podStep(ctx) {
		return true, nil
	}
	// The pod side's first look at the runtime is what registration waits for.
	return k.nodeStep(ctx), nil
}

// Run works in real time until ctx ends: the node side and the pod side each on their own goroutine
// (its informers are already running, see client.Component).
func (k *Kubelet) Run(ctx context.Context) {
	k.realtime = true // before the loops start: image pulls may now run on goroutines
	go k.loop(ctx, sideNode, k.nodeStep)
	k.loop(ctx, sidePod, k.podStep)
}

// side names one of the two loops.
type side int

const (
	sideNode side = iota
	sidePod
)

// loop runs step until it has nothing to do, then sleeps until nudged.
func (k *Kubelet) loop(ctx context.Context, s side, step func(context.Context) bool) {
	for ctx.Err() == nil {
		if !k.isStopped() && step(ctx) {
			continue
		}
		select {
		case <-ctx.Done():
		case <-k.wake[s]:
		}
	}
}

// nudge wakes a loop in real time (in step mode nobody listens, and the driver asks anyway).
func (k *Kubelet) nudge(s side) {
	select {
	case k.wake[s] <- struct{}{}:
	default:
	}
}

// enqueue marks a pod as needing a sync.
func (k *Kubelet) enqueue(key string) {
	k.queue.Add(key)
	k.nudge(sidePod)
}

// enqueueAfter syncs a pod again after d (a backoff ends, a pull completes, a probe is due).
func (k *Kubelet) enqueueAfter(key string, d time.Duration) clock.Timer {
	return k.clock.AfterFunc(d, func() { k.enqueue(key) })
}

func (k *Kubelet) isStopped() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.stopped
}

// Stop is the node-down fault: the kubelet process is gone. No more Lease renewals, status reports or
// pod syncs; the containers keep running as they were (the runtime does not need the kubelet).
func (k *Kubelet) Stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return
	}
	k.stopped = true
	for t, tm := range k.timers {
		tm.Stop()
		delete(k.timers, t)
	}
	k.trace.Record(trace.Event{Component: k.Name(), Actor: k.actor(), Action: "stop"}.
		Msgf("kubelet on %s stopped: no more Lease renewals, status reports or pod syncs; containers keep running", k.nodeName))
}

// Start brings a stopped kubelet back: as a restarted kubelet does, it renews its Lease, reports its
// status and syncs every pod at once.
func (k *Kubelet) Start() {
	k.mu.Lock()
	if !k.stopped {
		k.mu.Unlock()
		return
	}
	k.stopped = false
	k.restarted = true
	for _, t := range allTasks {
		k.due[t] = true
	}
	k.mu.Unlock()
	k.trace.Record(trace.Event{Component: k.Name(), Actor: k.actor(), Action: "start"}.
		Msgf("kubelet on %s started again: renewing its Lease and syncing every pod", k.nodeName))
	for _, p := range k.pods.List() {
		k.enqueue(p.Key())
	}
	k.nudge(sideNode)
	k.nudge(sidePod)
}

// Stopped reports whether the kubelet is stopped (the node-down fault).
func (k *Kubelet) Stopped() bool { return k.isStopped() }

// record writes one story-level trace line as this kubelet.
func (k *Kubelet) record(action, object, rv, format string, args ...any) {
	if !k.trace.Enabled() {
		return
	}
	k.trace.Record(trace.Event{Component: k.Name(), Actor: k.actor(), Action: action, Object: object,
		ResourceVersion: rv}.Msgf(format, args...))
}

// recordDetail writes a routine trace line.
func (k *Kubelet) recordDetail(action, object, rv, format string, args ...any) {
	if !k.trace.Enabled() {
		return
	}
	k.trace.Record(trace.Event{Component: k.Name(), Actor: k.actor(), Action: action, Object: object,
		ResourceVersion: rv, Detail: true}.Msgf(format, args...))
}
