package bench

import (
	"fmt"
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/sim"
)

// The benchmarks run under the GOGC and memory limit they are given (sim.GCPercent and the process's
// limit by default), and give the process its own back when they end.
func TestBenchmarksRunUnderTheirGCPolicyAndRestoreTheProcesss(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(250))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	restore := Options{GCPercent: 50, MemoryLimit: 3 << 30}.applyGC()
	assert.Equal(t, 50, debug.SetGCPercent(50))
	assert.Equal(t, int64(3<<30), debug.SetMemoryLimit(-1))
	restore()
	assert.Equal(t, 250, debug.SetGCPercent(250))
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))

	restore = Options{}.applyGC()
	assert.Equal(t, sim.GCPercent, debug.SetGCPercent(sim.GCPercent))
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "no limit asked: the process's stays")
	restore()
	assert.Equal(t, 250, debug.SetGCPercent(250))
}

// --memory-limit auto: the envelope runs under a limit sized from its nodes and pods, and gives the
// process its own limit back.
func TestEnvelopeRunsUnderALimitSizedFromTheCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a cluster")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	small, large := EnvelopeMemoryLimit(1, 3), EnvelopeMemoryLimit(100, 10000)
	assert.Less(t, small, large)
	assert.Greater(t, large, int64(10000*envelopeLivePerPod), "the limit leaves room above the pods' live heap")

	figures, err := benchEnvelope(t.Context(), Options{Nodes: 1, Pods: 3, AutoMemoryLimit: true, Speed: 2})
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, 2.0, figures[0].Conditions["speed"], "the cluster ran at the speed asked for")
	last := figures[len(figures)-1]
	assert.Equal(t, "envelope/etcd-db", last.Name)
	assert.Positive(t, last.Value, "etcd's database has a size")
	gc := debug.SetGCPercent(-1)
	debug.SetGCPercent(gc)
	assert.Equal(t, fmt.Sprintf("GOGC=%d GOMEMLIMIT=%dMiB", gc, small>>20), figures[0].Conditions["gc"])
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "the process's limit is back")
}
