// selector_test.go compares kubesim's label and field selectors with
// apimachinery's: the same selector text parsed by both (accepted or not,
// and with which error), printed back, and matched against a fixed family of
// label sets.
package difftest

import (
	"regexp"
	"strings"
	"testing"

	k8sfields "k8s.io/apimachinery/pkg/fields"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	simfields "kubesim/api/fields"
	simlabels "kubesim/api/labels"
)

// selectorWords are the pieces generated selectors are built from: keys,
// values, every operator and punctuation mark, the keywords in places they
// are words, escapes, and the odd characters a validator must refuse.
var selectorWords = []string{
	"a", "b", "app", "in", "notin", "x", "web", "1", "10", "-1", "example.com/tier", "a/b/c", "A_b.c",
	"=", "==", "!=", "!", "(", ")", ",", ">", "<", " ", "  ", "\t", "\\,", "\\=", "\\\\", "\\x", "",
	"app=web", "tier in (a,b)", "x notin ()", "!x", "in in (in)", ",", "=!", "<=", "Ä", strings.Repeat("k", 64),
	"spec.nodeName", "metadata.name", "status.phase=Running",
}

// labelSets are what each accepted label selector is matched against.
var labelSets = []map[string]string{
	{},
	{"a": "b"},
	{"app": "web", "in": "in"},
	{"x": "1", "a": ""},
	{"x": "10", "tier": "a", "example.com/tier": "b"},
	{"notin": "x", "in": "", "a": "b", "b": "-1"},
}

// selectorFrom builds selector text from fuzz bytes, one word per byte.
func selectorFrom(data []byte) string {
	var b strings.Builder
	for _, c := range data {
		b.WriteString(selectorWords[int(c)%len(selectorWords)])
	}
	return b.String()
}

// atPosition is the position kubesim adds to a label selector's syntax
// errors, which Kubernetes does not give.
var atPosition = regexp.MustCompile(` \(at position \d+\)`)

func compareLabelSelector(t *testing.T, s string) {
	t.Helper()
	k, kerr := k8slabels.Parse(s)
	m, serr := simlabels.Parse(s)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("labels.Parse(%q): kubernetes err %v, kubesim err %v", s, kerr, serr)
		return
	}
	if kerr != nil {
		if ks, ss := kerr.Error(), atPosition.ReplaceAllString(serr.Error(), ""); ks != ss {
			t.Errorf("labels.Parse(%q) error:\n kubernetes %s\n kubesim    %s", s, ks, ss)
		}
		return
	}
	if k.String() != m.String() {
		t.Errorf("labels.Parse(%q).String(): kubernetes %q, kubesim %q", s, k.String(), m.String())
	}
	for _, set := range labelSets {
		if km, sm := k.Matches(k8slabels.Set(set)), m.Matches(simlabels.Set(set)); km != sm {
			t.Errorf("labels.Parse(%q).Matches(%v): kubernetes %v, kubesim %v", s, set, km, sm)
		}
	}
}

func compareFieldSelector(t *testing.T, s string) {
	t.Helper()
	k, kerr := k8sfields.ParseSelector(s)
	m, serr := simfields.ParseSelector(s)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("fields.ParseSelector(%q): kubernetes err %v, kubesim err %v", s, kerr, serr)
		return
	}
	if kerr != nil {
		if kerr.Error() != serr.Error() {
			t.Errorf("fields.ParseSelector(%q) error:\n kubernetes %s\n kubesim    %s", s, kerr, serr)
		}
		return
	}
	if k.String() != m.String() || k.Empty() != m.Empty() {
		t.Errorf("fields.ParseSelector(%q): kubernetes %q (empty %v), kubesim %q (empty %v)",
			s, k.String(), k.Empty(), m.String(), m.Empty())
	}
	for _, set := range labelSets {
		if km, sm := k.Matches(k8sfields.Set(set)), m.Matches(simfields.Set(set)); km != sm {
			t.Errorf("fields.ParseSelector(%q).Matches(%v): kubernetes %v, kubesim %v", s, set, km, sm)
		}
		for field := range set {
			kv, kok := k.RequiresExactMatch(field)
			sv, sok := m.RequiresExactMatch(field)
			if kv != sv || kok != sok {
				t.Errorf("fields.ParseSelector(%q).RequiresExactMatch(%q): kubernetes %q %v, kubesim %q %v",
					s, field, kv, kok, sv, sok)
			}
		}
	}
}

// selectorSeeds are the table cases: the differences and the
// grammar's corners.
var selectorSeeds = []string{
	"", "a", "!a", "a=b", "a==b", "a!=b", "a in (b)", "a notin (b,c)", "a in ()", "a in (,)", "a in (b,,c)",
	"in", "in=b", "!in", "in in (in)", "notin notin (notin)", "a in in", "a>1", "a<1", "a>b", "a>-1",
	"a,b", "a,", ",a", "a b", "a=b c", "a=(b)", "a in (b", "a in b)", "!a=b", "a!", "a=!b", "x=b,!=", "=",
	"!=", "a=b,!=", "z,a=b,y", "b=\\x,a", "a=\\,", "a==b=c", "a=b,a=c", "a==c,a=b", "app=web,tier in (a,b)",
	"example.com/tier=b", "a/b/c=1", strings.Repeat("k", 64) + "=v", "a=" + strings.Repeat("v", 64),
	"a=-b", "a=b-", "A_b.c=Ä", "a in (b c)", " a = b ", "a\t=\tb", "a<=1", "a=<1",
}

func TestSelectorTable(t *testing.T) {
	for _, s := range selectorSeeds {
		compareLabelSelector(t, s)
		compareFieldSelector(t, s)
	}
	t.Logf("compared %d label and %d field selectors, each matched against %d label sets",
		len(selectorSeeds), len(selectorSeeds), len(labelSets))
}

func FuzzLabelSelector(f *testing.F) {
	for _, s := range selectorSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 24 {
			return
		}
		compareLabelSelector(t, selectorFrom(data))
		compareLabelSelector(t, string(data))
	})
}

func FuzzFieldSelector(f *testing.F) {
	for _, s := range selectorSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 24 {
			return
		}
		compareFieldSelector(t, selectorFrom(data))
		compareFieldSelector(t, string(data))
	})
}
