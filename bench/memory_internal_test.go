package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A reading splits the process's memory the way the kernel and the Go runtime count it: on Linux the
// resident set is its anonymous and file-backed parts, and the runtime's heap classes add up to no
// more than what it has mapped.
func TestReadMemorySplitsResidentAndHeap(t *testing.T) {
	keep := make([]byte, 8<<20)
	for i := range keep {
		keep[i] = 1
	}
	runtime.GC()
	s := readMemory()
	runtime.KeepAlive(keep)

	assert.GreaterOrEqual(t, s.HeapLive, int64(8<<20), "the 8 MiB slice is live")
	assert.GreaterOrEqual(t, s.HeapObjects, int64(8<<20))
	assert.Greater(t, s.HeapGoal, s.HeapLive)
	assert.Greater(t, s.Stacks, int64(0))
	if runtime.GOOS == "linux" {
		assert.Equal(t, s.RSS, s.RSSAnon+s.RSSFile, "VmRSS is RssAnon + RssFile + RssShmem")
		assert.GreaterOrEqual(t, s.RSSAnon, int64(8<<20), "the slice's pages were touched")
	}
}

// The sampler keeps the reading taken when the process was largest, and the largest live heap of
// any reading, which need not be the same one.
func TestMemorySamplerKeepsThePeak(t *testing.T) {
	m := startMemorySampler(time.Hour) // one reading now; the test feeds the rest
	m.observe(MemorySample{RSS: 1 << 40, HeapLive: 10})
	m.observe(MemorySample{RSS: 1 << 20, HeapLive: 1 << 41})
	peak, maxLive := m.Stop()
	assert.Equal(t, int64(1<<40), peak.RSS)
	assert.Equal(t, int64(10), peak.HeapLive)
	assert.Equal(t, int64(1<<41), maxLive)
	again, _ := m.Stop()
	assert.Equal(t, peak, again, "a second Stop only reads")
}
