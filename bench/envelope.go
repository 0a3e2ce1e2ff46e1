// envelope.go: the scalability envelope. A real-time cluster of N nodes (kubelets, runtimes and
// kube-proxies included, with Leases renewing) takes M pause pods in Deployments of mixed sizes, as
// the clusters of Kubernetes' own density tests do, and runs them all. The figures are the time to all
// Running (every pod's phase Running, as a pod watch sees it: issue 17's target) and to all available
// (as the Deployments' status counts them: later, since the ReplicaSet controller writes its status
// between its creates), the pods per second, and what the process cost:
// peak RSS, the heap still live after a GC, per pod, CPU seconds, and the garbage collections that
// took, under the GOGC and memory limit the run had (memory against CPU is the collector's trade).
// What the peak was made of (live heap, garbage, freed heap, stacks, file pages) comes from
// memory.go's sampler.
//
// etcd runs with an 8 GiB quota, as large clusters run it (EnvelopeEtcdQuota). A run in which no pod
// becomes available for a minute, or that is stopped, says why (missingPods): how far the watch cache
// is behind etcd, etcd's database and alarms, whether the scheduler and the controller manager lead
// and why their last renewal failed, and where the missing pods are. Each replica that stops or
// starts leading is said as it happens.
package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/sim"
)

// envelopeSizes are the Deployment sizes the pods are spread over, repeated in turn; the last
// Deployment takes what remains.
var envelopeSizes = []int{1000, 300, 100, 30, 10, 3}

// EnvelopeResult is one envelope run.
type EnvelopeResult struct {
	Nodes, Pods, Deployments int
	Speed                    float64       // how many times faster than the wall clock the cluster ran
	Boot                     time.Duration // until every node is Ready
	Running                  time.Duration // from the first Deployment applied until every pod is Running
	Wall                     time.Duration // from the first Deployment applied until every pod is available
	PeakRSS                  int64         // bytes, from the start of the boot
	// AtPeak is the memory sampled (every 100 ms) when the process was largest: what its RSS was
	// made of. MaxLiveHeap is the largest heap a GC found live during the run.
	AtPeak      MemorySample
	MaxLiveHeap int64
	LiveHeap    int64         // bytes still allocated after a GC at the end
	CPU         time.Duration // process CPU time, boot included
	GCCycles    uint32        // garbage collections from the boot to all available
	GCPercent   int           // the GOGC the run had (-1: off)
	MemoryLimit int64         // the soft memory limit the run had, bytes (math.MaxInt64: none)
	EtcdSize    int64         // etcd's database file when all were available, bytes (its quota: EnvelopeEtcdQuota)
}

func (r EnvelopeResult) String() string {
	return fmt.Sprintf("envelope: %d pods in %d Deployments on %d nodes (speed %g) all Running in %s (%.0f pods/s), all available in %s (boot %s); peak RSS %d MiB (%.0f KiB per pod), live heap %d MiB (%.0f KiB per pod), at most %d MiB during the run; %.1f CPU seconds, %d GCs (%s); etcd's database %d MiB; at the peak: %s",
		r.Pods, r.Deployments, r.Nodes, r.Speed, r.Running.Round(time.Millisecond), float64(r.Pods)/r.Running.Seconds(), r.Wall.Round(time.Millisecond), r.Boot.Round(time.Millisecond),
		r.PeakRSS>>20, float64(r.PeakRSS)/1024/float64(r.Pods), r.LiveHeap>>20, float64(r.LiveHeap)/1024/float64(r.Pods), r.MaxLiveHeap>>20, r.CPU.Seconds(),
		r.GCCycles, r.gcPolicy(), r.EtcdSize>>20, r.AtPeak)
}

// gcPolicy is the collector's setting in GOGC and GOMEMLIMIT's words: "GOGC=100 GOMEMLIMIT=6144MiB".
func (r EnvelopeResult) gcPolicy() string {
	gogc, limit := "off", "off"
	if r.GCPercent >= 0 {
		gogc = strconv.Itoa(r.GCPercent)
	}
	if r.MemoryLimit != math.MaxInt64 {
		limit = fmt.Sprintf("%dMiB", r.MemoryLimit>>20)
	}
	return "GOGC=" + gogc + " GOMEMLIMIT=" + limit
}

