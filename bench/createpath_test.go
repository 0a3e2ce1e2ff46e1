package bench_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/bench"
)

// A short create-path run reports, for both loops, the CPU each operation cost the process and how
// many cores the loop kept busy: the figures that tell a CPU-bound ratio from a latency-bound one.
func TestCreatePathReportsCPUAndBusyCores(t *testing.T) {
	results, err := bench.CreatePath(context.Background(), 400, 4)
	require.NoError(t, err)
	require.Len(t, results, 1)
	r := results[0]
	assert.Equal(t, 4, r.Clients)
	for name, v := range map[string][2]float64{"raw": {r.RawCPU, r.RawCores}, "create": {r.CreateCPU, r.CreateCores}} {
		assert.Positive(t, v[0], "%s: µs of CPU per operation", name)
		assert.Positive(t, v[1], "%s: cores busy", name)
		// The process's CPU time over the loop's wall time: never more than the cores there are (a
		// little slack for getrusage's tick accounting).
		assert.LessOrEqual(t, v[1], float64(runtime.NumCPU())+0.5, "%s: cores busy", name)
	}
	assert.Contains(t, r.String(), "µs CPU each")
}
