package disruption_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.25"}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: "50%"
  selector: {matchLabels: {app: web}}
`

// A percentage is taken of the controller's scale, rounded up (getExpectedPodCount): minAvailable 50%
// of a 3-replica Deployment desires 2 healthy pods, so with 3 Ready one disruption is allowed; a pod
// being deleted no longer counts as healthy, and the budget allows none until it is replaced.
func TestBudgetCountsHealthyPodsAgainstTheDeploymentScale(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1, ControllerManager: true, Scheduler: true, Nodes: 2})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	_, err = c.Kubectl.Apply(ctx, []byte(web))
	require.NoError(t, err)
	budget := func() api.PodDisruptionBudgetStatus {
		b, err := client.For[api.PodDisruptionBudget](c.Kubectl.Client()).Get(ctx, "default", "web")
		require.NoError(t, err)
		return b.Status
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "3 healthy", func() (bool, error) { return budget().CurrentHealthy == 3, nil }, 0))
	st := budget()
	assert.Equal(t, [4]int32{3, 2, 3, 1}, [4]int32{st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed})
	require.Len(t, st.Conditions, 1)
	assert.Equal(t, api.Condition{Type: "DisruptionAllowed", Status: api.ConditionTrue, Reason: "SufficientPods",
		ObservedGeneration: 1, LastTransitionTime: st.Conditions[0].LastTransitionTime}, st.Conditions[0])

	pods, _, err := client.For[api.Pod](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{LabelSelector: "app=web"})
	require.NoError(t, err)
	_, _, err = client.For[api.Pod](c.Kubectl.Client()).Delete(ctx, "default", pods[0].Name, client.DeleteOptions{})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "2 healthy", func() (bool, error) { return budget().CurrentHealthy == 2, nil }, 0))
	st = budget()
	assert.Equal(t, int32(0), st.DisruptionsAllowed)
	assert.Equal(t, "InsufficientPods", st.Conditions[0].Reason)
}
