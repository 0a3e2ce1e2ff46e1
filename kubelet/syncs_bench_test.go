package kubelet_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

// syncCounter counts the kubelet's pod syncs: each begins by listing the pod's sandboxes (the PLEG,
// housekeeping and the garbage collectors list them all, with no filter).
type syncCounter struct {
	*fakeruntime.Runtime
	syncs atomic.Int64
}

func (r *syncCounter) ListPodSandbox(ctx context.Context, f *fakeruntime.PodSandboxFilter) ([]*fakeruntime.PodSandbox, error) {
	if f != nil {
		r.syncs.Add(1)
	}
	return r.Runtime.ListPodSandbox(ctx, f)
}

// addCountedNode is addNode with the runtime behind a syncCounter.
func addCountedNode(t testing.TB, ctx context.Context, c *sim.Cluster) *syncCounter {
	t.Helper()
	crc := kubelet.NewCRIClock(c.Clock)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: "node-1", PodCIDR: "10.244.1.0/24", Trace: c.Trace})
	require.NoError(t, err)
	counted := &syncCounter{Runtime: rt}
	cfg := kubelet.DefaultNodeConfig()
	cfg.PodCIDR = "10.244.1.0/24"
	cl := c.Client("system:node:node-1", "kubelet/node-1", "system:nodes")
	k := kubelet.New(kubelet.Options{NodeName: "node-1", Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", "node-1", c.Clock, c.Trace), Runtime: counted, RuntimeClock: crc, Config: cfg})
	require.NoError(t, c.Add(ctx, k))
	return counted
}

// BenchmarkPodSyncs starts 100 pods on one node in step mode and keeps them running for 5 minutes
// of cluster time, and reports what the kubelet did per pod: its syncs (each an inspection of the
// pod in the runtime), its status writes, and the process's CPU time, for the first 30s (the pods
// start) and for the whole 5 minutes (with the pod workers' resyncs). Step mode makes the first two
// exact; compare the CPU with a baseline run in the same session.
//
//	go test ./kubelet -run XXX -bench PodSyncs -benchtime 1x
func BenchmarkPodSyncs(b *testing.B) {
	const pods = 100
	for range b.N {
		c, ctx := testenv.Cluster(b, testenv.Step)
		rt := addCountedNode(b, ctx, c)
		cpu0 := cpuTime()
		for i := range pods {
			if _, err := client.For[api.Pod](admin(c)).Create(ctx, newPod(fmt.Sprintf("app-%d", i), "node-1", "nginx:1.25")); err != nil {
				b.Fatal(err)
			}
		}
		start := c.Clock.Now()
		runFor := func(d time.Duration) {
			if err := c.Driver.RunUntil(ctx, "time passes", func() (bool, error) { return c.Clock.Since(start) >= d, nil }, 1_000_000); err != nil {
				b.Fatal(err)
			}
		}
		runFor(30 * time.Second) // every pod running (the image pull takes 3.3s)
		startSyncs, startCPU := rt.syncs.Load(), cpuTime()-cpu0
		runFor(5 * time.Minute)
		cpu := cpuTime() - cpu0
		writes := 0
		for _, e := range c.Trace.Events() {
			if e.Component == "kubelet/node-1" && e.Action == "status" && strings.HasPrefix(e.Object, "pods/") {
				writes++
			}
		}
		b.ReportMetric(float64(startSyncs)/pods, "start-syncs/pod")
		b.ReportMetric(float64(startCPU.Microseconds())/1000/pods, "start-cpu-ms/pod")
		b.ReportMetric(float64(rt.syncs.Load())/pods, "syncs/pod")
		b.ReportMetric(float64(writes)/pods, "status-writes/pod")
		b.ReportMetric(float64(cpu.Microseconds())/1000/pods, "cpu-ms/pod")
		c.Close()
	}
}

// BenchmarkSteadyNode is one node at steady state: 100 pods running, nothing changing. Each
// iteration is a minute of cluster time in step mode: about 100 periodic pod syncs (the pod
// workers' resync), 60 relists, 6 Lease renewals and node status checks, 12 runtime checks and 6
// housekeepings, none of which changes anything. It reports the CPU per pod per minute; compare with
// a baseline run in the same session.
//
//	go test ./kubelet -run XXX -bench SteadyNode
func BenchmarkSteadyNode(b *testing.B) {
	const pods = 100
	c, ctx := testenv.Cluster(b, testenv.Step)
	rt := addCountedNode(b, ctx, c)
	for i := range pods {
		if _, err := client.For[api.Pod](admin(c)).Create(ctx, newPod(fmt.Sprintf("app-%d", i), "node-1", "nginx:1.25")); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Driver.Advance(ctx, 2*time.Minute); err != nil { // running, statuses written, resyncs spread
		b.Fatal(err)
	}
	syncs0 := rt.syncs.Load()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		if err := c.Driver.Advance(ctx, time.Minute); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N)/pods, "cpu-µs/pod/min")
	b.ReportMetric(float64(rt.syncs.Load()-syncs0)/float64(b.N)/pods, "syncs/pod/min")
}
