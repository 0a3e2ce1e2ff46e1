// model.go: the sequential specification porcupine checks histories against: one register per key,
// whose writes are compare-and-swaps on resourceVersion and whose resourceVersions only grow (they
// are etcd revisions). An operation whose answer never came (Unknown: a timeout, a connection cut
// while a member or the leader died) may or may not have taken effect, so the model is
// nondeterministic: both states follow it, and a later read tells which one was true.
package robustness

import (
	"fmt"
	"maps"
	"slices"

	"github.com/anishathalye/porcupine"
)

// The operations and the answers a register knows.
const (
	Get    = "get"
	Create = "create"
	Update = "update"
	Delete = "delete"

	OK       = "ok"
	NotFound = "notFound"
	Exists   = "exists"
	Conflict = "conflict"
	Unknown  = "unknown" // no answer: the operation may or may not have happened
)

// Input is one operation on a key. Inputs and outputs are comparable values, so that porcupine can
// memoise states.
type Input struct {
	Op    string
	Key   string
	Value string // create, update: the value written (unique in a history)
	RV    int64  // update: the resourceVersion the write is conditional on
}

// Output is an operation's answer: the object's value and resourceVersion when Status is OK (for a
// delete, those of the object it removed, or none when the answer does not say).
type Output struct {
	Status string
	Value  string
	RV     int64
}

// unknownRV is the resourceVersion of a value an Unknown write left, until a read tells it.
const unknownRV = -1

type state struct {
	exists bool
	value  string
	rv     int64
	last   int64 // the highest resourceVersion known for the key: a new write's must be higher
}

// holds says whether a state's resourceVersion may be rv.
func (s state) holds(rv int64) bool { return s.rv == rv || s.rv == unknownRV && rv > s.last }

// Model is the register per key, partitioned by key.
var Model = (&porcupine.NondeterministicModel{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range history {
			k := op.Input.(Input).Key
			byKey[k] = append(byKey[k], op)
		}
		var out [][]porcupine.Operation
		for _, k := range slices.Sorted(maps.Keys(byKey)) {
			out = append(out, byKey[k])
		}
		return out
	},
	Init: func() []any { return []any{state{}} },
	Step: func(st, input, output any) []any {
		s, in, out := st.(state), input.(Input), output.(Output)
		if out.Status == Unknown {
			return stepUnknown(s, in)
		}
		if ok, next := step(s, in, out); ok {
			return []any{next}
		}
		return nil
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(Input), output.(Output)
		return fmt.Sprintf("%s %s %s@%d -> %s %s@%d", in.Op, in.Key, in.Value, in.RV, out.Status, out.Value, out.RV)
	},
	DescribeState: func(st any) string {
		s := st.(state)
		if !s.exists {
			return fmt.Sprintf("absent (last rv %d)", s.last)
		}
		return fmt.Sprintf("%s@%d", s.value, s.rv)
	},
}).ToModel()

// step is an answered operation: whether it is possible in s, and the state after it.
func step(s state, in Input, out Output) (bool, state) {
	written := state{exists: true, value: in.Value, rv: out.RV, last: out.RV}
	switch in.Op + "/" + out.Status {
	case Get + "/" + OK:
		if !s.exists || out.Value != s.value || !s.holds(out.RV) {
			return false, s
		}
		s.rv, s.last = out.RV, max(s.last, out.RV)
		return true, s
	case Get + "/" + NotFound, Update + "/" + NotFound, Delete + "/" + NotFound:
		return !s.exists, s
	case Create + "/" + OK:
		return !s.exists && out.RV > s.last, written
	case Create + "/" + Exists:
		return s.exists, s
	case Update + "/" + OK:
		return s.exists && s.holds(in.RV) && out.RV > s.last && out.RV > in.RV, written
	case Update + "/" + Conflict:
		return s.exists && (s.rv != in.RV || s.rv == unknownRV), s
	case Delete + "/" + OK:
		if out.RV == 0 { // over HTTP the answer is a Status naming the object, not its last value
			return s.exists, state{last: max(s.last, s.rv)}
		}
		return s.exists && out.Value == s.value && s.holds(out.RV), state{last: max(s.last, out.RV)}
	}
	// Anything else (a delete that conflicts: it has no preconditions, so the apiserver retries it
	// itself) is not what a register does.
	return false, s
}

// stepUnknown is an operation without an answer: it happened or it did not.
func stepUnknown(s state, in Input) []any {
	next := []any{s}
	switch in.Op {
	case Create:
		if !s.exists {
			next = append(next, state{exists: true, value: in.Value, rv: unknownRV, last: s.last})
		}
	case Update:
		if s.exists && s.holds(in.RV) {
			next = append(next, state{exists: true, value: in.Value, rv: unknownRV, last: max(s.last, in.RV)})
		}
	case Delete:
		if s.exists {
			next = append(next, state{last: max(s.last, s.rv)})
		}
	}
	return next
}
