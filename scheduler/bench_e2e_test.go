// bench_e2e_test.go: SchedulingBasic end to end, as `kubesim bench` measures it (bench.SchedulingBasic):
// the same shape as bench_test.go, but the pods are created through the apiserver (into etcd) before
// the scheduler starts, and it binds them through the apiserver, in real time with every goroutine it
// would have in a cluster. pods/s is measured from the first binding to the last, as a watch sees
// them; ns/op also counts creating the nodes and pods, so pods/s is the figure to read.
package scheduler_test

import (
	"context"
	"fmt"
	"testing"

	"kubesim/bench"
)

func BenchmarkSchedulingBasicEndToEnd(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 1000}, {5000, 10000}} {
		b.Run(fmt.Sprintf("%dNodes/%dPods", size.nodes, size.pods), func(b *testing.B) {
			var rate float64
			for n := 0; n < b.N; n++ {
				r, err := bench.SchedulingBasic(context.Background(), size.nodes, size.pods)
				if err != nil {
					b.Fatal(err)
				}
				rate = r
			}
			b.ReportMetric(rate, "pods/s")
		})
	}
}
