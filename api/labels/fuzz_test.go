package labels

// Fuzz target for label selectors, beyond FuzzParse (selector_test.go). `go test` runs the seeds in testdata/fuzz.

import "testing"

// FuzzPrintedSelectorMatchesAlike: a selector Parse accepts prints in a form that parses to a selector printing the same
// way and matching the same label sets.
func FuzzPrintedSelectorMatchesAlike(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := Parse(s)
		if err != nil {
			return
		}
		printed := sel.String()
		back, err := Parse(printed)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, printed, err)
		}
		if back.String() != printed {
			t.Fatalf("%q prints as %q, which prints as %q", s, printed, back.String())
		}
		// Label sets built from the selector's own keys and values, and the empty set.
		sets := []Set{{}}
		for _, r := range sel.Requirements() {
			for _, v := range append([]string{""}, r.Values()...) {
				sets = append(sets, Set{r.Key(): v})
			}
		}
		for _, set := range sets {
			if sel.Matches(set) != back.Matches(set) {
				t.Fatalf("%q and its printed form %q disagree on %v", s, printed, set)
			}
		}
	})
}
