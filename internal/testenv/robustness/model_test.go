package robustness

import (
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"
)

func op(client int, in Input, call, ret int64, out Output) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret}
}

// The checker is only worth something if it can say no: a read that returns the value an earlier,
// completed update replaced is not linearizable.
func TestModelRejectsAStaleRead(t *testing.T) {
	history := []porcupine.Operation{
		op(0, Input{Op: Create, Key: "a", Value: "x"}, 0, 1, Output{Status: OK, Value: "x", RV: 5}),
		op(0, Input{Op: Update, Key: "a", Value: "y", RV: 5}, 2, 3, Output{Status: OK, Value: "y", RV: 6}),
		op(1, Input{Op: Get, Key: "a"}, 4, 5, Output{Status: OK, Value: "x", RV: 5}),
	}
	require.False(t, porcupine.CheckOperations(Model, history))
	history[2].Call = 2 // the read overlaps the update: it may be ordered before it
	require.True(t, porcupine.CheckOperations(Model, history))
}

// A write without an answer may have happened or not; a read decides, and a read of a value nobody
// wrote is still refused.
func TestModelUnknownWritesHappenedOrNot(t *testing.T) {
	const never = 1 << 62
	created := op(0, Input{Op: Create, Key: "a", Value: "x"}, 0, 1, Output{Status: OK, Value: "x", RV: 5})
	lost := op(1, Input{Op: Update, Key: "a", Value: "y", RV: 5}, 2, never, Output{Status: Unknown})
	for _, tc := range []struct {
		name string
		read Output
		ok   bool
	}{
		{"it happened", Output{Status: OK, Value: "y", RV: 9}, true},
		{"it did not", Output{Status: OK, Value: "x", RV: 5}, true},
		{"nobody wrote z", Output{Status: OK, Value: "z", RV: 9}, false},
		{"it happened at an older revision", Output{Status: OK, Value: "y", RV: 4}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			history := []porcupine.Operation{created, lost, op(2, Input{Op: Get, Key: "a"}, 3, 4, tc.read)}
			require.Equal(t, tc.ok, porcupine.CheckOperations(Model, history))
		})
	}
}

// A delete has no preconditions: Kubernetes retries it on a concurrent write, so a 409 is a bug.
func TestModelRefusesADeleteConflict(t *testing.T) {
	history := []porcupine.Operation{
		op(0, Input{Op: Create, Key: "a", Value: "x"}, 0, 1, Output{Status: OK, Value: "x", RV: 5}),
		op(1, Input{Op: Delete, Key: "a"}, 2, 3, Output{Status: Conflict}),
	}
	require.False(t, porcupine.CheckOperations(Model, history))
}
