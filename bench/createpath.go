// createpath.go: the create path. Pods are created through every apiserver gate
// (authentication, RBAC, admission, validation, etcd, the watch cache) beside raw etcd puts of the
// same JSON, at the same concurrency, on the same etcd, in alternating rounds so that both see the
// same machine. The ratio of the two rates is the figure. Each create sends a pod of its own, handed
// over, as the ReplicaSet controller does (and as the HTTP front does with each body it decodes).
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
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
	RawPerSecond     float64 // etcd puts of the same JSON, no apiserver
	CreatesPerSecond float64 // pods created through authenticate, RBAC, admission, validation, etcd, watch cache
	// Latency quantiles of one operation, in milliseconds.
	RawP50, RawP99, CreateP50, CreateP99 float64
	// What the whole process allocated per operation while the puts (Raw) or the creates ran: etcd's
	// client and server in both, and the apiserver's gates in the creates. The difference is the
	// apiserver's share.
	RawBytes, RawAllocs, CreateBytes, CreateAllocs float64
}

// Ratio is the share of raw etcd throughput the full pipeline keeps.
func (r CreatePathResult) Ratio() float64 { return r.CreatesPerSecond / r.RawPerSecond }

func (r CreatePathResult) String() string {
	return fmt.Sprintf("create path at %d clients, %d ops: %.0f creates/s (p50 %.2f ms, p99 %.2f ms, %.0f B and %.0f allocations each) vs %.0f raw etcd puts/s (p50 %.2f ms, p99 %.2f ms, %.0f B and %.0f allocations each): ratio %.2f",
		r.Clients, r.Ops, r.CreatesPerSecond, r.CreateP50, r.CreateP99, r.CreateBytes, r.CreateAllocs,
		r.RawPerSecond, r.RawP50, r.RawP99, r.RawBytes, r.RawAllocs, r.Ratio())
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
	val, err := json.Marshal(pod)
	if err != nil {
		return nil, err
	}

	var results []CreatePathResult
	for _, cl := range clients {
		const rounds = 4
		var (
			raw, pipeline           time.Duration
			rawAlloc, pipelineAlloc allocated
		)
		rawLat, createLat := make([]time.Duration, 0, ops), make([]time.Duration, 0, ops)
		for r := 0; r < rounds; r++ {
			n := ops / rounds
			if r == rounds-1 {
				n = ops - n*(rounds-1)
			}
			lat := make([]time.Duration, n)
			before := readAllocated()
			d, err := parallel(n, cl, lat, func(i int) error {
				_, err := st.Create(ctx, fmt.Sprintf("/bench/raw/%d/%d/%d", cl, r, i), val)
				return err
			})
			if err != nil {
				return nil, err
			}
			raw += d
			rawAlloc = rawAlloc.plus(readAllocated().minus(before))
			rawLat = append(rawLat, lat...)
			before = readAllocated()
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
			pipelineAlloc = pipelineAlloc.plus(readAllocated().minus(before))
			createLat = append(createLat, lat...)
		}
		results = append(results, CreatePathResult{Clients: cl, Ops: ops,
			RawPerSecond: float64(ops) / raw.Seconds(), CreatesPerSecond: float64(ops) / pipeline.Seconds(),
			RawP50: quantile(rawLat, 0.5), RawP99: quantile(rawLat, 0.99),
			CreateP50: quantile(createLat, 0.5), CreateP99: quantile(createLat, 0.99),
			RawBytes: float64(rawAlloc.bytes) / float64(ops), RawAllocs: float64(rawAlloc.objects) / float64(ops),
			CreateBytes: float64(pipelineAlloc.bytes) / float64(ops), CreateAllocs: float64(pipelineAlloc.objects) / float64(ops)})
	}
	return results, nil
}

// allocated is what the process has allocated so far (runtime.MemStats' TotalAlloc and Mallocs).
type allocated struct{ bytes, objects uint64 }

func readAllocated() allocated {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return allocated{ms.TotalAlloc, ms.Mallocs}
}

func (a allocated) minus(b allocated) allocated {
	return allocated{a.bytes - b.bytes, a.objects - b.objects}
}
func (a allocated) plus(b allocated) allocated {
	return allocated{a.bytes + b.bytes, a.objects + b.objects}
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
		raw := func(v float64, unit string) *Baseline { return &Baseline{Name: "raw etcd put", Value: v, Unit: unit} }
		figures = append(figures,
			Figure{Name: "create-path/ratio", Value: r.Ratio(), Unit: "of raw puts/s", Conditions: cond, Baseline: raw(r.RawPerSecond, "puts/s")},
			Figure{Name: "create-path/creates", Value: r.CreatesPerSecond, Unit: "creates/s", Conditions: cond, Baseline: raw(r.RawPerSecond, "puts/s")},
			Figure{Name: "create-path/p50", Value: r.CreateP50, Unit: "ms", Conditions: cond, Baseline: raw(r.RawP50, "ms")},
			Figure{Name: "create-path/p99", Value: r.CreateP99, Unit: "ms", Conditions: cond, Baseline: raw(r.RawP99, "ms")},
			Figure{Name: "create-path/allocated", Value: r.CreateBytes, Unit: "B/create", Conditions: cond, Baseline: raw(r.RawBytes, "B/put")})
		o.progress("%s", r)
	}
	return figures, err
}
