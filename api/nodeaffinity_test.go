package api_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

func TestNodeSelectorTermsAreORedAndRequirementsANDed(t *testing.T) {
	labels := map[string]string{"disktype": "ssd", "cores": "8"}
	req := func(key, op string, values ...string) api.NodeSelectorRequirement {
		return api.NodeSelectorRequirement{Key: key, Operator: api.NodeSelectorOperator(op), Values: values}
	}
	for _, c := range []struct {
		name string
		term api.NodeSelectorTerm
		want bool
	}{
		{"In", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("disktype", "In", "ssd", "nvme")}}, true},
		{"NotIn on a missing label", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("gpu", "NotIn", "yes")}}, true},
		{"Exists and DoesNotExist", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("disktype", "Exists"), req("gpu", "DoesNotExist")}}, true},
		{"Gt", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("cores", "Gt", "4")}}, true},
		{"Lt fails", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("cores", "Lt", "4")}}, false},
		{"ANDed: one fails", api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{req("disktype", "In", "ssd"), req("cores", "In", "2")}}, false},
		{"metadata.name field", api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", "In", "node-1")}}, true},
		{"an empty term matches nothing", api.NodeSelectorTerm{}, false},
	} {
		assert.Equal(t, c.want, c.term.Matches("node-1", labels), c.name)
	}
	sel := api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
		{MatchExpressions: []api.NodeSelectorRequirement{req("disktype", "In", "hdd")}},
		{MatchExpressions: []api.NodeSelectorRequirement{req("disktype", "In", "ssd")}},
	}}
	assert.True(t, sel.Matches("node-1", labels), "terms are ORed")
	assert.False(t, (&api.NodeSelector{}).Matches("node-1", labels), "no terms match nothing")

	pod := &api.Pod{Spec: api.PodSpec{NodeSelector: map[string]string{"disktype": "ssd"}}}
	assert.True(t, api.RequiredNodeSelectionMatches(pod, "node-1", labels))
	pod.Spec.NodeSelector["zone"] = "a"
	assert.False(t, api.RequiredNodeSelectionMatches(pod, "node-1", labels), "nodeSelector labels must all be present")
}