// The memory the envelope needs, as measured (BENCHMARKS.md, "the full envelope, fifth round": the
// largest live heap of runs of 1,000 nodes / 10,000 pods, 1,000 / 30,000 and 300 / 30,000): a fixed
// part, a part per node (its kubelet, runtime, kube-proxy, Lease and informers, about 50 KiB of heap,
// and its goroutines' stacks, about 55 KiB) and a part per pod (its objects in the watch cache, the
// kubelet and the runtime, etcd's index and the events about it, and the writes in flight).
const (
	envelopeLiveFixed   = 48 << 20
	envelopeLivePerNode = 128 << 10
	envelopeLivePerPod  = 15 << 10
	// envelopeLimitHeadroom is how far above that live heap the limit lets the heap grow between
	// collections, where GOGC=100 lets it double.
	envelopeLimitHeadroom = 1.25
)

// EnvelopeMemoryLimit is the soft memory limit `kubesim bench envelope --memory-limit auto` runs
// with: the live heap the cluster is expected to need, times envelopeLimitHeadroom. The collector
// then runs before the heap doubles once it nears the limit; when the estimate is short, it runs as
// often as it must, up to about half the CPU (the runtime's cap), and the CPU and GC count show it.
func EnvelopeMemoryLimit(nodes, pods int) int64 {
	live := envelopeLiveFixed + int64(nodes)*envelopeLivePerNode + int64(pods)*envelopeLivePerPod
	return int64(float64(live) * envelopeLimitHeadroom)
}

// EnvelopeEtcdQuota is the envelope's etcd --quota-backend-bytes: 8 GiB, etcd's suggested maximum.
const EnvelopeEtcdQuota = 8 << 30

// DefaultEnvelopeSpeed is the envelope's clock speed unless told otherwise: five times real time,
// which puts five times a real cluster's periodic load (Leases, relists, resyncs) on every node.
const DefaultEnvelopeSpeed = 5

// Envelope runs pods pause pods on nodes nodes, the cluster's clock speed times the wall clock's
// (at 5, Leases renew, PLEG relists and pods resync five times as often as in real time: the periodic
// work of N nodes grows with N x speed), and, if memProfile is set, writes a heap profile there at the end.
func Envelope(ctx context.Context, nodes, pods int, speed float64, memProfile string, progress func(string, ...any)) (EnvelopeResult, error) {
	res := EnvelopeResult{Nodes: nodes, Pods: pods, Speed: speed}
	res.GCPercent = debug.SetGCPercent(-1)
	debug.SetGCPercent(res.GCPercent)
	res.MemoryLimit = debug.SetMemoryLimit(-1) // a negative limit only reads it
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gc0 := ms.NumGC
	resetPeakRSS()
	sampler := startMemorySampler(100 * time.Millisecond)
	defer sampler.Stop()
	cpu0, t0 := cpuTime(), time.Now()
	cfg := sim.FullCluster(nodes)
	cfg.Mode, cfg.Speed, cfg.Seed = sim.RealTime, speed, 1
	// As large clusters run etcd: with its suggested maximum quota. At etcd's default (2 GiB) the full
	// envelope filled the database before the apiserver's first compaction (at 10 minutes: each
	// 5-minute tick compacts to the revision of the tick before), and every write failed with
	// "etcdserver: mvcc: database space exceeded".
	cfg.EtcdQuotaBackendBytes = EnvelopeEtcdQuota
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return res, err
	}
	defer c.Close()
	res.Boot = time.Since(t0)
	progress("envelope: %d nodes Ready in %s", nodes, res.Boot.Round(time.Millisecond))

	start := time.Now()
	running, stopCounting := countRunning(ctx, c, pods, start)
	defer stopCounting() // before c.Close: the informer must not outlive its cluster
	for left, i := pods, 0; left > 0; i++ {
		n := min(left, envelopeSizes[i%len(envelopeSizes)])
		if _, err := c.Kubectl.Apply(ctx, []byte(benchDeploymentManifest(fmt.Sprintf("envelope-%d", i), n, "registry.k8s.io/pause:3.10", "1m", "1Mi"))); err != nil {
			return res, err
		}
		left -= n
		res.Deployments++
	}
	last, lastChange, reported := -1, time.Now(), false
	leaders := watchLeaders(c)
	available := func() (bool, error) {
		for _, change := range leaders() {
			progress("envelope: %s after %s", change, time.Since(start).Round(time.Second))
		}
		deps, err := sim.List[api.Deployment](ctx, c, "default", "", "")
		if apierrors.IsTimeout(err) {
			// An overloaded apiserver answers a list late, as a real one does: ask again.
			progress("envelope: listing Deployments after %s: %v (asking again)", time.Since(start).Round(time.Second), err)
			return false, nil
		}
		sum := 0
		for _, d := range deps {
			sum += int(d.Status.AvailableReplicas)
		}
		if sum != last {
			progress("envelope: %d/%d pods available (%d Running) after %s, %.0f pods/s%s", sum, pods, running.count(), time.Since(start).Round(time.Second), float64(sum)/time.Since(start).Seconds(), cacheLag(ctx, c, 1000))
			last, lastChange, reported = sum, time.Now(), false
		} else if !reported && time.Since(lastChange) > envelopeStallAfter {
			progress("envelope: no pod became available for %s: %s", envelopeStallAfter, missingPods(ctx, c))
			reported = true
		}
		return sum == pods, err
	}
	if err := pollEvery(ctx, 500*time.Millisecond, 30*time.Minute, available); err != nil {
		// Interrupted or out of time: say what was missing, on a context of its own (ctx may be done).
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		progress("envelope: stopped after %s: %s", time.Since(start).Round(time.Second), missingPods(rctx, c))
		cancel()
		return res, fmt.Errorf("pods never all available: %w", err)
	}
	res.Wall = time.Since(start)
	res.Running = min(running.all(), res.Wall) // an available pod is Running, whether the watch has told yet or not
	res.CPU = cpuTime() - cpu0
	if sp, ok := c.Store.Space(); ok {
		res.EtcdSize = sp.Size
	}
	res.PeakRSS = peakRSS()
	res.AtPeak, res.MaxLiveHeap = sampler.Stop()
	runtime.ReadMemStats(&ms)
	res.GCCycles = ms.NumGC - gc0
	runtime.GC()
	runtime.ReadMemStats(&ms)
	res.LiveHeap = int64(ms.HeapAlloc)
	if memProfile != "" {
		f, err := os.Create(memProfile)
		if err != nil {
			return res, err
		}
		defer f.Close()
		if err := pprof.WriteHeapProfile(f); err != nil {
			return res, err
		}
	}
	return res, nil
}

