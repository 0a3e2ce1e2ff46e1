package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each getter returns the condition of the type asked for, as a pointer into the object (so a
// controller can change it in place), and nil when there is none.
func TestGetConditionFindsTheTypeOrNil(t *testing.T) {
	pod := &Pod{Status: PodStatus{Conditions: []PodCondition{{Type: PodScheduled}, {Type: PodReady, Status: ConditionTrue}}}}
	require.NotNil(t, GetPodCondition(pod, PodReady))
	assert.Same(t, &pod.Status.Conditions[1], GetPodCondition(pod, PodReady))
	assert.Nil(t, GetPodCondition(pod, PodInitialized))

	d := DeploymentStatus{Conditions: []DeploymentCondition{{Type: DeploymentAvailable}, {Type: DeploymentProgressing, Reason: "NewReplicaSetAvailable"}}}
	require.NotNil(t, GetDeploymentCondition(d, DeploymentProgressing))
	assert.Equal(t, "NewReplicaSetAvailable", GetDeploymentCondition(d, DeploymentProgressing).Reason)
	assert.Nil(t, GetDeploymentCondition(DeploymentStatus{}, DeploymentAvailable))

	n := &NodeStatus{Conditions: []NodeCondition{{Type: NodeMemoryPressure}, {Type: NodeReady, Status: ConditionUnknown}}}
	assert.Same(t, &n.Conditions[1], GetNodeCondition(n, NodeReady))
	assert.Nil(t, GetNodeCondition(n, NodeDiskPressure))
}
