package bench_test

import (
	"context"
	"fmt"
	"testing"

	"kubesim/bench"
)

// BenchmarkCreatePathVersusRawPut: the create path through every apiserver gate against raw etcd
// creates of the pod it stores (and of the smaller JSON it sends) in the same run, at 16 clients.
// The ratio is the metric; the absolute rates depend on the machine.
func BenchmarkCreatePathVersusRawPut(b *testing.B) {
	results, err := bench.CreatePath(context.Background(), max(b.N, 100), 16)
	if err != nil {
		b.Fatal(err)
	}
	res := results[0]
	b.ReportMetric(res.RawPerSecond, "raw-puts/s")
	b.ReportMetric(res.CreatesPerSecond, "creates/s")
	b.ReportMetric(res.Ratio(), "pipeline/raw")
	b.ReportMetric(res.SmallRatio(), "pipeline/raw-sent-size")
	b.ReportMetric(res.WatchedRatio(), "pipeline/raw-watched")
	b.ReportMetric(res.WatchedCPU, "cpu-µs/watched-put")
	b.ReportMetric(res.CreateBytes, "B/create")
	b.ReportMetric(res.CreateAllocs, "allocs/create")
	b.ReportMetric(res.RawBytes, "B/put")
	b.ReportMetric(res.RawAllocs, "allocs/put")
	b.ReportMetric(res.CreateCPU, "cpu-µs/create")
	b.ReportMetric(res.RawCPU, "cpu-µs/put")
}

// BenchmarkDeployment: a Deployment of 1,000 and of 10,000 replicas reaching all-available, reported
// against the etcd writes it needed and the raw etcd write rate measured in the same run. The 10,000
// one takes minutes: -bench 'Deployment/replicas=1000$' runs only the small one.
func BenchmarkDeployment(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) { benchDeployment(b, n) })
	}
}

func benchDeployment(b *testing.B, replicas int) {
	for i := 0; i < b.N; i++ {
		res, err := bench.Deployment(context.Background(), replicas)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.Wall.Seconds(), "s-to-available")
		b.ReportMetric(float64(res.EtcdWrites)/float64(replicas), "etcd-writes/pod")
		b.ReportMetric(res.WritesPerSecond()/res.RawPerSecond, "write-rate/raw")
		b.ReportMetric(res.Wall.Seconds()/res.Floor().Seconds(), "x-floor")
		b.Log(res)
	}
}
