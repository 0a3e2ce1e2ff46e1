package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/bench"
)

func TestBenchRefusesWhatItCannotRunBeforeStarting(t *testing.T) {
	code, _, errOut := kubesim("bench", "create-path", "nosuch")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `kubesim bench: unknown benchmark "nosuch"; there are:`)
	for _, b := range bench.Benchmarks {
		assert.Contains(t, errOut, b.Name, "the refusal lists every benchmark")
	}
	code, _, errOut = kubesim("bench", "envelope", "--nodes", "5001")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--nodes must be 1..5000, not 5001")
	code, _, errOut = kubesim("bench", "envelope", "--pods", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--pods must be at least 1, not 0")
	code, _, errOut = kubesim("bench", "envelope", "--speed", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--speed must be 0.1..100 (how many times faster than the wall clock the envelope's cluster runs; 1 is real time), not 0")
}

// The table puts each figure beside its baseline and its conditions, in a fixed order.
func TestBenchTableShowsBaselineAndConditions(t *testing.T) {
	var out bytes.Buffer
	printFigures(&out, []bench.Figure{
		{Name: "create-path/creates", Value: 13100.4, Unit: "creates/s", Conditions: map[string]any{"ops": 20000, "clients": 16},
			Baseline: &bench.Baseline{Name: "raw etcd put", Value: 31626, Unit: "puts/s"}},
		{Name: "envelope/peak-rss", Value: 1452.2, Unit: "MiB"},
	})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3)
	assert.Regexp(t, `^FIGURE\s+VALUE\s+BASELINE\s+CONDITIONS$`, lines[0])
	assert.Regexp(t, `^create-path/creates\s+13100 creates/s\s+31626 puts/s \(raw etcd put\)\s+clients=16 ops=20000$`, lines[1])
	assert.Regexp(t, `^envelope/peak-rss\s+1452 MiB\s+-\s*$`, lines[2])
}

// --cpuprofile is refused before anything runs when its file cannot be written, and otherwise
// leaves a profile that pprof can read.
func TestBenchCPUProfile(t *testing.T) {
	code, _, errOut := kubesim("bench", "envelope", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.pprof"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "kubesim bench: --cpuprofile: open ")
	assert.NotContains(t, errOut, "envelope:", "nothing ran")

	path := filepath.Join(t.TempDir(), "cpu.pprof")
	stop, err := startCPUProfile(path)
	require.NoError(t, err)
	stop()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(b), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "a profile is gzipped protobuf, as pprof reads it")
}
