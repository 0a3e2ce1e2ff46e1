// createpath.go: the create path. Pods are created through every apiserver gate
// (authentication, RBAC, admission, validation, etcd, the watch cache) beside raw etcd creates (the
// compare-and-put transaction an apiserver create makes, and nothing else) of the same value, the
// pod as the apiserver stores it, at the same concurrency, on the same etcd, in alternating rounds
// so that both see the same machine. The ratio of the two rates is the figure. Each create sends a
// pod of its own, handed over, as the ReplicaSet controller does (and as the HTTP front does with
// each body it decodes).
//
// A third loop puts the JSON the creates send (about 200 bytes where the stored pod is about 1.3
// KB: admission's defaults, the service account's volume, the tolerations), the baseline of the
// figures before 2026-12-02 (BENCHMARKS.md), so that the old ratios still compare.
//
// A fourth makes the raw creates of the stored pod again under a prefix that a reader watches, as
// the apiserver's watch cache watches /registry/: etcd then hands every write to a watcher, which
// every write of a real apiserver pays and the raw loop does not. Its rate is reported beside the
// figure (WatchedRatio), not in place of it: it says how much of the gap is the watch itself.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/wire"
)

// CreatePathResult compares creating pods through every apiserver gate with raw etcd puts.
type CreatePathResult struct {
	Clients          int
	Ops              int
	RawPerSecond     float64 // etcd creates of the value the apiserver stores, no apiserver
	CreatesPerSecond float64 // pods created through authenticate, RBAC, admission, validation, etcd, watch cache
	// SmallPerSecond: etcd creates of the JSON the creates send, smaller than what they store (the
	// baseline before 2026-12-02); StoredBytes and SentBytes are the two values' sizes.
	SmallPerSecond         float64
	StoredBytes, SentBytes int
	// Latency quantiles of one operation, in milliseconds.
	RawP50, RawP99, CreateP50, CreateP99 float64
	// What the whole process allocated per operation while the puts (Raw) or the creates ran: etcd's
	// client and server in both, and the apiserver's gates in the creates. The difference is the
	// apiserver's share.
	RawBytes, RawAllocs, CreateBytes, CreateAllocs float64
	// CPU time the whole process spent per operation (getrusage), in microseconds, and the cores it
	// kept busy on average: a loop that leaves the cores idle is bound by latency, not by work.
	RawCPU, CreateCPU     float64
	RawCores, CreateCores float64
	// WatchedPerSecond and WatchedCPU: the raw creates of the stored pod under a watched prefix,
	// each event read by a watcher; the CPU includes the watcher's reading all of them.
	WatchedPerSecond, WatchedCPU float64
}

// Ratio is the share of raw etcd throughput the full pipeline keeps.
func (r CreatePathResult) Ratio() float64 { return r.CreatesPerSecond / r.RawPerSecond }

// SmallRatio is the pipeline's rate against raw creates of the smaller JSON the creates send.
func (r CreatePathResult) SmallRatio() float64 { return r.CreatesPerSecond / r.SmallPerSecond }

// WatchedRatio is the pipeline's rate against raw creates of the stored pod that a watcher reads.
func (r CreatePathResult) WatchedRatio() float64 { return r.CreatesPerSecond / r.WatchedPerSecond }

func (r CreatePathResult) String() string {
	return fmt.Sprintf("create path at %d clients, %d ops: %.0f creates/s (p50 %.2f ms, p99 %.2f ms, %.0f B and %.0f allocations, %.0f µs CPU each, %.2f cores busy) vs %.0f raw etcd puts/s of the stored pod's %d B (p50 %.2f ms, p99 %.2f ms, %.0f B and %.0f allocations, %.0f µs CPU each, %.2f cores busy): ratio %.2f; %.2f of %.0f puts/s of the %d B sent; %.2f of %.0f watched puts/s of the stored pod (%.0f µs CPU each)",
		r.Clients, r.Ops, r.CreatesPerSecond, r.CreateP50, r.CreateP99, r.CreateBytes, r.CreateAllocs, r.CreateCPU, r.CreateCores,
		r.RawPerSecond, r.StoredBytes, r.RawP50, r.RawP99, r.RawBytes, r.RawAllocs, r.RawCPU, r.RawCores, r.Ratio(), r.SmallRatio(), r.SmallPerSecond, r.SentBytes,
		r.WatchedRatio(), r.WatchedPerSecond, r.WatchedCPU)
}

