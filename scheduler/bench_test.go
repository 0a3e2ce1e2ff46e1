// bench_test.go: the scheduling algorithm's throughput, in the shape of scheduler_perf's
// SchedulingBasic (nodes with 4 cpu, 32Gi, 110 pods; pods requesting 100m cpu and 500Mi): the pods
// are all queued before the clock starts, and binding goes to a no-op binder, so what is measured is
// the queue, the cache and the plugins, with no apiserver. bench_e2e_test.go measures the same
// through the apiserver and etcd.
package scheduler

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/clock"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

type noopBinder struct{}

func (noopBinder) Name() string { return "NoopBinder" }
func (noopBinder) Bind(context.Context, *framework.CycleState, *api.Pod, string) *framework.Status {
	return nil
}

func perfNode(i int) *api.Node {
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("32Gi"),
		resource.ResourcePods: resource.MustParse("110")}
	name := fmt.Sprintf("node-%05d", i)
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
		Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}}
}

func perfPod(i int) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), Namespace: "default", UID: fmt.Sprintf("uid-%05d", i)},
		Spec: api.PodSpec{SchedulerName: api.DefaultSchedulerName, Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10",
			Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m"),
				resource.ResourceMemory: resource.MustParse("500Mi")}}}}}}
}

func benchmarkAlgorithm(b *testing.B, numNodes, numPods, parallelism int) {
	profile := plugins.DefaultProfile("")
	for i, ref := range profile.Plugins {
		if ref.Name == plugins.DefaultBinderName {
			profile.Plugins[i] = framework.PluginRef{Name: "NoopBinder"}
		}
	}
	ctx := context.Background()
	var rate float64
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		s, err := newScheduler(Options{Clock: clock.NewVirtual(time.Unix(0, 0)), Seed: 1, Profiles: []framework.Profile{profile},
			OutOfTreeRegistry: framework.Registry{"NoopBinder": func(framework.Handle) (framework.Plugin, error) { return noopBinder{}, nil }}})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range s.profiles {
			p.fwk.SetParallelism(parallelism)
		}
		for i := 0; i < numNodes; i++ {
			s.cache.AddNode(perfNode(i))
		}
		for i := 0; i < numPods; i++ {
			s.queue.Add(perfPod(i))
		}
		b.StartTimer()
		start := time.Now()
		for {
			pi, ok := s.queue.Pop()
			if !ok {
				break
			}
			s.scheduleOne(ctx, pi)
		}
		rate = float64(numPods) / time.Since(start).Seconds()
		if got := s.cache.PodCount(); got != numPods {
			b.Fatalf("%d pods assumed, want %d", got, numPods)
		}
	}
	b.ReportMetric(rate, "pods/s")
}

func BenchmarkSchedulingBasicAlgorithm(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		for _, par := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%dNodes/%dPods/parallelism-%d", size.nodes, size.pods, par), func(b *testing.B) {
				benchmarkAlgorithm(b, size.nodes, size.pods, par)
			})
		}
	}
}
