package kubelet_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

// In real time (here 200x faster than the wall clock) the same kubelet runs on its own goroutines:
// the node side and the pod side, with image pulls off the pod loop.
func TestKubeletRunsInRealTime(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Speed: 200, Seed: 1})
	require.NoError(t, err)
	defer c.Close()
	crc := kubelet.NewCRIClock(c.Clock)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: "node-1", PodCIDR: "10.244.1.0/24"})
	require.NoError(t, err)
	cl := c.Client("system:node:node-1", "kubelet/node-1", "system:nodes")
	k := kubelet.New(kubelet.Options{NodeName: "node-1", Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", "node-1", c.Clock, c.Trace), Runtime: rt, RuntimeClock: crc})
	require.NoError(t, c.Add(ctx, k))
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
	n, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
	require.NoError(t, err)
	assert.Equal(t, api.ConditionTrue, nodeCondition(n, api.NodeReady).Status)
}
