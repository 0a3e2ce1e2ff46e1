package script_test

// Fuzz targets for the scenario-file and condition languages, through their exported API only.
// `go test` runs the seeds in testdata/fuzz.

import (
	"testing"

	"kubesim/script"
)

// FuzzParseScenario: a scenario file never panics the parser; files it names are read from
// examples/scenarios, where the seeds' manifests are.
func FuzzParseScenario(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = script.Parse(data, "../examples/scenarios")
	})
}

// FuzzParseCondition: a condition ParseCondition accepts prints in a form that parses to a condition
// printing the same way.
func FuzzParseCondition(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		cond, err := script.ParseCondition(s)
		if err != nil {
			return
		}
		printed := cond.String()
		back, err := script.ParseCondition(printed)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, printed, err)
		}
		if back.String() != printed {
			t.Fatalf("%q prints as %q, which prints as %q", s, printed, back.String())
		}
	})
}
