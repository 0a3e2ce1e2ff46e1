package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// kubesim chaos prints each fault, then what it injected and checked; the same seed prints the same.
func TestChaosPrintsWhatItInjectedAndChecked(t *testing.T) {
	code, out, errOut := kubesim("chaos", "--seed", "3", "--duration", "2m")
	assert.Equal(t, 0, code, errOut)
	for _, want := range []string{"chaos soak, seed 3, 2m0s of faults on 3 nodes", "faults injected: ", "invariants checked: ",
		"desired state reached", "violations: 0"} {
		assert.Contains(t, out, want)
	}
	_, again, _ := kubesim("chaos", "--seed", "3", "--duration", "2m")
	assert.Equal(t, out, again, "a seed replays exactly")

	code, out, _ = kubesim("chaos", "--seed", "3", "--duration", "2m", "--quiet")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "chaos soak, seed 3")
	assert.NotContains(t, out, "     3s  ", "--quiet prints no fault lines")

	code, _, errOut = kubesim("chaos", "--duration", "0s")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--duration must be positive")
	code, _, errOut = kubesim("chaos", "--nodes", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--nodes must be 1..5000")
}
