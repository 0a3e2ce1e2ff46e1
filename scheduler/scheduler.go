// scheduler.go: the Scheduler, kube-scheduler's main object: informers on pods and nodes feed a
// cache and a scheduling queue; each unit of work pops one pod and runs its scheduling cycle (choose a
// node) and binding cycle (tell the apiserver). Interface: Scheduler, Options, New, and the
// component contract: Name, Informers, Step, Run.
package scheduler

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"sort"
	"sync"

	"kubesim/api"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/scheduler/cache"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
	"kubesim/scheduler/queue"
	"kubesim/trace"
)

// Identity is the user kube-scheduler authenticates as; RBAC's system:kube-scheduler ClusterRole
// says what it may do.
const Identity = "system:kube-scheduler"

// Options configure a Scheduler.
type Options struct {
	// Name is the component's name in the trace (default "kube-scheduler"). A second scheduler in the
	// same cluster needs another name.
	Name string
	// Client talks to the apiserver as Identity.
	Client *client.Client
	Clock  clock.Clock
	Trace  *trace.Recorder
	// Seed seeds the random choice among nodes with equal scores.
	Seed int64
	// Profiles are the scheduler's profiles, one per schedulerName (default: the default profile for
	// "default-scheduler"). Pods naming any other schedulerName are not this scheduler's business.
	Profiles []framework.Profile
	// OutOfTreeRegistry adds plugins to the in-tree ones, for profiles to enable.
	OutOfTreeRegistry framework.Registry
	// PercentageOfNodesToScore caps how many feasible nodes a cycle looks for (0: adaptive, as in
	// Kubernetes: 50% - 1% per 125 nodes, at least 5%, and never fewer than 100 nodes).
	PercentageOfNodesToScore int32
	// Parallelism is how many goroutines filter and score nodes in real-time mode. Kubernetes uses 16:
	// its scheduler has a machine to itself. kubesim's shares the process with the apiserver, etcd
	// and the kubelets, so the default is half the CPUs (on 2 CPUs, one: measured faster there).
	// Step mode always uses one, so that nothing depends on goroutine timing.
	Parallelism int
}

// profile is a running profile: its framework and the recorder whose events carry its
// schedulerName as their source ("From: default-scheduler" in kubectl describe).
type profile struct {
	fwk      *framework.Framework
	recorder *client.EventRecorder
}

// Scheduler is kube-scheduler.
type Scheduler struct {
	name        string
	client      *client.Client
	clock       clock.Clock
	tracer      *trace.Recorder
	parallelism int

	cache    *cache.Cache
	queue    *queue.PriorityQueue
	profiles map[string]*profile // by schedulerName
	percent  int32

	podInformer     *client.Informer[api.Pod, *api.Pod]
	nodeInformer    *client.Informer[api.Node, *api.Node]
	serviceInformer *client.Informer[api.Service, *api.Service]                             // see workloads.go
	rsInformer      *client.Informer[api.ReplicaSet, *api.ReplicaSet]                       // see workloads.go
	pvcInformer     *client.Informer[api.PersistentVolumeClaim, *api.PersistentVolumeClaim] // see volumes.go
	pvInformer      *client.Informer[api.PersistentVolume, *api.PersistentVolume]           // see volumes.go
	scInformer      *client.Informer[api.StorageClass, *api.StorageClass]                   // see volumes.go
	pdbInformer     *client.Informer[api.PodDisruptionBudget, *api.PodDisruptionBudget]     // see disruptionbudgets.go
	fixed           *FixedCluster                                                           // see fixed.go: no informers

	// cycleMu serialises scheduling cycles and Explain: they share the snapshot (refreshed from the
	// cache at the start of each), the random source and the round-robin start index below.
	cycleMu   sync.Mutex
	snapshot  *framework.Snapshot
	rng       *rand.Rand
	nextStart int
	filterBuf []filterResult
	// feasibleBuf holds the feasible nodes of the cycle under way (findNodesThatPassFilters): one
	// array for every cycle, where each allocated hundreds of pointers (500 at 5,000 nodes).
	feasibleBuf []*framework.NodeInfo

	// async is set in real-time mode: binding cycles run on their own goroutines, as in Kubernetes,
	// so the next pod's scheduling cycle need not wait for the apiserver.
	async   bool
	binding sync.WaitGroup
}

// New builds a scheduler with its informers (not yet synced: the cluster syncs them).
func New(o Options) (*Scheduler, error) {
	s, err := newScheduler(o)
	if err != nil {
		return nil, err
	}
	s.podInformer = client.NewInformer[api.Pod](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " pods"})
	s.nodeInformer = client.NewInformer[api.Node](o.Client, client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " nodes"})
	s.newWorkloadInformers(o.Client, o)
	s.newVolumeInformers(o.Client, o)
	s.newDisruptionBudgetInformer(o.Client, o)
	s.addEventHandlers()
	return s, nil
}

