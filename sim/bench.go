// bench.go: the measurements behind `kubesim bench` and the go test benchmarks. Each reports a ratio
// against a baseline measured in the same run on the same machine, because absolute numbers mean
// little on a shared 2-core box.
package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/clock"
	"kubesim/store"
)

// CreatePathResult compares creating pods through every apiserver gate with raw etcd puts.
type CreatePathResult struct {
	Clients          int
	Ops              int
	RawPerSecond     float64 // etcd puts of the same JSON, no apiserver
	CreatesPerSecond float64 // pods created through authenticate, RBAC, admission, validation, etcd, watch cache
}

// Ratio is the share of raw etcd throughput the full pipeline keeps.
func (r CreatePathResult) Ratio() float64 { return r.CreatesPerSecond / r.RawPerSecond }

func (r CreatePathResult) String() string {
	return fmt.Sprintf("create path at %d clients, %d ops each: %.0f creates/s through every gate vs %.0f raw etcd puts/s: ratio %.2f",
		r.Clients, r.Ops, r.CreatesPerSecond, r.RawPerSecond, r.Ratio())
}

// BenchCreatePath runs ops creates through the apiserver and ops raw etcd puts, at clients concurrent
// clients, alternating rounds of each so that both see the same machine.
func BenchCreatePath(ctx context.Context, ops, clients int) (CreatePathResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	if err != nil {
		return CreatePathResult{}, err
	}
	defer st.Close()
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.Real{}, Seed: 1})
	if err := srv.Start(ctx); err != nil {
		return CreatePathResult{}, err
	}
	// A non-privileged identity, so every create pays for RBAC like a controller's does.
	srv.AddCredential(apiserver.Credential{Token: "bench", User: apiserver.User{Name: "system:kube-controller-manager"}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "bench-", Namespace: "default", Labels: map[string]string{"app": "bench"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	val, err := json.Marshal(pod)
	if err != nil {
		return CreatePathResult{}, err
	}

	const rounds = 4
	var raw, pipeline time.Duration
	for r := 0; r < rounds; r++ {
		n := ops / rounds
		if r == rounds-1 {
			n = ops - n*(rounds-1)
		}
		d, err := parallel(n, clients, func(i int) error {
			_, err := st.Create(ctx, fmt.Sprintf("/bench/raw/%d/%d", r, i), val)
			return err
		})
		if err != nil {
			return CreatePathResult{}, err
		}
		raw += d
		d, err = parallel(n, clients, func(int) error {
			_, err := srv.Do(ctx, &apiserver.Request{Token: "bench", Verb: apiserver.VerbCreate, Resource: "pods", Namespace: "default", Body: pod})
			return err
		})
		if err != nil {
			return CreatePathResult{}, err
		}
		pipeline += d
	}
	return CreatePathResult{Clients: clients, Ops: ops,
		RawPerSecond: float64(ops) / raw.Seconds(), CreatesPerSecond: float64(ops) / pipeline.Seconds()}, nil
}

// parallel runs op(1..n) on clients goroutines and returns the wall time taken.
func parallel(n, clients int, op func(i int) error) (time.Duration, error) {
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
				if err := op(i); err != nil {
					errOnce.Do(func() { first = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), first
}

// Bench runs every measurement kubesim has and writes one line each.
func Bench(ctx context.Context, w io.Writer, ops int) error {
	res, err := BenchCreatePath(ctx, ops, 16)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, res)
	return nil
}
