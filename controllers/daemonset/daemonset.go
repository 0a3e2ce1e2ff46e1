// daemonset.go: the DaemonSet controller component.
//
//	New(c, informers, clk, tr, ev) *Controller
//	Name, Informers, Step, Run   the component contract, from workloop.Component
//	Reconcile(ctx, key)          in sync.go
//
// Handlers queue the DaemonSet concerned: its own changes, its pods' changes (found through their
// controller ownerReference), and, for node changes that can change eligibility (added, removed,
// labels or taints changed), every DaemonSet.
package daemonset

import (
	"reflect"
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

// Name is how Kubernetes names the controller (--controllers=daemonset).
const Name = "daemonset-controller"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// Controller keeps one daemon pod on every eligible node.
type Controller struct {
	workloop.Component
	client     *client.Client
	clock      clock.Clock
	tracer     internal.Tracer
	events     *client.EventRecorder
	daemonSets *client.Informer[api.DaemonSet, *api.DaemonSet]
	pods       *client.Informer[api.Pod, *api.Pod]
	nodes      *client.Informer[api.Node, *api.Node]
	queue      *workqueue.Queue[string]
	expect     *expectations
}

// New builds the controller on informers from the shared factory. c must act as
// system:kube-controller-manager; ev should record as "daemonset-controller".
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder, ev *client.EventRecorder) *Controller {
	dc := &Controller{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr}, events: ev,
		daemonSets: client.InformerFor[api.DaemonSet](informers, client.FactoryOptions{}),
		pods:       client.InformerFor[api.Pod](informers, client.FactoryOptions{}),
		nodes:      client.InformerFor[api.Node](informers, client.FactoryOptions{}),
		queue:      workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]()),
		expect:     &expectations{clock: clk, byKey: map[string]*expectation{}},
	}
	dc.Component = workloop.NewComponent(&workloop.Loop{Queue: dc.queue, Reconcile: workloop.Errors(dc.Reconcile), Workers: 1,
		Component: Name, Actor: Identity, Trace: tr, Resource: "daemonsets"},
		dc.nodes, dc.daemonSets, dc.pods)
	dc.pods.AddIndexer(internal.IndexControllerUID, internal.ControllerUIDIndex[*api.Pod])
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
	ds := internal.ResolveControllerRef(dc.daemonSets, "DaemonSet", p.Namespace, p.ControllerRef())
	if ds == nil {
		return "", false
	}
	return ds.Key(), true
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