// newScheduler builds everything but the informers (the algorithm benchmark feeds the cache and the
// queue directly).
func newScheduler(o Options) (*Scheduler, error) {
	if o.Name == "" {
		o.Name = "kube-scheduler"
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if len(o.Profiles) == 0 {
		o.Profiles = []framework.Profile{plugins.DefaultProfile("")}
	}
	registry := plugins.NewInTreeRegistry()
	for name, factory := range o.OutOfTreeRegistry {
		if _, dup := registry[name]; dup {
			return nil, fmt.Errorf("plugin %q is already in the in-tree registry", name)
		}
		registry[name] = factory
	}
	s := &Scheduler{name: o.Name, client: o.Client, clock: o.Clock, tracer: o.Trace, parallelism: o.Parallelism,
		cache: cache.New(), profiles: map[string]*profile{}, percent: o.PercentageOfNodesToScore,
		rng: rand.New(rand.NewSource(o.Seed)), snapshot: &framework.Snapshot{}}
	if s.parallelism <= 0 {
		s.parallelism = max(runtime.GOMAXPROCS(0)/2, 1)
	}
	events := map[string][]framework.ClusterEvent{}
	var less func(a, b *framework.QueuedPodInfo) bool
	for _, p := range o.Profiles {
		if _, dup := s.profiles[p.SchedulerName]; dup {
			return nil, fmt.Errorf("duplicate profile for schedulerName %q", p.SchedulerName)
		}
		var rec *client.EventRecorder
		if o.Client != nil {
			rec = client.NewEventRecorder(o.Client, p.SchedulerName, "", o.Clock, o.Trace)
		}
		fwk, err := framework.NewFramework(registry, p, framework.Options{Client: o.Client, Recorder: rec, Clock: o.Clock, Trace: s.record, Rand: s.rng,
			Workloads: workloadLister{s}, Volumes: volumeLister{s}, DisruptionBudgets: disruptionBudgetLister{s}})
		if err != nil {
			return nil, err
		}
		s.profiles[p.SchedulerName] = &profile{fwk: fwk, recorder: rec}
		for plugin, evs := range fwk.EventsToRegister() {
			events[plugin] = evs
		}
		if less == nil {
			// All profiles share the queue, so they share its order, as Kubernetes requires.
			less = fwk.QueueSortFunc()
		}
	}
	s.queue = queue.New(queue.Options{Clock: o.Clock, Less: less, Events: events, Trace: s.record})
	return s, nil
}

// Name is the component's name.
func (s *Scheduler) Name() string { return s.name }

// Informers are the pod, node, Service, ReplicaSet, storage and PodDisruptionBudget informers.
func (s *Scheduler) Informers() []client.InformerHandle {
	return []client.InformerHandle{s.podInformer, s.nodeInformer, s.serviceInformer, s.rsInformer,
		s.pvcInformer, s.pvInformer, s.scInformer, s.pdbInformer}
}

// Step runs one scheduling cycle, and in step mode its binding cycle too, if a pod is waiting in the
// activeQ. Nothing a pod does can make Step fail: failures go back to the queue and into the trace.
func (s *Scheduler) Step(ctx context.Context) (bool, error) {
	pi, ok := s.queue.Pop()
	if !ok {
		return false, nil
	}
	s.scheduleOne(ctx, pi)
	return true, ctx.Err()
}

// Run schedules in real time until ctx ends (its informers are already running, see client.Component):
// one scheduling cycle at a time, binding cycles in the background, filtering and scoring on
// Options.Parallelism goroutines.
func (s *Scheduler) Run(ctx context.Context) {
	s.async = true
	for _, p := range s.profiles {
		p.fwk.SetParallelism(s.parallelism)
	}
	for {
		pi, ok := s.queue.PopWait(ctx)
		if !ok {
			break
		}
		s.scheduleOne(ctx, pi)
	}
	s.binding.Wait()
}

// ProfileNames lists the schedulerNames this scheduler serves, sorted.
func (s *Scheduler) ProfileNames() []string {
	out := make([]string, 0, len(s.profiles))
	for name := range s.profiles {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// responsibleFor reports whether one of the scheduler's profiles serves the pod.
func (s *Scheduler) responsibleFor(pod *api.Pod) bool {
	_, ok := s.profiles[pod.Spec.SchedulerName]
	return ok
}

// QueuePosition tells where a pending pod waits: "activeQ", "backoffQ", "unschedulablePods", or ""
// (for tests and the CLI).
func (s *Scheduler) QueuePosition(pod *api.Pod) string { return s.queue.Where(pod) }

// CacheDump describes the cache, one line per node.
func (s *Scheduler) CacheDump() string { return s.cache.Dump() }

// record stamps a trace event with the scheduler's component and identity.
func (s *Scheduler) record(e trace.Event) {
	if s.tracer == nil {
		return
	}
	e.Component, e.Actor = s.name, Identity
	s.tracer.Record(e)
}
