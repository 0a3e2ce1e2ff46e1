// bench.go: the measurements behind `kubesim bench` and the go test benchmarks. Each reports a ratio
// against a baseline measured in the same run on the same machine, because absolute numbers mean
// little on a shared 2-core box.
package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
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
	RawPerSecond     float64 // etcd puts of the same JSON, no apiserver
	CreatesPerSecond float64 // pods created through authenticate, RBAC, admission, validation, etcd, watch cache
}

// Ratio is the share of raw etcd throughput the full pipeline keeps.
func (r CreatePathResult) Ratio() float64 { return r.CreatesPerSecond / r.RawPerSecond }

func (r CreatePathResult) String() string {
	return fmt.Sprintf("create path at %d clients, %d ops each: %.0f creates/s through every gate vs %.0f raw etcd puts/s: ratio %.2f",
		r.Clients, r.Ops, r.CreatesPerSecond, r.RawPerSecond, r.Ratio())
}

// GCPercent is the garbage collector setting kubesim runs with (the kubesim binary sets it at start,
// the benchmarks while they run): a simulated cluster allocates many short-lived objects, and on a
// machine with memory to spare, collecting a fourth as often buys a third more throughput.
const GCPercent = 400

// BenchCreatePath runs ops creates through the apiserver and ops raw etcd puts, at clients concurrent
// clients, alternating rounds of each so that both see the same machine.
func BenchCreatePath(ctx context.Context, ops, clients int) (CreatePathResult, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
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
			_, err := srv.Do(ctx, &wire.Request{Token: "bench", Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: pod})
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
	dep, err := BenchDeployment(ctx, 1000)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, dep)
	return nil
}

// DeploymentResult is how fast a Deployment of many replicas becomes available, and what it costs
// etcd.
type DeploymentResult struct {
	Replicas, Nodes int
	Wall            time.Duration // from kubectl apply until every replica is available
	EtcdWrites      int64         // writes the whole cluster made meanwhile (pods, statuses, events, leases)
	RawPerSecond    float64       // raw etcd puts per second, measured on the same etcd before the run
}

// WritesPerSecond is the etcd write rate the cluster sustained during the rollout.
func (r DeploymentResult) WritesPerSecond() float64 { return float64(r.EtcdWrites) / r.Wall.Seconds() }

func (r DeploymentResult) String() string {
	return fmt.Sprintf("deployment of %d replicas on %d nodes: all available in %s; %d etcd writes (%.1f per pod) at %.0f writes/s = %.2f of the raw put rate (%.0f/s)",
		r.Replicas, r.Nodes, r.Wall.Round(time.Millisecond), r.EtcdWrites, float64(r.EtcdWrites)/float64(r.Replicas),
		r.WritesPerSecond(), r.WritesPerSecond()/r.RawPerSecond, r.RawPerSecond)
}

// BenchDeployment creates a Deployment of replicas nginx pods on a real-time cluster with a node per
// 100 replicas, and measures the time until every replica is available against the raw etcd write rate
// measured on the same etcd first. The clock is sped up so that image pulls do not dominate, but less
// for more nodes: every kubelet's heartbeats and PLEG relists come faster with the speed, and two cores
// must keep up with all of them.
func BenchDeployment(ctx context.Context, replicas int) (DeploymentResult, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	nodes := (replicas + 99) / 100
	cfg := FullCluster(nodes)
	cfg.Mode, cfg.Speed, cfg.Seed = RealTime, max(5, 1000/float64(nodes)), 1
	c, err := New(ctx, cfg)
	if err != nil {
		return DeploymentResult{}, err
	}
	defer c.Close()
	res := DeploymentResult{Replicas: replicas, Nodes: nodes}

	const rawOps = 2000
	raw, err := parallel(rawOps, 16, func(i int) error {
		_, err := c.Store.Create(ctx, fmt.Sprintf("/bench/raw/%d", i), []byte(`{"bench":true}`))
		return err
	})
	if err != nil {
		return res, err
	}
	res.RawPerSecond = rawOps / raw.Seconds()

	// Wait for every node to be Ready, so the measurement is the rollout alone.
	if err := pollUntil(ctx, time.Minute, func() (bool, error) { return c.nodesReady(ctx, nodes) }); err != nil {
		return res, fmt.Errorf("nodes never became ready: %w", err)
	}

	manifest := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: bench}
spec:
  replicas: %d
  selector: {matchLabels: {app: bench}}
  template:
    metadata: {labels: {app: bench}}
    spec:
      containers:
      - {name: nginx, image: "nginx:1.25", resources: {requests: {cpu: 10m, memory: 16Mi}}}
`, replicas)
	before := c.Store.Stats().Writes
	start := time.Now()
	if _, err := c.Kubectl.Apply(ctx, []byte(manifest)); err != nil {
		return res, err
	}
	available := func() (bool, error) {
		d, err := Get[api.Deployment](ctx, c, "default", "bench")
		return err == nil && d.Status.AvailableReplicas == int32(replicas), err
	}
	if err := pollUntil(ctx, 10*time.Minute, available); err != nil {
		return res, fmt.Errorf("deployment never became available: %w", err)
	}
	res.Wall = time.Since(start)
	res.EtcdWrites = c.Store.Stats().Writes - before
	return res, nil
}

// pollUntil checks cond every 20 ms of wall time until it holds or timeout passes. (Cluster.Wait would
// poll a real-time cluster too, but after every tick of cluster time: at bench speeds that is a load
// of its own, which would distort what is measured.)
func pollUntil(ctx context.Context, timeout time.Duration, cond func() (bool, error)) error {
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
		case <-time.After(20 * time.Millisecond):
		}
	}
}
