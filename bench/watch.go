// watch.go: watch fan-out. One watcher per node, each filtered by spec.nodeName as a kubelet's
// is, while pods bound to those nodes are created at a steady rate. Each pod carries the wall time of
// its create; its watcher subtracts that from the time it receives the event. The figures are the
// delivery latency's p50 and p99, and the process's CPU time per delivered event.
package bench

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
	"kubesim/wire"
)

// sentAnnotation carries a bench pod's create time (Unix nanoseconds, wall clock).
const sentAnnotation = "bench.kubesim.io/sent"

// WatchResult is one fan-out run.
type WatchResult struct {
	Watchers, Events int
	Rate             float64 // events per second the creates achieved
	P50, P99         float64 // milliseconds from the create to the watcher's receipt
	CPUPerEvent      time.Duration
}

func (r WatchResult) String() string {
	return fmt.Sprintf("watch: %d node-filtered watchers, %d pod creates at %.0f/s: delivery p50 %.2f ms, p99 %.2f ms; %s CPU per event",
		r.Watchers, r.Events, r.Rate, r.P50, r.P99, r.CPUPerEvent.Round(time.Microsecond))
}

// Watch opens watchers watches of pods, one per node name, and creates events pods spread over
// those nodes at rate per second.
func Watch(ctx context.Context, watchers, events int, rate float64) (WatchResult, error) {
	res := WatchResult{Watchers: watchers, Events: events}
	c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Seed: 1})
	if err != nil {
		return res, err
	}
	defer c.Close()
	admin := c.Kubectl.Client().Quiet()
	pods := client.For[api.Pod](admin)

	var (
		wg        sync.WaitGroup
		delivered atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, events)
	)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i := 0; i < watchers; i++ {
		w, err := pods.Watch(wctx, "", client.ListOptions{FieldSelector: "spec.nodeName=" + benchNodeName(i)})
		if err != nil {
			return res, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.Stop()
			var mine []time.Duration
			defer func() { mu.Lock(); latencies = append(latencies, mine...); mu.Unlock() }()
			for {
				ev, ok := w.Next(wctx)
				if !ok {
					return
				}
				p, isPod := ev.Object.(*api.Pod)
				if ev.Type != wire.Added || !isPod {
					continue
				}
				if sent, err := strconv.ParseInt(p.Annotations[sentAnnotation], 10, 64); err == nil {
					mine = append(mine, time.Since(time.Unix(0, sent)))
					delivered.Add(1)
				}
			}
		}()
	}

	// Eight clients create the pods, each op waiting for its turn so that the rate is steady.
	interval := time.Duration(float64(time.Second) / rate)
	cpu0, start := cpuTime(), time.Now()
	took, err := parallel(events, 8, nil, func(i int) error {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("churn-%d", i), Namespace: "default",
			Annotations: map[string]string{sentAnnotation: strconv.FormatInt(time.Now().UnixNano(), 10)}},
			Spec: api.PodSpec{NodeName: benchNodeName(i % watchers), Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10"}}}}
		_, err := pods.Create(ctx, p)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Rate = float64(events) / took.Seconds()
	if err := pollUntil(ctx, time.Minute, func() (bool, error) { return delivered.Load() == int64(events), nil }); err != nil {
		return res, fmt.Errorf("%d of %d events delivered: %w", delivered.Load(), events, err)
	}
	res.CPUPerEvent = (cpuTime() - cpu0) / time.Duration(events)
	cancel()
	wg.Wait()
	res.P50, res.P99 = quantile(latencies, 0.5), quantile(latencies, 0.99)
	return res, nil
}

func benchNodeName(i int) string { return fmt.Sprintf("node-%d", i+1) }

func benchWatch(ctx context.Context, o Options) ([]Figure, error) {
	watchers := o.Nodes
	if watchers == 0 {
		watchers = 5000
	}
	const events, rate = 10000, 1000
	r, err := Watch(ctx, watchers, events, rate)
	if err != nil {
		return nil, err
	}
	o.progress("%s", r)
	cond := map[string]any{"watchers": r.Watchers, "events": r.Events, "events/s": int(r.Rate)}
	return []Figure{
		{Name: "watch/delivery-p50", Value: r.P50, Unit: "ms", Conditions: cond},
		{Name: "watch/delivery-p99", Value: r.P99, Unit: "ms", Conditions: cond},
		{Name: "watch/cpu-per-event", Value: float64(r.CPUPerEvent) / float64(time.Microsecond), Unit: "CPU µs", Conditions: cond},
	}, nil
}
