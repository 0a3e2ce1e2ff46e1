// labelselector_test.go compares kubesim's SelectorFromLabelSelector with
// apimachinery's metav1.LabelSelectorAsSelector, the conversion behind every
// spec.selector, and with ValidateLabelSelector: the same matchLabels and
// matchExpressions, built from fuzz bytes, give the same errors or the same
// selector.
package difftest

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8smetavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	"kubesim/api"
	simfield "kubesim/api/field"
	simlabels "kubesim/api/labels"
	simvalidation "kubesim/api/validation"
)

var selectorOperators = []string{"In", "NotIn", "Exists", "DoesNotExist", "Equals", "in"}

// labelSelectorFrom builds a label selector from fuzz bytes: each group of
// four bytes is a matchLabels entry or an expression.
func labelSelectorFrom(data []byte) (map[string]string, []metav1.LabelSelectorRequirement) {
	word := func(b byte) string { return selectorWords[int(b)%len(selectorWords)] }
	var matchLabels map[string]string
	var exprs []metav1.LabelSelectorRequirement
	for i := 0; i+3 < len(data); i += 4 {
		if data[i]%2 == 0 {
			if matchLabels == nil {
				matchLabels = map[string]string{}
			}
			matchLabels[word(data[i+1])] = word(data[i+2])
			continue
		}
		var values []string
		for v := range int(data[i+3] % 3) {
			values = append(values, word(data[i+2]+byte(v)))
		}
		exprs = append(exprs, metav1.LabelSelectorRequirement{Key: word(data[i+1]),
			Operator: metav1.LabelSelectorOperator(selectorOperators[int(data[i])/2%len(selectorOperators)]), Values: values})
	}
	return matchLabels, exprs
}

func compareLabelSelectorAsSelector(t *testing.T, data []byte) {
	t.Helper()
	matchLabels, exprs := labelSelectorFrom(data)
	k, kerr := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: matchLabels, MatchExpressions: exprs})
	simExprs := make([]simlabels.Expression, len(exprs))
	for i, e := range exprs {
		simExprs[i] = simlabels.Expression{Key: e.Key, Operator: string(e.Operator), Values: e.Values}
	}
	m, serr := simlabels.SelectorFromLabelSelector(matchLabels, simExprs)
	compareLabelSelectorValidation(t, matchLabels, exprs)
	if (kerr == nil) != (serr == nil) {
		t.Errorf("LabelSelectorAsSelector(%v, %v): kubernetes err %v, kubesim err %v", matchLabels, exprs, kerr, serr)
		return
	}
	if kerr != nil {
		// Kubernetes walks matchLabels in random order; compare only when
		// at most one label could be the one reported.
		if len(matchLabels) <= 1 && kerr.Error() != serr.Error() {
			t.Errorf("LabelSelectorAsSelector(%v, %v) error:\n kubernetes %v\n kubesim    %v", matchLabels, exprs, kerr, serr)
		}
		return
	}
	if k.String() != m.String() {
		t.Errorf("LabelSelectorAsSelector(%v, %v): kubernetes %q, kubesim %q", matchLabels, exprs, k.String(), m.String())
	}
	for _, set := range labelSets {
		if km, sm := k.Matches(k8slabels.Set(set)), m.Matches(simlabels.Set(set)); km != sm {
			t.Errorf("LabelSelectorAsSelector(%v, %v).Matches(%v): kubernetes %v, kubesim %v", matchLabels, exprs, set, km, sm)
		}
	}
}

// compareLabelSelectorValidation validates the selector as an object's
// spec.selector is validated, on both sides. With one matchLabels entry at
// most, the errors come in one order on both sides.
func compareLabelSelectorValidation(t *testing.T, matchLabels map[string]string, exprs []metav1.LabelSelectorRequirement) {
	t.Helper()
	if len(matchLabels) > 1 {
		return
	}
	path := k8sfield.NewPath("spec", "selector")
	kerrs := k8smetavalidation.ValidateLabelSelector(&metav1.LabelSelector{MatchLabels: matchLabels, MatchExpressions: exprs},
		k8smetavalidation.LabelSelectorValidationOptions{}, path).ToAggregate()
	sel := &api.LabelSelector{MatchLabels: matchLabels}
	for _, e := range exprs {
		sel.MatchExpressions = append(sel.MatchExpressions,
			api.LabelSelectorRequirement{Key: e.Key, Operator: string(e.Operator), Values: e.Values})
	}
	serrs := simvalidation.ValidateLabelSelector(sel, simfield.NewPath("spec", "selector")).ToAggregate()
	if fmt.Sprint(kerrs) != fmt.Sprint(serrs) {
		t.Errorf("ValidateLabelSelector(%v, %v):\n kubernetes %v\n kubesim    %v", matchLabels, exprs, kerrs, serrs)
	}
}

// labelSelectorSeeds are fuzz seeds: each four bytes one label or expression.
var labelSelectorSeeds = [][]byte{
	{0, 0, 1, 0}, {1, 0, 1, 1}, {3, 2, 3, 2}, {5, 1, 0, 0}, {7, 3, 3, 1}, {9, 0, 0, 1},
	{0, 0, 1, 0, 1, 0, 1, 1}, {0, 16, 16, 0, 1, 30, 1, 2}, {11, 0, 1, 1}, {1, 26, 1, 1},
}

func TestLabelSelectorAsSelectorTable(t *testing.T) {
	for _, s := range labelSelectorSeeds {
		compareLabelSelectorAsSelector(t, s)
	}
	t.Logf("compared %d label selectors", len(labelSelectorSeeds))
}

func FuzzLabelSelectorAsSelector(f *testing.F) {
	for _, s := range labelSelectorSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32 {
			return
		}
		compareLabelSelectorAsSelector(t, data)
	})
}
