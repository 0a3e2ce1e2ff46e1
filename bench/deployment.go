// deployment.go: a Deployment rolled out on a whole real-time cluster, from kubectl apply to
// every replica available, beside the floor its etcd writes imply: the writes the cluster made
// meanwhile (pods, bindings, statuses, events, Leases), divided by the raw put rate of the same etcd
// for values of their mean size, measured right after. (Before 2026-12-02 the raw rate was measured
// before the rollout with 14-byte values; that rate and its floor are still reported.)
package bench

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/sim"
	"kubesim/wire"
)

// DeploymentResult is how fast a Deployment of many replicas becomes available, and what it costs
// etcd.
type DeploymentResult struct {
	Replicas, Nodes int
	Wall            time.Duration // from kubectl apply until every replica is available
	EtcdWrites      int64         // writes the whole cluster made meanwhile (pods, statuses, events, leases)
	WrittenBytes    int64         // the values of those writes
	// RawPerSecond is raw etcd puts per second of values of the writes' mean size, measured on the
	// same etcd right after the rollout; SmallPerSecond of 14-byte values, before it.
	RawPerSecond, SmallPerSecond float64
	// Writes are the successful writing requests the apiserver served meanwhile, by verb and resource
	// ("update pods": pod status writes and updates together), most first: where EtcdWrites went.
	Writes []apiserver.RequestCount
	// Events counts the Events the rollout added, by reporting component and reason.
	Events map[string]int
}

// WritesPerSecond is the etcd write rate the cluster sustained during the rollout.
func (r DeploymentResult) WritesPerSecond() float64 { return float64(r.EtcdWrites) / r.Wall.Seconds() }

// Floor is the time the rollout's etcd writes take at the raw put rate of values their size: no
// rollout that needs those writes can be faster.
func (r DeploymentResult) Floor() time.Duration {
	return time.Duration(float64(r.EtcdWrites) / r.RawPerSecond * float64(time.Second))
}

// SmallFloor is the floor at the raw rate of 14-byte values (the figure before 2026-12-02).
func (r DeploymentResult) SmallFloor() time.Duration {
	return time.Duration(float64(r.EtcdWrites) / r.SmallPerSecond * float64(time.Second))
}

// MeanWrite is the mean size of the rollout's written values, bytes.
func (r DeploymentResult) MeanWrite() int {
	if r.EtcdWrites == 0 {
		return 0
	}
	return int(r.WrittenBytes / r.EtcdWrites)
}

func (r DeploymentResult) String() string {
	var by []string
	for _, w := range r.Writes {
		by = append(by, fmt.Sprintf("%s %s %.2f", w.Verb, w.Resource, float64(w.Count)/float64(r.Replicas)))
	}
	var events []string
	for reason, n := range r.Events {
		events = append(events, fmt.Sprintf("%s %d", reason, n))
	}
	sort.Strings(events)
	return fmt.Sprintf("deployment of %d replicas on %d nodes: all available in %s = %.1f x the floor of its %d etcd writes (%.1f per pod: %s; %d B each on average) at the raw put rate of values that size (%.0f/s): %s; %.1f x the floor at the raw rate of 14-byte values (%.0f/s): %s; events added: %s",
		r.Replicas, r.Nodes, r.Wall.Round(time.Millisecond), r.Wall.Seconds()/r.Floor().Seconds(), r.EtcdWrites,
		float64(r.EtcdWrites)/float64(r.Replicas), strings.Join(by, ", "), r.MeanWrite(), r.RawPerSecond, r.Floor().Round(time.Millisecond),
		r.Wall.Seconds()/r.SmallFloor().Seconds(), r.SmallPerSecond, r.SmallFloor().Round(time.Millisecond),
		strings.Join(events, ", "))
}

// eventsByReason counts the cluster's Events by reporting component and reason.
func eventsByReason(ctx context.Context, c *sim.Cluster) (map[string]int, error) {
	events, err := sim.List[api.Event](ctx, c, "", "", "")
	out := map[string]int{}
	for _, ev := range events {
		out[ev.Source.Component+" "+ev.Reason]++
	}
	return out, err
}

