package sim_test

import (
	"context"
	"testing"

	"kubesim/sim"
)

// BenchmarkCreatePathVersusRawPut: the create path through every apiserver gate against raw etcd puts
// in the same run, at 16 clients. The ratio is the metric; the absolute rates depend on the machine.
func BenchmarkCreatePathVersusRawPut(b *testing.B) {
	res, err := sim.BenchCreatePath(context.Background(), max(b.N, 100), 16)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(res.RawPerSecond, "raw-puts/s")
	b.ReportMetric(res.CreatesPerSecond, "creates/s")
	b.ReportMetric(res.Ratio(), "pipeline/raw")
}
