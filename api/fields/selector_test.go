package fields

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api/labels"
)

// https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors/
func TestParseSelectorMatches(t *testing.T) {
	pod := Set{"metadata.name": "web-0", "spec.nodeName": "node-1", "status.phase": "Running"}
	for _, tc := range []struct {
		selector string
		want     bool
	}{
		{"", true},
		{"spec.nodeName=node-1", true},
		{"spec.nodeName==node-1", true},
		{"spec.nodeName=node-2", false},
		{"spec.nodeName!=node-2", true},
		{"status.phase!=Running", false},
		{"spec.nodeName=node-1,status.phase=Running", true},
		{"spec.nodeName=node-1,status.phase!=Running", false},
		{"spec.nodeName=node-1,,", true},
		// An absent field reads as "".
		{"spec.schedulerName=", true},
		{"spec.schedulerName!=", false},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := ParseSelector(tc.selector)
			require.NoError(t, err)
			assert.Equal(t, tc.want, s.Matches(pod))
		})
	}
}

func TestParseSelectorUnescapesValues(t *testing.T) {
	for _, tc := range []struct {
		selector, field, value, canonical string
	}{
		{`a=x\,y`, "a", "x,y", `a=x\,y`},
		{`a=x\=y`, "a", "x=y", `a=x\=y`},
		{`a=x\\y`, "a", `x\y`, `a=x\\y`},
		{`a=b!c`, "a", "b!c", `a=b!c`},
		{`a==b`, "a", "b", `a=b`},
		{`a=`, "a", "", `a=`},
		{`=b`, "", "b", `=b`},
		{`a=\\\,\=`, "a", `\,=`, `a=\\\,\=`},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := ParseSelector(tc.selector)
			require.NoError(t, err)
			require.Len(t, s.Requirements(), 1)
			assert.Equal(t, Requirement{Operator: labels.Equals, Field: tc.field, Value: tc.value}, s.Requirements()[0])
			assert.True(t, s.Matches(Set{tc.field: tc.value}))
			assert.Equal(t, tc.canonical, s.String())

			again, err := ParseSelector(s.String())
			require.NoError(t, err)
			assert.Equal(t, s.Requirements(), again.Requirements())
		})
	}
}

