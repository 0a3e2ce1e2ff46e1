// explain_test.go: Explain and the scheduling cycle tell the same story, in kube-scheduler v1.34's
// words: each node keeps all of its reasons, "Too many pods" is a reason preemption may resolve, and
// nodes that NodeAffinity's PreFilter rules out by name are counted as such.
package scheduler_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
)

func allowsPods(n string) func(*api.Node) {
	return func(node *api.Node) {
		node.Status.Allocatable[resource.ResourcePods] = resource.MustParse(n)
		node.Status.Capacity[resource.ResourcePods] = resource.MustParse(n)
	}
}

// beforePreemption is a FailedScheduling message without its "preemption: ..." part.
func beforePreemption(msg string) string {
	if i := strings.Index(msg, " preemption:"); i >= 0 {
		return msg[:i]
	}
	return msg
}

// A node short of cpu and memory counts once for each (FitError.Error in
// pkg/scheduler/framework/types.go counts every reason of every node's status); a node that allows no
// more pods says "Too many pods" with the code Unschedulable (noderesources.Fit's Filter,
// pkg/scheduler/framework/plugins/noderesources/fit.go, makes only a request larger than the node's
// allocatable unresolvable), so preemption looks at it and finds no victims there.
func TestExplainAndTheCycleCountEveryReasonOfEveryNode(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "1", "1Gi")
	e.addNode("node-2", "1", "1Gi")
	e.addNode("node-3", "4", "8Gi", allowsPods("0"))
	e.settle()
	pod := newPod("big", "2", "2Gi")
	want := "0/3 nodes are available: 1 Too many pods, 2 Insufficient cpu, 2 Insufficient memory."

	ex, err := e.s.Explain(pod)
	require.NoError(t, err)
	assert.Equal(t, want, ex.Message)

	e.create(pod)
	msg := e.runUntilFailed("big")
	assert.Equal(t, want+" preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, "+
		"2 Preemption is not helpful for scheduling.", msg)
}

// Required node affinity on metadata.name (as DaemonSet pods carry) narrows the nodes at PreFilter
// (NodeAffinity.PreFilter returns a PreFilterResult); the other nodes are not filtered at all and are
// counted as "node(s) didn't satisfy plugin(s) [NodeAffinity]" (findNodesThatFitPod in
// pkg/scheduler/schedule_one.go).
func TestNodesRuledOutByNameAtPreFilterAreCountedAsSuch(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi")
	e.addNode("node-2", "1", "8Gi")
	e.addNode("node-3", "4", "8Gi")
	e.settle()
	pod := newPod("pinned", "2", "", func(p *api.Pod) {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-2"}}},
			}}}}}
	})
	want := "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."

	ex, err := e.s.Explain(pod)
	require.NoError(t, err)
	assert.Equal(t, want, ex.Message)

	e.create(pod)
	assert.Equal(t, want, beforePreemption(e.runUntilFailed("pinned")))
}
