package fields

// Fuzz targets for field selectors, beyond FuzzParseSelector (selector_test.go). `go test` runs the seeds in testdata/fuzz.

import (
	"testing"
	"unicode/utf8"
)

// FuzzPrintedFieldSelectorMatchesAlike: a selector ParseSelector accepts prints (values escaped) in a form that parses
// to a selector printing the same way and matching the same field sets.
func FuzzPrintedFieldSelectorMatchesAlike(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		printed := sel.String()
		back, err := ParseSelector(printed)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, printed, err)
		}
		// The printed form need not print the same again: like apimachinery's ParseSelector, parsing
		// sorts the terms as written, and a printed term can sort differently from its source
		// ("=00,==0" prints as "=00,=0", which sorts to "=0,=00"). What must hold is the meaning.
		sets := []Set{{}}
		for _, r := range sel.Requirements() {
			sets = append(sets, Set{r.Field: r.Value}, Set{r.Field: r.Value + "x"})
		}
		for _, set := range sets {
			if sel.Matches(set) != back.Matches(set) {
				t.Fatalf("%q and its printed form %q disagree on %v", s, printed, set)
			}
		}
	})
}

// FuzzEscapeValue: unescaping an escaped value gives the value back. Values are UTF-8: like
// Kubernetes' UnescapeValue, kubesim's reads runes, so an invalid byte comes back as U+FFFD.
func FuzzEscapeValue(f *testing.F) {
	f.Fuzz(func(t *testing.T, v string) {
		if !utf8.ValidString(v) {
			return
		}
		got, err := UnescapeValue(EscapeValue(v))
		if err != nil || got != v {
			t.Fatalf("%q escapes to %q, which unescapes to %q (%v)", v, EscapeValue(v), got, err)
		}
	})
}
