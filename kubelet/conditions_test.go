package kubelet_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
)

// The kubelet owns four conditions (PodReadyToStartContainers, Initialized, ContainersReady, Ready);
// the others it keeps as the apiserver holds them, as its status manager's mergePodStatus does. A
// pod the scheduler preempts is marked DisruptionTarget before it is deleted, and keeps the mark in
// the final status its kubelet writes.
func TestFinalStatusKeepsTheSchedulersDisruptionTarget(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	sleeper := newPod("victim", "node-1", "busybox:1.36")
	sleeper.Spec.Containers[0].Command = []string{"sleep", "3600"}
	sleeper.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](5)
	createPod(t, ctx, c, sleeper)
	runUntil(t, ctx, c, "victim Running", func() bool { return getPod(t, ctx, c, "victim").Status.Phase == api.PodRunning })

	p := getPod(t, ctx, c, "victim")
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: "DisruptionTarget", Status: api.ConditionTrue,
		Reason: "PreemptionByScheduler", Message: "default-scheduler: preempting to accommodate a higher priority pod"})
	_, err := client.For[api.Pod](admin(c)).UpdateStatus(ctx, p)
	require.NoError(t, err)
	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "victim", client.DeleteOptions{}))

	var final *api.Pod
	runUntil(t, ctx, c, "victim's final status", func() bool {
		p, err := client.For[api.Pod](admin(c)).Get(ctx, "default", "victim")
		if err == nil && (p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed) {
			final = p
		}
		return final != nil || err != nil
	})
	require.NotNil(t, final, "the final status is written before the pod goes")
	assert.Equal(t, api.ConditionTrue, condition(final, "DisruptionTarget"))
	assert.Equal(t, api.ConditionFalse, condition(final, api.PodReady))
}
