package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The matching rules of https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors.
func TestSelectorMatchesAsKubernetesDefines(t *testing.T) {
	web := Set{"app": "web", "tier": "frontend", "env": ""}
	for _, tc := range []struct {
		selector string
		want     bool
	}{
		{"", true},
		{"app=web", true},
		{"app==web", true},
		{"app=db", false},
		{"app!=db", true},
		{"app!=web", false},
		{"tier in (frontend,backend)", true},
		{"tier in (backend)", false},
		{"tier notin (backend)", true},
		{"tier notin (frontend)", false},
		{"app", true},
		{"!app", false},
		{"canary", false},
		{"!canary", true},
		// A missing label passes the negative operators and fails the
		// positive ones.
		{"canary notin (true)", true},
		{"canary in (true)", false},
		{"canary!=true", true},
		{"canary=true", false},
		// An empty value matches a label whose value is "" (but not a
		// missing label).
		{"env=", true},
		{"env in ()", true},
		{"canary=", false},
		{"env in (,x)", true},
		// Requirements are ANDed.
		{"app=web,tier=frontend", true},
		{"app=web,tier=backend", false},
		{"app=web,!canary,tier notin (backend)", true},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := Parse(tc.selector)
			require.NoError(t, err)
			assert.Equal(t, tc.want, s.Matches(web))
		})
	}
}

func TestGreaterThanAndLessThanCompareIntegers(t *testing.T) {
	s, err := Parse("replicas>2,replicas<10")
	require.NoError(t, err)
	assert.True(t, s.Matches(Set{"replicas": "5"}))
	assert.False(t, s.Matches(Set{"replicas": "2"}))
	assert.False(t, s.Matches(Set{"replicas": "many"}))
	assert.False(t, s.Matches(Set{}))
	assert.Equal(t, "replicas>2,replicas<10", s.String())

	_, err = Parse("replicas>two")
	assert.EqualError(t, err, `unable to parse requirement: values[0]: Invalid value: "two": for 'Gt', 'Lt' operators, the value must be an integer`)
}

func TestSelectorStringIsCanonicalAndRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", ""},
		{"b=2,a=1", "a=1,b=2"},
		{"a==1", "a==1"},
		{" a  in ( z , y , z ) ", "a in (y,z)"},
		{"x notin (b,a),!y,z", "x notin (a,b),!y,z"},
		{"a!=", "a!="},
		{"k in (in,notin)", "k in (in,notin)"},
		{"example.com/app=web", "example.com/app=web"},
		{"a in (,x)", "a in (,x)"},
		{"a in ()", "a in ()"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			s, err := Parse(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, s.String())

			again, err := Parse(s.String())
			require.NoError(t, err)
			assert.Equal(t, s.String(), again.String())
			assert.Equal(t, s.Requirements(), again.Requirements())
		})
	}
}

func TestParseErrorsNameTheTokenAndPosition(t *testing.T) {
	for _, tc := range []struct {
		in, err string
	}{
		{"a=b,", "found '', expected: identifier after ',' (at position 5)"},
		{",a", "found ',', expected: !, identifier, or 'end of string' (at position 1)"},
		{"a=b c", "found 'c', expected: ',' or 'end of string' (at position 5)"},
		{"a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt (at position 3)"},
		{"a in x", "unable to parse requirement: found 'x' expected: '(' (at position 6)"}, // sic: no comma, as in Kubernetes
		{"a in (,,)", "unable to parse requirement: found ')', expected: ',', or identifier (at position 9)"},
		{"a in (x", "unable to parse requirement: found '', expected: ',' or ')' (at position 8)"},
		{"a in (x y)", "unable to parse requirement: found 'y', expected: ',' or ')' (at position 9)"},
		{"a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier (at position 7)"},
		{"a==(", "unable to parse requirement: found '(', expected: identifier (at position 4)"},
		{"!", "unable to parse requirement: found '', expected: identifier (at position 2)"},
		{"!a=b", "found '=', expected: ',' or 'end of string' (at position 3)"},
		{"a=b=c", "found '=', expected: ',' or 'end of string' (at position 4)"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			s, err := Parse(tc.in)
			assert.Nil(t, s)
			assert.EqualError(t, err, tc.err)
		})
	}
}

// "in" and "notin" are operators only where an operator is expected; as a
// key or a value they are words like any other.
func TestParseAcceptsInAndNotinAsKeysAndValues(t *testing.T) {
	s, err := Parse("in in (in),notin notin (notin),!in")
	require.NoError(t, err)
	assert.Equal(t, "in in (in),!in,notin notin (notin)", s.String())
	assert.True(t, mustParse(t, "in=x").Matches(Set{"in": "x"}))
}

func mustParse(t *testing.T, selector string) Selector {
	t.Helper()
	s, err := Parse(selector)
	require.NoError(t, err)
	return s
}

// Kubernetes reports every broken rule of a requirement at once, with the
// label key in the path of a bad value.
func TestParseReportsEveryProblemOfARequirement(t *testing.T) {
	_, err := Parse("a>-x")
	assert.EqualError(t, err, `unable to parse requirement: [values[0]: Invalid value: "-x": for 'Gt', 'Lt' operators, the value must be an integer, `+
		`values[0][a]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`)
}

func TestParseValidatesKeysAndValues(t *testing.T) {
	_, err := Parse("a b c=d")
	assert.Error(t, err)

	_, err = Parse("-app=web")
	assert.EqualError(t, err, `unable to parse requirement: <nil>: Invalid value: "-app": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`)

	_, err = Parse("app=web@")
	assert.ErrorContains(t, err, `values[0][app]: Invalid value: "web@": a valid label must be an empty string or consist of alphanumeric characters`)

	_, err = Parse("app in (ok,bad_)")
	assert.ErrorContains(t, err, `Invalid value: "bad_"`)
}

