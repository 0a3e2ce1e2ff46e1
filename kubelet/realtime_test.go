package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	fakeruntime "kubesim/runtime"
)

// In real time (here 200x faster than the wall clock) the same kubelet runs on its own goroutines:
// the node side and the pod side, with image pulls off the pod loop.
func TestKubeletRunsInRealTime(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(200))
	addNode(t, ctx, c, 1, nil)
	for _, name := range []string{"a", "b"} {
		_, err := client.For[api.Pod](admin(c)).Create(ctx, newPod(name+"-x", "node-1", "nginx:1.25"))
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool {
		for _, name := range []string{"a-x", "b-x"} {
			p, err := client.For[api.Pod](admin(c)).Get(ctx, "default", name)
			if err != nil || condition(p, api.PodReady) != api.ConditionTrue {
				return false
			}
		}
		return true
	}, 10*time.Second, 10*time.Millisecond)
	// The kubelet runs pods before its registration goes through (as a real one does), so on a
	// loaded machine the Node may come a moment after the pods.
	require.Eventually(t, func() bool {
		n, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil && nodeCondition(n, api.NodeReady).Status == api.ConditionTrue
	}, 10*time.Second, 10*time.Millisecond, "node-1 registers and reports Ready")
}

// In real time the node side waits for the pod side's first runtime check before it registers. With
// a slow runtime the node loop is asleep, with no timer armed, when that check ends: the check must
// wake it, or the node is never registered (a boot that hung, now and then, until it did).
func TestANodeRegistersAfterASlowFirstRuntimeCheck(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(200))
	node, err := startNode(ctx, c, 1, nil, func(rt *fakeruntime.Runtime) { rt.SetFault(fakeruntime.FaultSlow{Delay: 40 * time.Second}) })
	require.NoError(t, err)
	defer node.rt.ClearFault()
	require.Eventually(t, func() bool {
		_, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil
	}, 10*time.Second, 10*time.Millisecond, "node-1 registers once its runtime has answered")
}