func benchEnvelope(ctx context.Context, o Options) ([]Figure, error) {
	nodes, pods := o.Nodes, o.Pods
	if nodes == 0 {
		nodes = 5000
	}
	if pods == 0 {
		pods = 150000
	}
	if o.AutoMemoryLimit {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(EnvelopeMemoryLimit(nodes, pods)))
	}
	speed := o.Speed
	if speed == 0 {
		speed = DefaultEnvelopeSpeed
	}
	r, err := Envelope(ctx, nodes, pods, speed, o.MemProfile, o.progress)
	if err != nil {
		return nil, err
	}
	o.progress("%s", r)
	cond := map[string]any{"nodes": r.Nodes, "pods": r.Pods, "deployments": r.Deployments, "speed": r.Speed, "gc": r.gcPolicy()}
	return []Figure{
		{Name: "envelope/boot", Value: r.Boot.Seconds(), Unit: "s", Conditions: cond},
		{Name: "envelope/all-running", Value: r.Running.Seconds(), Unit: "s", Conditions: cond},
		{Name: "envelope/all-available", Value: r.Wall.Seconds(), Unit: "s", Conditions: cond},
		{Name: "envelope/pods-per-second", Value: float64(r.Pods) / r.Running.Seconds(), Unit: "pods/s", Conditions: cond},
		{Name: "envelope/peak-rss", Value: float64(r.PeakRSS) / (1 << 20), Unit: "MiB", Conditions: cond},
		{Name: "envelope/peak-rss-per-pod", Value: float64(r.PeakRSS) / 1024 / float64(r.Pods), Unit: "KiB/pod", Conditions: cond},
		{Name: "envelope/live-heap-per-pod", Value: float64(r.LiveHeap) / 1024 / float64(r.Pods), Unit: "KiB/pod", Conditions: cond},
		{Name: "envelope/max-live-heap-per-pod", Value: float64(r.MaxLiveHeap) / 1024 / float64(r.Pods), Unit: "KiB/pod", Conditions: cond},
		{Name: "envelope/peak-rss-file", Value: float64(r.AtPeak.RSSFile) / (1 << 20), Unit: "MiB", Conditions: cond},
		{Name: "envelope/cpu", Value: r.CPU.Seconds(), Unit: "CPU s", Conditions: cond},
		{Name: "envelope/gc-cycles", Value: float64(r.GCCycles), Unit: "GCs", Conditions: cond},
		{Name: "envelope/etcd-db", Value: float64(r.EtcdSize) / (1 << 20), Unit: "MiB", Conditions: cond},
	}, nil
}

