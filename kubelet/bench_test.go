package kubelet_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

// BenchmarkKubelets runs many kubelets (KUBESIM_BENCH_NODES, default 1000) on one machine in real
// time on a sped-up clock, each renewing its Lease, reporting its status, relisting its runtime every
// second and running podsPerNode pods, and reports the heap per simulated node (HeapInuse over the
// node count: the apiserver, etcd and the runtimes included) and the CPU time per node per simulated
// minute, measured once every pod runs.
//
//	go test ./kubelet -run XXX -bench Kubelets -benchtime 1x
func BenchmarkKubelets(b *testing.B) {
	nodes := 1000
	if v, err := strconv.Atoi(os.Getenv("KUBESIM_BENCH_NODES")); err == nil && v > 0 {
		nodes = v
	}
	const (
		podsPerNode = 3
		// speed 20: a simulated minute in 3 wall seconds, which 2 cores sustain for 1,000 nodes.
		speed = 20
	)
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Speed: speed, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		adminPods := client.For[api.Pod](c.Kubectl.Client())
		setup := time.Now()
		for n := 1; n <= nodes; n++ {
			name := fmt.Sprintf("node-%d", n)
			cfg := kubelet.DefaultNodeConfig()
			cfg.PodCIDR = fmt.Sprintf("10.%d.%d.0/24", 64+n/256, n%256)
			crc := kubelet.NewCRIClock(c.Clock)
			rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: name, PodCIDR: cfg.PodCIDR})
			if err != nil {
				b.Fatal(err)
			}
			cl := c.Client("system:node:"+name, "kubelet/"+name, "system:nodes")
			k := kubelet.New(kubelet.Options{NodeName: name, Client: cl, Clock: c.Clock,
				Recorder: client.NewEventRecorder(cl, "kubelet", name, c.Clock, nil), Runtime: rt, RuntimeClock: crc, Config: cfg})
			if err := c.Add(ctx, k); err != nil {
				b.Fatal(err)
			}
			for i := range podsPerNode {
				if _, err := adminPods.Create(ctx, newPod(fmt.Sprintf("app-%d-%d", n, i), name, "nginx:1.25")); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Logf("%d kubelets and %d pods created in %s", nodes, nodes*podsPerNode, time.Since(setup).Round(time.Millisecond))
		// Every pod running.
		deadline := time.Now().Add(5 * time.Minute)
		for {
			pods, _, err := adminPods.List(ctx, "default", client.ListOptions{})
			if err != nil {
				b.Fatal(err)
			}
			started := 0
			for _, p := range pods {
				if p.Status.Phase == api.PodRunning {
					started++
				}
			}
			if started == nodes*podsPerNode {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("only %d of %d pods running", started, nodes*podsPerNode)
			}
			time.Sleep(100 * time.Millisecond)
		}
		b.Logf("every pod running after %s", time.Since(setup).Round(time.Millisecond))
		// Steady state: measure one simulated minute.
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		cpu0 := cpuTime()
		simStart := c.Clock.Now()
		time.Sleep(time.Minute / speed)
		cpu := cpuTime() - cpu0
		simulated := c.Clock.Since(simStart)
		b.ReportMetric(float64(ms.HeapInuse)/float64(nodes)/(1<<20), "MiB/node")
		b.ReportMetric(float64(cpu.Milliseconds())/float64(nodes)/simulated.Minutes(), "cpu-ms/node/sim-min")
		cancel()
		c.Close()
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
