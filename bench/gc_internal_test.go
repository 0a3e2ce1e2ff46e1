package bench

import (
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
