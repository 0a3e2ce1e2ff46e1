// bench_e2e_test.go: SchedulingBasic end to end: the same shape as bench_test.go, but the pods are
// created through the apiserver (into etcd) before the scheduler starts, and it binds them through
// the apiserver, in real time with every goroutine it would have in a cluster. pods/s is measured
// from the first binding to the last, as the informer sees them.
package scheduler_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/scheduler"
	"kubesim/sim"
	"kubesim/wire"
)

func benchmarkEndToEnd(b *testing.B, numNodes, numPods int) {
	ctx := context.Background()
	var rate float64
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		admin := c.Kubectl.Client()
		alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("32Gi"),
			resource.ResourcePods: resource.MustParse("110")}
		for i := 0; i < numNodes; i++ {
			name := fmt.Sprintf("node-%05d", i)
			if _, err := client.For[api.Node](admin).Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
				Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}}); err != nil {
				b.Fatal(err)
			}
		}
		for i := 0; i < numPods; i++ {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), Namespace: "default"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10",
					Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m"),
						resource.ResourceMemory: resource.MustParse("500Mi")}}}}}}
			if _, err := client.For[api.Pod](admin).Create(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
		_, rv, err := client.For[api.Pod](admin).List(ctx, "default", client.ListOptions{LabelSelector: "none=none"})
		if err != nil {
			b.Fatal(err)
		}
		w, err := client.For[api.Pod](admin).Watch(ctx, "default", client.ListOptions{ResourceVersion: rv})
		if err != nil {
			b.Fatal(err)
		}
		s, err := scheduler.New(scheduler.Options{Client: c.Client(scheduler.Identity, "kube-scheduler"), Clock: c.Clock, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := c.Add(ctx, s); err != nil {
			b.Fatal(err)
		}
		var first, last time.Time
		bound := 0
		wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		for bound < numPods {
			ev, ok := w.Next(wctx)
			if !ok {
				b.Fatalf("watch ended after %d bindings", bound)
			}
			if p, isPod := ev.Object.(*api.Pod); ev.Type == wire.Modified && isPod && p.Spec.NodeName != "" && condition(p, api.PodScheduled) != nil {
				if bound == 0 {
					first = time.Now()
				}
				bound++
				last = time.Now()
			}
		}
		cancel()
		b.StopTimer()
		w.Stop()
		rate = float64(numPods-1) / last.Sub(first).Seconds()
		c.Close()
	}
	b.ReportMetric(rate, "pods/s")
}

func BenchmarkSchedulingBasicEndToEnd(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		b.Run(fmt.Sprintf("%dNodes/%dPods", size.nodes, size.pods), func(b *testing.B) {
			benchmarkEndToEnd(b, size.nodes, size.pods)
		})
	}
}
