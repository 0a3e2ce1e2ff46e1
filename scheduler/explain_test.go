// explain_test.go: Explain and the scheduling cycle tell the same story, in kube-scheduler v1.34's
// words: each node keeps all of its reasons, "Too many pods" is a reason preemption may resolve, and
// nodes that NodeAffinity's PreFilter rules out by name are counted as such.
package scheduler_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
)

func allowsPods(n string) func(*api.Node) {
	return func(node *api.Node) {
		node.Status.Allocatable[resource.ResourcePods] = resource.MustParse(n)
		node.Status.Capacity[resource.ResourcePods] = resource.MustParse(n)
	}
}

// beforePostFilter is a FailedScheduling message without what PostFilter added ("no new claims to
// deallocate, preemption: ...").
func beforePostFilter(msg string) string {
	if i := strings.Index(msg, " no new claims to deallocate,"); i >= 0 {
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
	assert.Equal(t, want+" no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, "+
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
	assert.Equal(t, want, beforePostFilter(e.runUntilFailed("pinned")))
}

// A pod of a ReplicaSet, with no spread constraints of its own, is spread by the system defaults
// (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway; pkg/scheduler/framework/plugins/podtopologyspread,
// systemDefaultConstraints): the node that already runs two of its siblings scores lower. A pod that
// belongs to nothing is not spread at all.
func TestPodsOfAReplicaSetAreSpreadByTheSystemDefaultConstraints(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi")
	e.addNode("node-2", "4", "8Gi")
	rs, err := client.For[api.ReplicaSet](e.admin).Create(e.ctx, &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](3), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}}})
	require.NoError(t, err)
	owned := func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Ptr(true)}}
	}
	for _, name := range []string{"web-a", "web-b"} {
		e.create(newPod(name, "", "", owned, func(p *api.Pod) { p.Spec.NodeName = "node-1" }))
	}
	e.settle()

	ex, err := e.s.Explain(newPod("web-c", "", "", owned))
	require.NoError(t, err)
	spread := map[string]string{}
	for _, n := range ex.Nodes {
		for _, s := range n.Scores {
			if s.Plugin == "PodTopologySpread" {
				spread[n.Name] = fmt.Sprintf("%d→%d", s.Raw, s.Score)
			}
		}
	}
	// node-1: 2 siblings × ln(2 nodes + 2) + (maxSkew 3 - 1) = 4.77, rounded 5; node-2: 0 + 2. The
	// nodes have no zone label, so the zone constraint adds nothing.
	assert.Equal(t, map[string]string{"node-1": "5→40", "node-2": "2→100"}, spread)
	assert.Equal(t, "node-2", ex.Winner)
	assert.Contains(t, ex.String(), "the system defaults apply")

	loner, err := e.s.Explain(newPod("loner", "", ""))
	require.NoError(t, err)
	for _, s := range loner.Nodes[0].Scores {
		assert.NotEqual(t, "PodTopologySpread", s.Plugin, "a pod of no workload is not spread")
	}
}
