package trace_test

import (
	"fmt"
	"time"

	"kubesim/clock"
	"kubesim/trace"
)

// Events are numbered in order and stamped with the time since the trace started.
func ExampleRecorder() {
	clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	rec := trace.NewRecorder(clk, true)
	rec.Record(trace.Event{Component: "replicaset-controller", Action: "reconcile", Object: "replicasets/default/nginx-6d4cf56db6"}.
		Msgf("wants %d, has %d -> create %d pods", 3, 0, 3))
	clk.Advance(1500 * time.Millisecond)
	rec.Record(trace.Event{Component: "kubelet/node-2", Action: "sync"}.Msgf("started container %s", "nginx"))
	for _, e := range rec.Events() {
		fmt.Println(e.Seq, e.Time, e.Component, e.Message)
	}
	// Output:
	// 1 0s replicaset-controller wants 3, has 0 -> create 3 pods
	// 2 1.5s kubelet/node-2 started container nginx
}

// Each package keeps its own catalogue; the wiring merges them, a later one winning.
func ExampleMerge() {
	scheduler := trace.Catalog{"bind %s -> %s": "绑定 %s -> %s"}
	kubelet := trace.Catalog{"pulled %q in %s": "镜像 %q 拉取完成，用时 %s"}
	zh := trace.Merge(scheduler, kubelet)
	fmt.Println(len(zh), zh["bind %s -> %s"])
	// Output:
	// 2 绑定 %s -> %s
}
