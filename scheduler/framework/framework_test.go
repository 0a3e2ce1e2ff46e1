package framework_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/scheduler/framework"
)

// FitError.Error: https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
func TestFitErrorCountsReasonsAndSortsThemAsStrings(t *testing.T) {
	m := framework.NodeToStatus{}
	for i := 0; i < 10; i++ {
		m[fmt.Sprintf("node-%d", i)] = framework.NewStatus(framework.Unschedulable, "Insufficient cpu", "Insufficient memory")
	}
	m["cp-1"] = framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
	m["cp-2"] = framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
	err := &framework.FitError{NumAllNodes: 12, Diagnosis: framework.Diagnosis{NodeToStatus: m,
		PostFilterMsg: "preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod."}}
	assert.Equal(t, "0/12 nodes are available: 10 Insufficient cpu, 10 Insufficient memory, "+
		"2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. "+
		"preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.", err.Error())
}

func TestFitErrorFromPreFilterShowsOnlyThePreFilterMessage(t *testing.T) {
	st := framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match pod topology spread constraints")
	err := &framework.FitError{NumAllNodes: 2, Diagnosis: framework.Diagnosis{NodeToStatus: framework.NodeToStatus{"a": st, "b": st},
		PreFilterMsg: st.Message()}}
	assert.Equal(t, "0/2 nodes are available: node(s) didn't match pod topology spread constraints.", err.Error())
}

func TestNilStatusIsSuccess(t *testing.T) {
	var st *framework.Status
	assert.True(t, st.IsSuccess())
	assert.Equal(t, framework.Success, st.Code())
	assert.False(t, st.IsRejected())
	assert.Nil(t, st.AsError())
	assert.True(t, framework.NewStatus(framework.UnschedulableAndUnresolvable).IsRejected())
	assert.Equal(t, "Error: boom", framework.AsStatus(fmt.Errorf("boom")).String())
}

func TestDiagnosisKeepsUnschedulablePluginsSortedAndUnique(t *testing.T) {
	var d framework.Diagnosis
	for _, p := range []string{"TaintToleration", "NodeResourcesFit", "TaintToleration", "", "InterPodAffinity"} {
		d.AddUnschedulablePlugin(p)
	}
	assert.Equal(t, []string{"InterPodAffinity", "NodeResourcesFit", "TaintToleration"}, d.UnschedulablePlugins)
}

func TestClusterEventsMatchByResourceAndAction(t *testing.T) {
	registered := framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}
	assert.True(t, registered.Match(framework.EventNodeAdd))
	assert.True(t, registered.Match(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeTaint | framework.UpdateNodeLabel}))
	assert.False(t, registered.Match(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeLabel}))
	assert.False(t, registered.Match(framework.EventAssignedPodDelete))
	assert.True(t, registered.Match(framework.EventUnschedulableTimeout))
	assert.Equal(t, "AssignedPodDelete", framework.EventAssignedPodDelete.Label())
}

func ExampleFitError() {
	err := &framework.FitError{NumAllNodes: 3, Diagnosis: framework.Diagnosis{NodeToStatus: framework.NodeToStatus{
		"control-plane": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"),
		"node-1":        framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
		"node-2":        framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
	}, PostFilterMsg: "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."}}
	fmt.Println(err)
	// Output:
	// 0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
}
