// bench.go: the list of benchmarks and what they share.
//
//	Benchmarks                 the named benchmarks, in the order `kubesim bench` runs them
//	Run(ctx, names, opts)      runs some of them and returns their figures
//	Figure, Baseline           one measured number, its conditions, and what it is compared with
//
// One benchmark per file: createpath.go, deployment.go, envelope.go, watch.go, scheduler.go; what the
// process costs (peak RSS, CPU time) in process.go, and what its peak is made of in memory.go.
package bench

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/sim"
	"kubesim/store"
)

// Figure is one measured number: what it is, under which conditions, and the baseline measured beside
// it in the same run (nil where there is none to measure, such as peak RSS).
type Figure struct {
	Name       string         `json:"name"`
	Value      float64        `json:"value"`
	Unit       string         `json:"unit"`
	Conditions map[string]any `json:"conditions,omitempty"`
	Baseline   *Baseline      `json:"baseline,omitempty"`
}

// Baseline is what a Figure is compared with: raw etcd puts, the floor implied by etcd's write rate.
type Baseline struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Options scale the benchmarks; zero values take each benchmark's default.
type Options struct {
	Ops   int // create-path: creates (and raw puts) per client count
	Nodes int // envelope and watch: nodes (watchers, one per node)
	Pods  int // envelope: pods
	// Speed is envelope's cluster clock speed, times the wall clock's (0: DefaultEnvelopeSpeed).
	Speed float64
	// MemProfile, if set, is where envelope writes a heap profile of the full cluster at its end.
	MemProfile string
	// GCPercent is the garbage collector's GOGC while the benchmarks run: 0 takes sim.GCPercent,
	// a negative value turns the proportional collector off (the memory limit alone then paces it).
	GCPercent int
	// MemoryLimit is the Go runtime's soft memory limit while the benchmarks run, in bytes (0 keeps the
	// process's, GOMEMLIMIT's or none): the collector runs as often as it must to stay under it.
	MemoryLimit int64
	// AutoMemoryLimit: envelope sets a soft memory limit sized from its nodes and pods
	// (EnvelopeMemoryLimit) instead of MemoryLimit.
	AutoMemoryLimit bool
	// Progress, if set, receives a short line on what is running now (a terminal shows it in place).
	Progress func(string)
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// applyGC sets the collector's GOGC and soft memory limit as o asks and returns what puts back the
// process's own.
func (o Options) applyGC() (restore func()) {
	gc := o.GCPercent
	if gc == 0 {
		gc = sim.GCPercent
	}
	prevGC, prevLimit := debug.SetGCPercent(gc), debug.SetMemoryLimit(-1)
	if o.MemoryLimit > 0 {
		debug.SetMemoryLimit(o.MemoryLimit)
	}
	return func() {
		debug.SetGCPercent(prevGC)
		debug.SetMemoryLimit(prevLimit)
	}
}

// Benchmark is one named measurement of `kubesim bench NAME`.
type Benchmark struct {
	Name string
	Doc  string // one line for `kubesim bench --help`
	Run  func(ctx context.Context, o Options) ([]Figure, error)
}

// Benchmarks are every measurement kubesim has, cheapest first.
var Benchmarks = []Benchmark{
	{"create-path", "pods created through every apiserver gate vs raw etcd creates of the pod stored, at 1, 16 and 128 clients", benchCreatePath},
	{"scheduler", "SchedulingBasic end to end: 500 nodes / 1,000 pods and 5,000 nodes / 10,000 pods through the apiserver", benchScheduler},
	{"watch", "node-filtered watchers (one per node) under pod churn: delivery p50/p99, CPU per event", benchWatch},
	{"deployment", "Deployments of 3, 1,000 and 10,000 replicas to all available vs the floor of their etcd writes", benchDeployment},
	{"envelope", "N nodes with kubelets and M pods in Deployments of mixed sizes to Running: time, pods/s, RSS, CPU", benchEnvelope},
}

// Run runs the named benchmarks (every one if names is empty) in the order given and
// returns their figures.
func Run(ctx context.Context, names []string, o Options) ([]Figure, error) {
	if len(names) == 0 {
		for _, b := range Benchmarks {
			names = append(names, b.Name)
		}
	}
	var run []Benchmark
	for _, name := range names {
		i := slices.IndexFunc(Benchmarks, func(b Benchmark) bool { return b.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown benchmark %q (kubesim bench --help lists them)", name)
		}
		run = append(run, Benchmarks[i])
	}
	defer o.applyGC()()
	var figures []Figure
	for _, b := range run {
		o.progress("%s ...", b.Name)
		f, err := b.Run(ctx, o)
		figures = append(figures, f...)
		if err != nil {
			return figures, fmt.Errorf("%s: %w", b.Name, err)
		}
	}
	return figures, nil
}

// parallel runs op(1..n) on clients goroutines and returns the wall time taken and, if latencies is
// not nil (len n), each op's duration at latencies[i-1].
func parallel(n, clients int, latencies []time.Duration, op func(i int) error) (time.Duration, error) {
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1))
				if i > n {
					return
				}
				t := time.Now()
				if err := op(i); err != nil {
					errOnce.Do(func() { first = err })
					return
				}
				if latencies != nil {
					latencies[i-1] = time.Since(t)
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), first
}

// rawCreates is the baseline loop: n etcd creates (the compare-and-put transaction an apiserver
// create makes, nothing else) of value at keys prefix/1..prefix/n, from clients goroutines; it
// returns the wall time taken, and each create's duration in latencies as parallel does.
func rawCreates(ctx context.Context, st *store.Store, n, clients int, latencies []time.Duration, prefix string, value []byte) (time.Duration, error) {
	return parallel(n, clients, latencies, func(i int) error {
		_, err := st.Create(ctx, fmt.Sprintf("%s/%d", prefix, i), value)
		return err
	})
}

// quantile returns the q-quantile (0..1) of ds in milliseconds, sorting ds.
func quantile(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))]) / float64(time.Millisecond)
}

// pollUntil checks cond every 20 ms of wall time until it holds or timeout passes. (Cluster.Wait would
// poll a real-time cluster too, but after every tick of cluster time: at bench speeds that is a load
// of its own, which would distort what is measured.)
func pollUntil(ctx context.Context, timeout time.Duration, cond func() (bool, error)) error {
	return pollEvery(ctx, 20*time.Millisecond, timeout, cond)
}

// pollEvery is pollUntil with its own interval, for conditions that are costly to check.
func pollEvery(ctx context.Context, every, timeout time.Duration, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s", timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}
