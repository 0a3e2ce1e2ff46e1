// daemonset.go: the DaemonSet controller component.
//
//	New(c, clk, tr, ev) *Controller
//	Name, Informers, Step, Run   the component contract (sim.Component)
//	Reconcile(ctx, key)          in sync.go
//
// Handlers queue the DaemonSet concerned: its own changes, its pods' changes (found through their
// controller ownerReference), and, for node changes that can change eligibility (added, removed,
// labels or taints changed), every DaemonSet.
package daemonset

import (
	"context"
	"reflect"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=daemonset).
const Name = "daemonset-controller"

// Identity is the user the controller manager authenticates as.
const Identity = "system:kube-controller-manager"

// indexControllerUID indexes pods by the uid of their controller.
const indexControllerUID = "controllerUID"

// Controller keeps one daemon pod on every eligible node.
type Controller struct {
	client     *client.Client
	clock      clock.Clock
	trace      *trace.Recorder
	events     *client.EventRecorder
	daemonSets *client.Informer[api.DaemonSet, *api.DaemonSet]
	pods       *client.Informer[api.Pod, *api.Pod]
	nodes      *client.Informer[api.Node, *api.Node]
	queue      *workqueue.Queue[string]
	expect     *expectations
}

// New builds the controller. c must act as system:kube-controller-manager; ev should record as
// "daemonset-controller".
func New(c *client.Client, clk clock.Clock, tr *trace.Recorder, ev *client.EventRecorder) *Controller {
	inf := func(what string) client.InformerOptions {
		return client.InformerOptions{Clock: clk, Trace: tr, Name: Name + " " + what}
	}
	dc := &Controller{client: c, clock: clk, trace: tr, events: ev,
		daemonSets: client.NewInformer[api.DaemonSet](c, inf("daemonsets")),
		pods:       client.NewInformer[api.Pod](c, inf("pods")),
		nodes:      client.NewInformer[api.Node](c, inf("nodes")),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]()),
		expect:     &expectations{clock: clk, byKey: map[string]*expectation{}},
	}
	dc.pods.AddIndexer(indexControllerUID, func(p *api.Pod) []string {
		if ref := p.ControllerRef(); ref != nil {
			return []string{ref.UID}
		}
		return nil
	})
	enqueue := func(ds *api.DaemonSet) { dc.queue.Add(ds.Namespace + "/" + ds.Name) }
	dc.daemonSets.AddHandler(client.Handler[*api.DaemonSet]{
		OnAdd:    enqueue,
		OnUpdate: func(_, ds *api.DaemonSet) { enqueue(ds) },
		OnDelete: func(ds *api.DaemonSet) { dc.expect.forget(ds.Namespace + "/" + ds.Name) },
	})
	dc.pods.AddHandler(client.Handler[*api.Pod]{
		OnAdd: func(p *api.Pod) {
			if key, ok := dc.owner(p); ok {
				dc.expect.observe(key, true)
				dc.queue.Add(key)
			}
		},
		OnUpdate: func(_, p *api.Pod) {
			if key, ok := dc.owner(p); ok {
				dc.queue.Add(key)
			}
		},
		OnDelete: func(p *api.Pod) {
			if key, ok := dc.owner(p); ok {
				dc.expect.observe(key, false)
				dc.queue.Add(key)
			}
		},
	})
	all := func() {
		for _, ds := range dc.daemonSets.List() {
			enqueue(ds)
		}
	}
	dc.nodes.AddHandler(client.Handler[*api.Node]{
		OnAdd: func(*api.Node) { all() },
		OnUpdate: func(old, n *api.Node) {
			if !reflect.DeepEqual(old.Labels, n.Labels) || !reflect.DeepEqual(old.Spec.Taints, n.Spec.Taints) {
				all()
			}
		},
		OnDelete: func(*api.Node) { all() },
	})
	return dc
}

// owner is the key of the DaemonSet controlling p, if any.
func (dc *Controller) owner(p *api.Pod) (string, bool) {
	ref := p.ControllerRef()
	if ref == nil || ref.Kind != "DaemonSet" {
		return "", false
	}
	key := p.Namespace + "/" + ref.Name
	if ds, ok := dc.daemonSets.Get(key); !ok || ds.UID != ref.UID {
		return "", false
	}
	return key, true
}

// Name is the component's name in the trace.
func (dc *Controller) Name() string { return Name }

// Informers are the controller's informers.
func (dc *Controller) Informers() []client.InformerHandle {
	return []client.InformerHandle{dc.nodes, dc.daemonSets, dc.pods}
}

// Step reconciles one queued key, if any (see internal.Loop).
func (dc *Controller) Step(ctx context.Context) (bool, error) { return dc.loop().Step(ctx) }

// Run works in real time until ctx ends.
func (dc *Controller) Run(ctx context.Context) { dc.loop().Run(ctx) }

// loop is the controller's work loop: one worker, retries with backoff.
func (dc *Controller) loop() *internal.Loop {
	return &internal.Loop{Queue: dc.queue, Reconcile: dc.Reconcile, Informers: dc.Informers, Workers: 1,
		Tracer: internal.Tracer{Component: Name, Recorder: dc.trace}, Resource: "daemonsets"}
}

// expectationsTimeout is how long the controller waits for its own creates and deletes to show up
// before it stops trusting its expectations (ExpectationsTimeout).
const expectationsTimeout = 5 * time.Minute

// expectations counts, per DaemonSet, the pod adds and deletes it has made but not yet seen in its
// cache (ControllerExpectations).
type expectations struct {
	clock clock.Clock
	mu    sync.Mutex
	byKey map[string]*expectation // guarded by mu
}

type expectation struct {
	adds, dels int
	at         time.Time
}

func (e *expectations) expect(key string, adds, dels int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byKey[key] = &expectation{adds: adds, dels: dels, at: e.clock.Now()}
}

// observe counts one add (or delete) seen in the cache.
func (e *expectations) observe(key string, add bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.byKey[key]; ok {
		if add {
			x.adds--
		} else {
			x.dels--
		}
	}
}

// lower forgets one expected add (or delete) that failed and will never be seen.
func (e *expectations) lower(key string, add bool) { e.observe(key, add) }

// satisfied reports whether every expected add and delete has been seen, or they are too old to
// wait for.
func (e *expectations) satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.byKey[key]
	return !ok || (x.adds <= 0 && x.dels <= 0) || e.clock.Since(x.at) > expectationsTimeout
}

func (e *expectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byKey, key)
}