// envelopeStallAfter is how long the envelope waits with no more pods available before it says
// which are missing and why (once per stall).
const envelopeStallAfter = time.Minute

// watchLeaders returns a function that says which of the control plane's replicas started or stopped
// leading since it was last called ("kube-scheduler stopped leading"): a replica that cannot renew its
// Lease within renewDeadline (10 s) stops its work until it leads again, which an overloaded
// apiserver can cause and which shows as a stall.
func watchLeaders(c *sim.Cluster) func() []string {
	was := map[string]bool{}
	for _, name := range controlPlane {
		was[name] = elector(c, name).IsLeader()
	}
	return func() []string {
		var out []string
		for _, name := range controlPlane {
			e := elector(c, name)
			if now := e.IsLeader(); now != was[name] {
				was[name] = now
				change := name + " leads again"
				if !now {
					change = name + " stopped leading: " + e.LastFailure()
				}
				out = append(out, change)
			}
		}
		return out
	}
}

// controlPlane are the replicas that lead on a Lease, by the Lease's name.
var controlPlane = []string{"kube-scheduler", "kube-controller-manager"}

// elector is the elector of the replica named name; every FullCluster runs both.
func elector(c *sim.Cluster, name string) *leaderelection.LeaderElector {
	if s, ok := c.Scheduler(name); ok {
		return s.Elector
	}
	cm, _ := c.ControllerManager(name)
	return cm.Elector
}

// cacheLag says how far the apiserver's watch cache is behind etcd, when by at least atLeast revisions
// ("; watch cache 12000 revisions behind etcd"): every informer, and every read served from the cache,
// sees the cluster as it was that many writes ago.
func cacheLag(ctx context.Context, c *sim.Cluster, atLeast int64) string {
	now, err := c.Store.CurrentRevision(ctx)
	if err != nil {
		return ""
	}
	if lag := now - c.APIServer.Revision(); lag >= atLeast {
		return fmt.Sprintf("; watch cache %d revisions behind etcd", lag)
	}
	return ""
}