func TestParseSelectorErrors(t *testing.T) {
	for _, tc := range []struct {
		selector, err string
	}{
		{"spec.nodeName", `invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'`},
		{"a=b,c", `invalid selector: 'a=b,c'; can't understand 'c'`},
		{"a=b=c", `invalid field selector: unescaped character in value: 61`},
		{"z,a=b,y", `invalid selector: 'z,a=b,y'; can't understand 'y'`}, // the first in sorted order
		{`a=b\n`, `invalid field selector: invalid escape sequence: \n`},
		{`a=b\!`, `invalid field selector: invalid escape sequence: \!`},
		{`a=b\`, `invalid field selector: invalid escape sequence: \`},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := ParseSelector(tc.selector)
			assert.Nil(t, s)
			assert.EqualError(t, err, tc.err)
		})
	}
}

func TestParseSelectorSortsTerms(t *testing.T) {
	s, err := ParseSelector("status.phase!=Failed,metadata.name=web-0")
	require.NoError(t, err)
	assert.Equal(t, "metadata.name=web-0,status.phase!=Failed", s.String())
	assert.Equal(t, []Requirement{
		{Operator: labels.Equals, Field: "metadata.name", Value: "web-0"},
		{Operator: labels.NotEquals, Field: "status.phase", Value: "Failed"},
	}, s.Requirements())
}

// The apiserver asks RequiresExactMatch("spec.nodeName") to decide whether a
// kubelet's watch can be served from the node-name index.
func TestRequiresExactMatchFindsOnlyEqualityTerms(t *testing.T) {
	for _, tc := range []struct {
		selector string
		value    string
		found    bool
	}{
		{"spec.nodeName=node-1", "node-1", true},
		{"spec.nodeName==node-1", "node-1", true},
		{"status.phase!=Failed,spec.nodeName=node-1", "node-1", true},
		{"spec.nodeName=", "", true},
		{"spec.nodeName!=node-1", "", false},
		{"metadata.name=node-1", "", false},
		{"", "", false},
		{`spec.nodeName=a\,b`, "a,b", true},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := ParseSelector(tc.selector)
			require.NoError(t, err)
			value, found := s.RequiresExactMatch("spec.nodeName")
			assert.Equal(t, tc.found, found)
			assert.Equal(t, tc.value, value)
		})
	}
}

func TestConstructors(t *testing.T) {
	assert.True(t, Everything().Empty())
	assert.True(t, Everything().Matches(Set{}))
	assert.Equal(t, "", Everything().String())

	one := OneTermEqualSelector("spec.nodeName", "a,b")
	assert.False(t, one.Empty())
	assert.Equal(t, `spec.nodeName=a\,b`, one.String())
	v, found := one.RequiresExactMatch("spec.nodeName")
	assert.True(t, found)
	assert.Equal(t, "a,b", v)

	set := Set{"spec.nodeName": "n1", "metadata.namespace": "default"}
	assert.Equal(t, "metadata.namespace=default,spec.nodeName=n1", set.String())
	assert.True(t, set.AsSelector().Matches(set))
	assert.False(t, set.AsSelector().Matches(Set{"spec.nodeName": "n1"}))
	assert.True(t, set.Has("spec.nodeName"))
	assert.False(t, set.Has("status.phase"))
}

func TestEscapeValueRoundTrips(t *testing.T) {
	for _, v := range []string{"", "plain", `a\b`, "a,b", "a=b", `\,=`, "ü=ö"} {
		escaped := EscapeValue(v)
		back, err := UnescapeValue(escaped)
		require.NoError(t, err, v)
		assert.Equal(t, v, back)
	}
}

func TestMatchesDoesNotAllocate(t *testing.T) {
	s, err := ParseSelector("spec.nodeName=node-1,status.phase!=Failed")
	require.NoError(t, err)
	var fs Fields = Set{"spec.nodeName": "node-1", "status.phase": "Running"}
	allocs := testing.AllocsPerRun(100, func() {
		if !s.Matches(fs) {
			t.Fatal("expected a match")
		}
		if _, found := s.RequiresExactMatch("spec.nodeName"); !found {
			t.Fatal("expected an exact match")
		}
	})
	assert.Zero(t, allocs)
}

func TestParseSelectorNeverPanicsOnArbitraryInput(t *testing.T) {
	alphabet := "ab.=!,\\ x"
	seed := uint64(3)
	next := func() uint64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return seed >> 33
	}
	for range 20000 {
		b := make([]byte, next()%14)
		for i := range b {
			b[i] = alphabet[next()%uint64(len(alphabet))]
		}
		in := string(b)
		require.NotPanics(t, func() {
			s, err := ParseSelector(in)
			if err != nil {
				return
			}
			again, err := ParseSelector(s.String())
			require.NoError(t, err, "String %q of %q", s.String(), in)
			// The terms may come back in another order: Kubernetes sorts them
			// as written, and "a==b" is printed "a=b".
			require.ElementsMatch(t, s.Requirements(), again.Requirements())
		}, "input %q", in)
	}
}

// sameTerms reports whether a and b hold the same terms in any order.
func sameTerms(a, b Selector) bool {
	key := func(s Selector) []string {
		var terms []string
		for _, r := range s.Requirements() {
			terms = append(terms, r.String())
		}
		slices.Sort(terms)
		return terms
	}
	return slices.Equal(key(a), key(b))
}

// Kubernetes drops a term with neither field nor value, so "a=b,!=" is a=b.
func TestParseSelectorDropsTermsWithoutFieldAndValue(t *testing.T) {
	for _, in := range []string{"a=b,!=", "a=b,=", "=,a=b,,"} {
		s, err := ParseSelector(in)
		require.NoError(t, err)
		assert.Equal(t, "a=b", s.String(), in)
	}
	s, err := ParseSelector("!=")
	require.NoError(t, err)
	assert.True(t, s.Empty())
	assert.True(t, s.Matches(Set{"a": "b"}))
}

func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"a=b", `a=b\,c,d!=e`, "a==b", `x=\\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSelector(in)
		if err != nil {
			return
		}
		again, err := ParseSelector(s.String())
		if err != nil || !sameTerms(s, again) {
			t.Fatalf("%q printed as %q, which parses to %v, %v", in, s.String(), again, err)
		}
	})
}