// CreatePath runs ops creates through the apiserver and ops raw etcd puts at each number of
// concurrent clients, on one etcd and one apiserver.
func CreatePath(ctx context.Context, ops int, clients ...int) ([]CreatePathResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.Real{}, Seed: 1})
	if err := srv.Start(ctx); err != nil {
		return nil, err
	}
	// A non-privileged identity, so every create pays for RBAC like a controller's does.
	srv.AddCredential(apiserver.Credential{Token: "bench", User: apiserver.User{Name: "system:kube-controller-manager"}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "bench-", Namespace: "default", Labels: map[string]string{"app": "bench"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	sent, err := json.Marshal(pod)
	if err != nil {
		return nil, err
	}
	// The value a create stores: one pod created through the apiserver, read back from etcd.
	first, err := srv.Do(ctx, &wire.Request{Token: "bench", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: api.DeepCopy(pod)})
	if err != nil {
		return nil, err
	}
	kv, err := st.Get(ctx, "/registry/pods/default/"+first.Object.GetObjectMeta().Name)
	if err != nil {
		return nil, err
	}
	stored := kv.Value
	// The watched loop's reader: it takes every event, as the watch cache's follower does, and
	// counts them, so that each loop can wait until all of its events were read.
	var watchedSeen atomic.Int64
	w := st.Watch(ctx, "/bench/watched/", 0, store.WithoutPrevious())
	defer w.Stop()
	go func() {
		for batch := range w.Events() {
			watchedSeen.Add(int64(len(batch)))
		}
	}()
	var watchedSent int64

	var results []CreatePathResult
	for _, cl := range clients {
		const rounds = 4
		var (
			raw, small, pipeline, watched   time.Duration
			rawUse, pipelineUse, watchedUse usage
		)
		rawLat, createLat := make([]time.Duration, 0, ops), make([]time.Duration, 0, ops)
		for r := 0; r < rounds; r++ {
			n := ops / rounds
			if r == rounds-1 {
				n = ops - n*(rounds-1)
			}
			lat := make([]time.Duration, n)
			d, err := rawCreates(ctx, st, n, cl, lat, fmt.Sprintf("/bench/sent/%d/%d", cl, r), sent)
			if err != nil {
				return nil, err
			}
			small += d
			before := readUsage()
			d, err = rawCreates(ctx, st, n, cl, lat, fmt.Sprintf("/bench/raw/%d/%d", cl, r), stored)
			if err != nil {
				return nil, err
			}
			raw += d
			rawUse = rawUse.plus(readUsage().minus(before))
			rawLat = append(rawLat, lat...)
			before = readUsage()
			d, err = rawCreates(ctx, st, n, cl, lat, fmt.Sprintf("/bench/watched/%d/%d", cl, r), stored)
			if err != nil {
				return nil, err
			}
			watched += d
			watchedSent += int64(n)
			if err := pollEvery(ctx, time.Millisecond, time.Minute, func() (bool, error) { return watchedSeen.Load() >= watchedSent, nil }); err != nil {
				return nil, fmt.Errorf("the watcher of the watched raw creates: %w", err)
			}
			watchedUse = watchedUse.plus(readUsage().minus(before))
			before = readUsage()
			d, err = parallel(n, cl, lat, func(int) error {
				// As the ReplicaSet controller sends each create: a pod built for it (a copy of the
				// template, counted here) and handed over.
				_, err := srv.Do(ctx, &wire.Request{Token: "bench", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default",
					Body: api.DeepCopy(pod), HandOver: true})
				return err
			})
			if err != nil {
				return nil, err
			}
			pipeline += d
			// The CPU counted is the creates' and their watch cache's: wait until the cache has read
			// every create, as the watched loop waits for its reader.
			rev, err := st.CurrentRevision(ctx)
			if err != nil {
				return nil, err
			}
			if err := srv.WaitForRevision(ctx, rev); err != nil {
				return nil, err
			}
			pipelineUse = pipelineUse.plus(readUsage().minus(before))
			createLat = append(createLat, lat...)
		}
		results = append(results, CreatePathResult{Clients: cl, Ops: ops,
			RawPerSecond: float64(ops) / raw.Seconds(), CreatesPerSecond: float64(ops) / pipeline.Seconds(),
			SmallPerSecond: float64(ops) / small.Seconds(), StoredBytes: len(stored), SentBytes: len(sent),
			RawP50: quantile(rawLat, 0.5), RawP99: quantile(rawLat, 0.99),
			CreateP50: quantile(createLat, 0.5), CreateP99: quantile(createLat, 0.99),
			RawBytes: float64(rawUse.bytes) / float64(ops), RawAllocs: float64(rawUse.objects) / float64(ops),
			CreateBytes: float64(pipelineUse.bytes) / float64(ops), CreateAllocs: float64(pipelineUse.objects) / float64(ops),
			RawCPU: micros(rawUse.cpu) / float64(ops), CreateCPU: micros(pipelineUse.cpu) / float64(ops),
			RawCores: rawUse.cpu.Seconds() / raw.Seconds(), CreateCores: pipelineUse.cpu.Seconds() / pipeline.Seconds(),
			WatchedPerSecond: float64(ops) / watched.Seconds(), WatchedCPU: micros(watchedUse.cpu) / float64(ops)})
	}
	return results, nil
}

// usage is what the process has used so far: allocated (runtime.MemStats' TotalAlloc and Mallocs)
// and CPU time (getrusage).
type usage struct {
	bytes, objects uint64
	cpu            time.Duration
}

func readUsage() usage {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return usage{ms.TotalAlloc, ms.Mallocs, cpuTime()}
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func (a usage) minus(b usage) usage {
	return usage{a.bytes - b.bytes, a.objects - b.objects, a.cpu - b.cpu}
}
func (a usage) plus(b usage) usage {
	return usage{a.bytes + b.bytes, a.objects + b.objects, a.cpu + b.cpu}
}

func benchCreatePath(ctx context.Context, o Options) ([]Figure, error) {
	ops := o.Ops
	if ops == 0 {
		ops = 20000
	}
	results, err := CreatePath(ctx, ops, 1, 16, 128)
	var figures []Figure
	for _, r := range results {
		cond := map[string]any{"clients": r.Clients, "ops": r.Ops}
		raw := func(v float64, unit string) *Baseline {
			return &Baseline{Name: fmt.Sprintf("raw etcd create of the stored pod (%d B)", r.StoredBytes), Value: v, Unit: unit}
		}
		figures = append(figures,
			Figure{Name: "create-path/ratio", Value: r.Ratio(), Unit: "of raw puts/s", Conditions: cond, Baseline: raw(r.RawPerSecond, "puts/s")},
			Figure{Name: "create-path/ratio-to-watched", Value: r.WatchedRatio(), Unit: "of watched raw puts/s", Conditions: cond,
				Baseline: &Baseline{Name: fmt.Sprintf("raw etcd create of the stored pod (%d B), read by a watcher", r.StoredBytes), Value: r.WatchedPerSecond, Unit: "puts/s"}},
			Figure{Name: "create-path/ratio-to-sent-size", Value: r.SmallRatio(), Unit: "of raw puts/s", Conditions: cond,
				Baseline: &Baseline{Name: fmt.Sprintf("raw etcd create of the JSON sent (%d B)", r.SentBytes), Value: r.SmallPerSecond, Unit: "puts/s"}},
			Figure{Name: "create-path/creates", Value: r.CreatesPerSecond, Unit: "creates/s", Conditions: cond, Baseline: raw(r.RawPerSecond, "puts/s")},
			Figure{Name: "create-path/p50", Value: r.CreateP50, Unit: "ms", Conditions: cond, Baseline: raw(r.RawP50, "ms")},
			Figure{Name: "create-path/p99", Value: r.CreateP99, Unit: "ms", Conditions: cond, Baseline: raw(r.RawP99, "ms")},
			Figure{Name: "create-path/allocated", Value: r.CreateBytes, Unit: "B/create", Conditions: cond, Baseline: raw(r.RawBytes, "B/put")},
			Figure{Name: "create-path/cpu", Value: r.CreateCPU, Unit: "µs/create", Conditions: cond, Baseline: raw(r.RawCPU, "µs/put")},
			Figure{Name: "create-path/cores-busy", Value: r.CreateCores, Unit: "cores", Conditions: cond, Baseline: raw(r.RawCores, "cores")})
		o.progress("%s", r)
	}
	return figures, err
}