// missingPods says where the pods that are not available are stuck, as `kubectl get deploy,rs,pods`
// would show it, counted: Deployments short of replicas, their ReplicaSets' counts, and the pods by
// state (not scheduled, scheduled but not started, running but not ready, terminating), with the
// first message of each kind, so that a stalled run shows which component holds it.
func missingPods(ctx context.Context, c *sim.Cluster) string {
	deps, err := sim.List[api.Deployment](ctx, c, "default", "", "")
	if err != nil {
		return "listing Deployments: " + err.Error()
	}
	rss, err := sim.List[api.ReplicaSet](ctx, c, "default", "", "")
	if err != nil {
		return "listing ReplicaSets: " + err.Error()
	}
	pods, err := sim.List[api.Pod](ctx, c, "default", "", "")
	if err != nil {
		return "listing pods: " + err.Error()
	}
	var b strings.Builder
	b.WriteString(strings.TrimPrefix(cacheLag(ctx, c, 0), "; "))
	if sp, ok := c.Store.Space(); ok {
		fmt.Fprintf(&b, "; etcd database %d MiB (%d MiB in use, quota %d MiB), alarms %v", sp.Size>>20, sp.InUse>>20, sp.Quota>>20, sp.Alarms)
	}
	for _, name := range controlPlane {
		e := elector(c, name)
		fmt.Fprintf(&b, "; %s leading %t", name, e.IsLeader())
		if l, err := sim.Get[api.Lease](ctx, c, "kube-system", name); err == nil && l.Spec.RenewTime != nil {
			fmt.Fprintf(&b, " (Lease renewed %s ago)", c.Now().Sub(l.Spec.RenewTime.Time).Round(time.Second))
		}
		if why := e.LastFailure(); why != "" {
			fmt.Fprintf(&b, " (last try: %s)", why)
		}
	}
	short, want, have, stale := 0, 0, 0, 0
	var example string
	for _, d := range deps {
		r := int(api.Deref(d.Spec.Replicas, 1))
		if int(d.Status.AvailableReplicas) >= r {
			continue
		}
		short++
		want += r
		have += int(d.Status.AvailableReplicas)
		if d.Status.ObservedGeneration < d.Generation {
			stale++
		}
		if example == "" {
			example = fmt.Sprintf("%s: replicas %d, updated %d, ready %d, available %d", d.Name, r, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas)
		}
	}
	fmt.Fprintf(&b, "; %d of %d Deployments short (%d of %d replicas available; %d not yet observed; e.g. %s)", short, len(deps), have, want, stale, example)
	rsWant, rsHave, rsReady, rsAvail := 0, 0, 0, 0
	for _, rs := range rss {
		rsWant += int(api.Deref(rs.Spec.Replicas, 1))
		rsHave += int(rs.Status.Replicas)
		rsReady += int(rs.Status.ReadyReplicas)
		rsAvail += int(rs.Status.AvailableReplicas)
	}
	fmt.Fprintf(&b, "; ReplicaSets want %d, have %d, ready %d, available %d", rsWant, rsHave, rsReady, rsAvail)
	type state struct {
		n     int
		first string
	}
	var unscheduled, notStarted, notReady, terminating state
	note := func(s *state, p *api.Pod, why string) {
		s.n++
		if s.first == "" {
			s.first = p.Name + ": " + why
			if p.Spec.NodeName != "" {
				s.first = p.Name + " on " + p.Spec.NodeName + ": " + why
			}
		}
	}
	ready := 0
	for _, p := range pods {
		switch {
		case p.DeletionTimestamp != nil:
			note(&terminating, p, string(p.Status.Phase))
		case p.Spec.NodeName == "":
			why := "no PodScheduled condition"
			if cond := api.GetPodCondition(p, api.PodScheduled); cond != nil {
				why = cond.Reason + " " + cond.Message
			}
			note(&unscheduled, p, why)
		case p.Status.Phase == api.PodPending:
			note(&notStarted, p, "Pending")
		case !api.IsPodReady(p):
			why := string(p.Status.Phase)
			if cond := api.GetPodCondition(p, api.PodReady); cond != nil {
				why += ", Ready " + string(cond.Status) + " " + cond.Reason
			}
			note(&notReady, p, why)
		default:
			ready++
		}
	}
	fmt.Fprintf(&b, "; %d pods, %d ready", len(pods), ready)
	for _, s := range []struct {
		what string
		state
	}{{"not scheduled", unscheduled}, {"scheduled, not started", notStarted}, {"running, not ready", notReady}, {"terminating", terminating}} {
		if s.n > 0 {
			fmt.Fprintf(&b, "; %d %s (first: %s)", s.n, s.what, s.first)
		}
	}
	return b.String()
}

// runningCounter counts the pods in phase Running from a pod informer of its own, as `kubectl get
// pods -w` watches them, and notes when the count first reaches the envelope's pods.
type runningCounter struct {
	mu      sync.Mutex
	running map[string]struct{} // namespace/name of the pods Running
	want    int
	start   time.Time
	at      time.Duration // since start, when all wanted pods were first Running; 0 until then
}

// countRunning starts counting; stop ends it and returns once its informer has stopped.
func countRunning(ctx context.Context, c *sim.Cluster, want int, start time.Time) (r *runningCounter, stop func()) {
	r = &runningCounter{running: map[string]struct{}{}, want: want, start: start}
	inf := client.NewInformer[api.Pod](c.Kubectl.Client().Quiet(), client.InformerOptions{Namespace: "default", Name: "envelope pods"})
	note := func(p *api.Pod, running bool) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if running {
			r.running[p.Key()] = struct{}{}
		} else {
			delete(r.running, p.Key())
		}
		if r.at == 0 && len(r.running) >= r.want {
			r.at = time.Since(r.start)
		}
	}
	isRunning := func(p *api.Pod) bool { return p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil }
	inf.AddHandler(client.Handler[*api.Pod]{
		OnAdd:    func(p *api.Pod) { note(p, isRunning(p)) },
		OnUpdate: func(_, p *api.Pod) { note(p, isRunning(p)) },
		OnDelete: func(p *api.Pod) { note(p, false) },
	})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	return r, func() {
		cancel()
		<-done
	}
}

// count is how many pods are Running now.
func (r *runningCounter) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.running)
}

// all is when every pod was first Running, since the start (the available ones are Running: if the
// informer has not seen it yet, the time it is asked).
func (r *runningCounter) all() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == 0 {
		return time.Since(r.start)
	}
	return r.at
}