func TestSelectorFromSetRequiresEveryLabel(t *testing.T) {
	s := Set{"tier": "frontend", "app": "web"}.AsSelector()
	assert.Equal(t, "app=web,tier=frontend", s.String())
	assert.True(t, s.Matches(Set{"app": "web", "tier": "frontend", "extra": "x"}))
	assert.False(t, s.Matches(Set{"app": "web"}))
	assert.True(t, SelectorFromSet(nil).Empty())
	assert.True(t, SelectorFromSet(nil).Matches(Set{}))
}

func TestEverythingAndNothing(t *testing.T) {
	assert.True(t, Everything().Empty())
	assert.True(t, Everything().Matches(Set{"a": "b"}))
	assert.Equal(t, "", Everything().String())

	assert.False(t, Nothing().Empty())
	assert.False(t, Nothing().Matches(Set{}))
	assert.Empty(t, Nothing().Requirements())
}

func TestSelectorFromLabelSelectorCombinesLabelsAndExpressions(t *testing.T) {
	s, err := SelectorFromLabelSelector(
		map[string]string{"app": "web"},
		[]Expression{
			{Key: "tier", Operator: "In", Values: []string{"frontend", "cache"}},
			{Key: "env", Operator: "NotIn", Values: []string{"dev"}},
			{Key: "team", Operator: "Exists"},
			{Key: "canary", Operator: "DoesNotExist"},
		})
	require.NoError(t, err)
	assert.Equal(t, "app=web,!canary,env notin (dev),team,tier in (cache,frontend)", s.String())
	assert.True(t, s.Matches(Set{"app": "web", "tier": "cache", "team": "a"}))
	assert.False(t, s.Matches(Set{"app": "web", "tier": "cache", "team": "a", "canary": "1"}))

	empty, err := SelectorFromLabelSelector(nil, nil)
	require.NoError(t, err)
	assert.True(t, empty.Empty())
}

func TestSelectorFromLabelSelectorRejectsBadExpressions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		exprs  []Expression
		err    string
	}{
		{"unknown operator", nil, []Expression{{Key: "a", Operator: "Equals", Values: []string{"b"}}},
			`"Equals" is not a valid label selector operator`},
		{"in without values", nil, []Expression{{Key: "a", Operator: "In"}},
			`values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{"exists with values", nil, []Expression{{Key: "a", Operator: "Exists", Values: []string{"b"}}},
			`values: Invalid value: ["b"]: values set must be empty for exists and does not exist`},
		{"bad key", map[string]string{"a/b/c": "x"}, nil,
			`key: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SelectorFromLabelSelector(tc.labels, tc.exprs)
			assert.EqualError(t, err, tc.err)
		})
	}
}

func TestNewRequirementRejectsUnknownOperator(t *testing.T) {
	_, err := NewRequirement("a", Operator("~"), nil)
	assert.EqualError(t, err, `operator: Unsupported value: "~": supported values: "in", "notin", "=", "==", "!=", "exists", "!", "gt", "lt"`)

	_, err = NewRequirement("a", Equals, []string{"x", "y"})
	assert.ErrorContains(t, err, "exact-match compatibility requires one single value")
}

func TestRequirementAccessors(t *testing.T) {
	r, err := NewRequirement("tier", In, []string{"b", "a", "b"})
	require.NoError(t, err)
	assert.Equal(t, "tier", r.Key())
	assert.Equal(t, In, r.Operator())
	assert.Equal(t, []string{"a", "b"}, r.Values())
	assert.Equal(t, "tier in (a,b)", r.String())
}

func TestMatchesDoesNotAllocate(t *testing.T) {
	s, err := Parse("app=web,tier in (a,b,frontend),canary notin (true),!legacy,team")
	require.NoError(t, err)
	var ls Labels = Set{"app": "web", "tier": "frontend", "team": "x"}
	allocs := testing.AllocsPerRun(100, func() {
		if !s.Matches(ls) {
			t.Fatal("expected a match")
		}
	})
	assert.Zero(t, allocs)
}

// Random strings over the selector alphabet either parse to a selector whose
// String parses back to the same selector, or give an error; never a panic.
func TestParseNeverPanicsOnArbitraryInput(t *testing.T) {
	alphabet := []string{"a", "b", "x.io/", "=", "==", "!=", "!", "in", "notin", "(", ")", ",", " ", ">", "<", "1", "-", "_", "é"}
	seed := uint64(7)
	next := func() uint64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return seed >> 33
	}
	for range 20000 {
		var in string
		for n := next()%12 + 1; n > 0; n-- {
			in += alphabet[next()%uint64(len(alphabet))]
		}
		require.NotPanics(t, func() {
			s, err := Parse(in)
			if err != nil {
				return
			}
			again, err := Parse(s.String())
			require.NoError(t, err, "String %q of %q", s.String(), in)
			require.Equal(t, s.String(), again.String())
			s.Matches(Set{"a": "b", "b": "1"})
		}, "input %q", in)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a=b", "a in (x,y),!b", "x notin ()", "a>1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		again, err := Parse(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%q printed as %q, which parses to %v, %v", in, s.String(), again, err)
		}
	})
}

// Kubernetes checks matchLabels before matchExpressions, so a bad label is the one reported.
func TestSelectorFromLabelSelectorChecksMatchLabelsFirst(t *testing.T) {
	_, err := SelectorFromLabelSelector(map[string]string{"a": "-bad"}, []Expression{{Key: "b", Operator: "Sometimes"}})
	assert.ErrorContains(t, err, `values[0][a]: Invalid value: "-bad"`)
}
