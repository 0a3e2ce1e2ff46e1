package robustness_test

import (
	"fmt"

	"github.com/anishathalye/porcupine"

	"kubesim/internal/testenv/robustness"
)

// Two clients race to update the same Lease from resourceVersion 5; one wins, the other gets a 409.
// A third reads while both are in flight. porcupine finds an order that explains every answer; had
// the read returned a value nobody wrote, it would find none.
func Example() {
	op := func(client int, in robustness.Input, call, ret int64, out robustness.Output) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret}
	}
	history := []porcupine.Operation{
		op(0, robustness.Input{Op: robustness.Create, Key: "a", Value: "x"}, 0, 1, robustness.Output{Status: robustness.OK, Value: "x", RV: 5}),
		op(1, robustness.Input{Op: robustness.Update, Key: "a", Value: "y", RV: 5}, 2, 6, robustness.Output{Status: robustness.OK, Value: "y", RV: 7}),
		op(2, robustness.Input{Op: robustness.Update, Key: "a", Value: "z", RV: 5}, 2, 6, robustness.Output{Status: robustness.Conflict}),
		op(3, robustness.Input{Op: robustness.Get, Key: "a"}, 3, 4, robustness.Output{Status: robustness.OK, Value: "y", RV: 7}),
	}
	fmt.Println("linearizable:", porcupine.CheckOperations(robustness.Model, history))
	history[3].Output = robustness.Output{Status: robustness.OK, Value: "z", RV: 7}
	fmt.Println("with a read of z:", porcupine.CheckOperations(robustness.Model, history))
	// Output:
	// linearizable: true
	// with a read of z: false
}