// writeCounts are the successful writing requests in after that were not yet in before, most first.
func writeCounts(before, after []apiserver.RequestCount) []apiserver.RequestCount {
	type series struct{ verb, resource string }
	counts := map[series]int64{}
	for sign, list := range map[int64][]apiserver.RequestCount{-1: before, 1: after} {
		for _, rc := range list {
			switch rc.Verb {
			case wire.VerbCreate, wire.VerbUpdate, wire.VerbPatch, wire.VerbDelete:
				if rc.Code < 300 {
					counts[series{rc.Verb, rc.Resource}] += sign * rc.Count
				}
			}
		}
	}
	var out []apiserver.RequestCount
	for k, n := range counts {
		if n > 0 {
			out = append(out, apiserver.RequestCount{Verb: k.verb, Resource: k.resource, Count: n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Verb+out[i].Resource < out[j].Verb+out[j].Resource
	})
	return out
}

// Deployment creates a Deployment of replicas nginx pods on a real-time cluster with a node per
// 100 replicas, and measures the time until every replica is available against the raw etcd write rate
// measured on the same etcd first. The clock is sped up so that image pulls do not dominate, but less
// for more nodes: every kubelet's heartbeats and PLEG relists come faster with the speed, and two cores
// must keep up with all of them.
func Deployment(ctx context.Context, replicas int) (DeploymentResult, error) {
	nodes := (replicas + 99) / 100
	cfg := sim.FullCluster(nodes)
	cfg.Mode, cfg.Speed, cfg.Seed = sim.RealTime, max(5, 1000/float64(nodes)), 1
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return DeploymentResult{}, err
	}
	defer c.Close()
	res := DeploymentResult{Replicas: replicas, Nodes: nodes}

	const rawOps = 10000 // about a third of a second of puts: fewer moved the rate by half from one run to the next
	raw, err := rawCreates(ctx, c.Store, rawOps, 16, nil, "/bench/raw", []byte(`{"bench":true}`))
	if err != nil {
		return res, err
	}
	res.SmallPerSecond = rawOps / raw.Seconds()

	// Wait for every node to be Ready, so the measurement is the rollout alone.
	if err := pollUntil(ctx, time.Minute, func() (bool, error) { return c.NodesReady(ctx, nodes) }); err != nil {
		return res, fmt.Errorf("nodes never became ready: %w", err)
	}
	eventsBefore, err := eventsByReason(ctx, c)
	if err != nil {
		return res, err
	}
	statsBefore, requestsBefore := c.Store.Stats(), c.APIServer.Requests()
	start := time.Now()
	if _, err := c.Kubectl.Apply(ctx, []byte(benchDeploymentManifest("bench", replicas, "nginx:1.25", "10m", "16Mi"))); err != nil {
		return res, err
	}
	available := func() (bool, error) {
		d, err := sim.Get[api.Deployment](ctx, c, "default", "bench")
		return err == nil && d.Status.AvailableReplicas == int32(replicas), err
	}
	if err := pollUntil(ctx, 10*time.Minute, available); err != nil {
		return res, fmt.Errorf("deployment never became available: %w", err)
	}
	res.Wall = time.Since(start)
	statsAfter := c.Store.Stats()
	res.EtcdWrites, res.WrittenBytes = statsAfter.Writes-statsBefore.Writes, statsAfter.WrittenBytes-statsBefore.WrittenBytes
	// The raw rate of values the writes' mean size, on the same etcd, its cluster still running.
	raw, err = rawCreates(ctx, c.Store, rawOps, 16, nil, "/bench/sized", paddedJSON(res.MeanWrite()))
	if err != nil {
		return res, err
	}
	res.RawPerSecond = rawOps / raw.Seconds()
	res.Writes = writeCounts(requestsBefore, c.APIServer.Requests())
	if res.Events, err = eventsByReason(ctx, c); err != nil {
		return res, err
	}
	for reason, n := range eventsBefore {
		if res.Events[reason] -= n; res.Events[reason] <= 0 {
			delete(res.Events, reason)
		}
	}
	return res, nil
}

// paddedJSON is a JSON object of size bytes (or the smallest there is, if size is smaller).
func paddedJSON(size int) []byte {
	const open, closing = `{"bench":"`, `"}`
	return []byte(open + strings.Repeat("x", max(size-len(open)-len(closing), 0)) + closing)
}

// benchDeploymentManifest is a Deployment of one container with the given requests.
func benchDeploymentManifest(name string, replicas int, image, cpu, memory string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s}
spec:
  replicas: %[2]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers:
      - {name: app, image: %[3]q, resources: {requests: {cpu: %[4]s, memory: %[5]s}}}
`, name, replicas, image, cpu, memory)
}

func benchDeployment(ctx context.Context, o Options) ([]Figure, error) {
	var figures []Figure
	for _, replicas := range []int{3, 1000, 10000} {
		o.progress("deployment of %d replicas ...", replicas)
		r, err := Deployment(ctx, replicas)
		if err != nil {
			return figures, err
		}
		o.progress("%s", r)
		cond := map[string]any{"replicas": r.Replicas, "nodes": r.Nodes}
		floor := &Baseline{Name: fmt.Sprintf("its etcd writes at the raw put rate of %d-byte values", r.MeanWrite()), Value: r.Floor().Seconds(), Unit: "s"}
		small := &Baseline{Name: "its etcd writes at the raw put rate of 14-byte values", Value: r.SmallFloor().Seconds(), Unit: "s"}
		figures = append(figures,
			Figure{Name: "deployment/available", Value: r.Wall.Seconds(), Unit: "s", Conditions: cond, Baseline: floor},
			Figure{Name: "deployment/over-floor", Value: r.Wall.Seconds() / r.Floor().Seconds(), Unit: "x floor", Conditions: cond, Baseline: floor},
			Figure{Name: "deployment/over-small-floor", Value: r.Wall.Seconds() / r.SmallFloor().Seconds(), Unit: "x floor", Conditions: cond, Baseline: small},
			Figure{Name: "deployment/writes-per-pod", Value: float64(r.EtcdWrites) / float64(r.Replicas), Unit: "writes/pod", Conditions: cond})
	}
	return figures, nil
}
