// names_test.go compares kubesim's name and label validation with
// apimachinery's: DNS-1123 subdomains and labels, DNS-1035 labels, qualified
// names (label keys), label values, and each kind's name rule with the
// generateName prefix masking.
package difftest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	k8snames "k8s.io/apimachinery/pkg/api/validation"
	k8smetavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	k8s "k8s.io/apimachinery/pkg/util/validation"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	simfield "kubesim/api/field"
	simlabels "kubesim/api/labels"
	sim "kubesim/api/validation"
)

// nameRules pairs each rule with its kubesim twin.
var nameRules = []struct {
	name     string
	k8s, sim func(string) []string
}{
	{"IsDNS1123Subdomain", k8s.IsDNS1123Subdomain, sim.IsDNS1123Subdomain},
	{"IsDNS1123Label", k8s.IsDNS1123Label, sim.IsDNS1123Label},
	{"IsDNS1035Label", k8s.IsDNS1035Label, sim.IsDNS1035Label},
	{"IsQualifiedName", k8s.IsQualifiedName, simlabels.IsQualifiedName},
	{"IsValidLabelValue", k8s.IsValidLabelValue, simlabels.IsValidLabelValue},
}

// prefixRules are the per-kind name functions, asked about names and about
// generateName prefixes.
var prefixRules = []struct {
	name string
	k8s  k8snames.ValidateNameFunc
	sim  sim.ValidateNameFunc
}{
	{"NameIsDNSSubdomain", k8snames.NameIsDNSSubdomain, sim.NameIsDNSSubdomain},
	{"NameIsDNSLabel", k8snames.NameIsDNSLabel, sim.NameIsDNSLabel},
	{"NameIsDNS1035Label", k8snames.NameIsDNS1035Label, sim.NameIsDNS1035Label},
}

// compareName runs every rule on s and returns how many answers it compared.
func compareName(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range nameRules {
		if k, m := r.k8s(s), r.sim(s); !slices.Equal(k, m) {
			t.Errorf("%s(%q):\n kubernetes %q\n kubesim    %q", r.name, s, k, m)
		}
		n++
	}
	for _, r := range prefixRules {
		for _, prefix := range []bool{false, true} {
			if k, m := r.k8s(s, prefix), r.sim(s, prefix); !slices.Equal(k, m) {
				t.Errorf("%s(%q, prefix %v):\n kubernetes %q\n kubesim    %q", r.name, s, prefix, k, m)
			}
			n++
		}
	}
	n += compareLabelMaps(t, s)
	return n
}

// compareLabelMaps validates s as a label key and value and as an annotation
// key, on both sides, and returns how many answers it compared.
func compareLabelMaps(t *testing.T, s string) int {
	t.Helper()
	k := k8smetavalidation.ValidateLabels(map[string]string{s: s}, k8sfield.NewPath("metadata", "labels")).ToAggregate()
	m := sim.ValidateLabels(map[string]string{s: s}, simfield.NewPath("metadata", "labels")).ToAggregate()
	if fmt.Sprint(k) != fmt.Sprint(m) {
		t.Errorf("ValidateLabels({%q: %q}):\n kubernetes %v\n kubesim    %v", s, s, k, m)
	}
	k = k8snames.ValidateAnnotations(map[string]string{s: "v"}, k8sfield.NewPath("metadata", "annotations")).ToAggregate()
	m = sim.ValidateAnnotations(map[string]string{s: "v"}, simfield.NewPath("metadata", "annotations")).ToAggregate()
	if fmt.Sprint(k) != fmt.Sprint(m) {
		t.Errorf("ValidateAnnotations({%q: v}):\n kubernetes %v\n kubesim    %v", s, k, m)
	}
	return 2
}

// nameSeeds cover each rule's edges: lengths around 63 and 253, dots,
// dashes and underscores at either end, prefixes, case, and the masked
// generateName tail.
var nameSeeds = func() []string {
	seeds := []string{
		"", "a", "A", "1", "-", ".", "_", "a-", "-a", "a.", ".a", "a_", "_a", "a-b", "a.b", "a_b", "a..b", "a-.b",
		"web_-", "x-", "--", "nginx-", "Nginx", "1web", "web-1", "kube.system", "example.com/name", "example.com/",
		"/name", "a/b/c", "Example.com/name", "ex_ample.com/name", "a/b", "ä", "a b", "system:node", "a%b",
		strings.Repeat("a", 62) + "-", strings.Repeat("a", 63) + "-", strings.Repeat("a", 64) + "-",
		strings.Repeat("a", 252) + "-", strings.Repeat("a", 253) + "-", strings.Repeat("a", 254) + "-",
		strings.Repeat("a", 253) + "/n", strings.Repeat("a", 254) + "/n", "a/" + strings.Repeat("n", 63),
		"a/" + strings.Repeat("n", 64),
	}
	for _, n := range []int{62, 63, 64, 252, 253, 254} {
		seeds = append(seeds, strings.Repeat("a", n), strings.Repeat("a.", n/2))
	}
	return seeds
}()

func TestNameTable(t *testing.T) {
	cases := 0
	for _, s := range nameSeeds {
		cases += compareName(t, s)
	}
	t.Logf("compared %d name validation answers over %d names", cases, len(nameSeeds))
}

func FuzzName(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		compareName(t, s)
	})
}
