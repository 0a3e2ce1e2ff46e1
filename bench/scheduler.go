// scheduler.go: SchedulingBasic end to end, in the shape of upstream scheduler_perf (nodes with
// 4 cpu, 32Gi and 110 pods; pods requesting 100m cpu and 500Mi). The nodes and pods are created
// through the apiserver before kube-scheduler starts; it then binds every pod through the apiserver,
// and the rate is taken from the first binding to the last as a watch sees them. The algorithm alone
// (no apiserver) is scheduler's BenchmarkSchedulingBasicAlgorithm.
package bench

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/scheduler"
	"kubesim/sim"
	"kubesim/wire"
)

// SchedulingBasic returns the pods bound per second on a cluster of nodes nodes.
func SchedulingBasic(ctx context.Context, nodes, pods int) (float64, error) {
	c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Seed: 1})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	admin := c.Kubectl.Client().Quiet()
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("32Gi"),
		resource.ResourcePods: resource.MustParse("110")}
	for i := 0; i < nodes; i++ {
		name := fmt.Sprintf("node-%05d", i)
		if _, err := client.For[api.Node](admin).Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}}); err != nil {
			return 0, err
		}
	}
	requests := resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m"), resource.ResourceMemory: resource.MustParse("500Mi")}
	for i := 0; i < pods; i++ {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10",
				Resources: api.ResourceRequirements{Requests: requests}}}}}
		if _, err := client.For[api.Pod](admin).Create(ctx, p); err != nil {
			return 0, err
		}
	}
	_, rv, err := client.For[api.Pod](admin).List(ctx, "default", client.ListOptions{LabelSelector: "none=none"})
	if err != nil {
		return 0, err
	}
	w, err := client.For[api.Pod](admin).Watch(ctx, "default", client.ListOptions{ResourceVersion: rv})
	if err != nil {
		return 0, err
	}
	defer w.Stop()
	s, err := scheduler.New(scheduler.Options{Client: c.Client(scheduler.Identity, "kube-scheduler"), Clock: c.Clock, Seed: 1})
	if err != nil {
		return 0, err
	}
	if err := c.Add(ctx, s); err != nil {
		return 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var first, last time.Time
	for bound := 0; bound < pods; {
		ev, ok := w.Next(wctx)
		if !ok {
			return 0, fmt.Errorf("watch ended after %d bindings", bound)
		}
		if p, isPod := ev.Object.(*api.Pod); ev.Type == wire.Modified && isPod && p.Spec.NodeName != "" {
			if bound == 0 {
				first = time.Now()
			}
			bound++
			last = time.Now()
		}
	}
	return float64(pods-1) / last.Sub(first).Seconds(), nil
}

func benchScheduler(ctx context.Context, o Options) ([]Figure, error) {
	var figures []Figure
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		o.progress("scheduler: SchedulingBasic %d nodes / %d pods ...", size.nodes, size.pods)
		rate, err := SchedulingBasic(ctx, size.nodes, size.pods)
		if err != nil {
			return figures, err
		}
		o.progress("scheduler: SchedulingBasic %d nodes / %d pods: %.0f pods/s end to end", size.nodes, size.pods, rate)
		figures = append(figures, Figure{Name: "scheduler/end-to-end", Value: rate, Unit: "pods/s",
			Conditions: map[string]any{"nodes": size.nodes, "pods": size.pods, "workload": "SchedulingBasic"}})
	}
	return figures, nil
}
