package fakeruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

func TestRunPodSandboxAllocatesUniqueIPsFromThePodCIDR(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	seen := map[string]bool{}
	var ids []string
	for i := range 5 {
		id, err := n.rt.RunPodSandbox(ctx, sandboxConfig(fmt.Sprintf("web-%d", i)))
		require.NoError(t, err)
		assert.Regexp(t, `^[0-9a-f]{64}$`, id)
		st, err := n.rt.PodSandboxStatus(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, fakeruntime.SandboxReady, st.State)
		assert.False(t, seen[st.Network.IP], "IP %s handed out twice", st.Network.IP)
		seen[st.Network.IP] = true
		ids = append(ids, id)
	}
	assert.Equal(t, map[string]bool{"10.244.1.2": true, "10.244.1.3": true, "10.244.1.4": true, "10.244.1.5": true, "10.244.1.6": true}, seen,
		".0 is the network, .1 the bridge gateway")

	list, err := n.rt.ListPodSandbox(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list, 5)
	for i, s := range list {
		assert.Equal(t, ids[i], s.ID, "listed in creation order")
	}
	list, err = n.rt.ListPodSandbox(ctx, &fakeruntime.PodSandboxFilter{LabelSelector: map[string]string{fakeruntime.LabelPodName: "web-3"}})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, ids[3], list[0].ID)
}

func TestRemovePodSandboxReleasesTheIPButHostLocalDoesNotReuseItAtOnce(t *testing.T) {
	clk := clock.NewVirtual(t0)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "small", PodCIDR: "10.244.9.0/29"})
	require.NoError(t, err)
	ctx := context.Background()
	ip := func(id string) string {
		st, err := rt.PodSandboxStatus(ctx, id)
		require.NoError(t, err)
		return st.Network.IP
	}
	var ids []string
	for i := range 5 { // a /29 has 8 addresses: network, gateway, broadcast and 5 for pods
		id, err := rt.RunPodSandbox(ctx, sandboxConfig(fmt.Sprintf("p%d", i)))
		require.NoError(t, err)
		ids = append(ids, id)
	}
	_, err = rt.RunPodSandbox(ctx, sandboxConfig("one-too-many"))
	assert.ErrorContains(t, err, "no IP addresses available in range set: 10.244.9.2-10.244.9.6")

	require.NoError(t, rt.StopPodSandbox(ctx, ids[1]))
	assert.Equal(t, "10.244.9.3", ip(ids[1]), "a stopped sandbox keeps its IP until removed")
	require.NoError(t, rt.RemovePodSandbox(ctx, ids[1]))
	_, err = rt.PodSandboxStatus(ctx, ids[1])
	assert.True(t, fakeruntime.IsNotFound(err))
	assert.NoError(t, rt.RemovePodSandbox(ctx, ids[1]), "removal is idempotent")

	again, err := rt.RunPodSandbox(ctx, sandboxConfig("p1-again"))
	require.NoError(t, err)
	assert.Equal(t, "10.244.9.3", ip(again), "the only free address")

	require.NoError(t, rt.RemovePodSandbox(ctx, ids[2]))
	require.NoError(t, rt.RemovePodSandbox(ctx, ids[3]))
	next, err := rt.RunPodSandbox(ctx, sandboxConfig("p5"))
	require.NoError(t, err)
	assert.Equal(t, "10.244.9.4", ip(next), "allocation continues after the last one handed out (.3)")
}

func TestStopPodSandboxKillsItsContainers(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	id := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx:1.25"})
	list, err := n.rt.ListPodSandbox(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, n.rt.StopPodSandbox(ctx, list[0].ID))

	st := n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(137), st.ExitCode)
	sb, err := n.rt.PodSandboxStatus(ctx, list[0].ID)
	require.NoError(t, err)
	assert.Equal(t, fakeruntime.SandboxNotReady, sb.State)
	_, err = n.rt.CreateContainer(ctx, list[0].ID, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "x"}, Image: "nginx:1.25"}, nil)
	assert.Error(t, err, "no new containers in a stopped sandbox")

	_, err = n.rt.PodSandboxStatus(ctx, "nope")
	assert.EqualError(t, err, `rpc error: code = NotFound desc = an error occurred when try to find sandbox "nope": not found`)
}

// A hostNetwork pod's sandbox shares the node's network namespace: containerd calls no CNI plugin, so
// it starts before the node has a podCIDR, reports no IP of its own and takes none from the range.
func TestHostNetworkSandboxSkipsCNI(t *testing.T) {
	ctx := context.Background()
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clock.NewVirtual(t0), NodeName: "fresh"})
	require.NoError(t, err)
	pod := sandboxConfig("pod-net")
	_, err = rt.RunPodSandbox(ctx, pod)
	require.ErrorContains(t, err, "cni plugin not initialized", "a pod-network sandbox needs the podCIDR")

	agent := sandboxConfig("agent")
	agent.HostNetwork = true
	id, err := rt.RunPodSandbox(ctx, agent)
	require.NoError(t, err, "a hostNetwork sandbox does not wait for the pod network")
	st, err := rt.PodSandboxStatus(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "", st.Network.IP)

	require.NoError(t, rt.UpdateRuntimeConfig(ctx, &fakeruntime.RuntimeConfig{NetworkConfig: &fakeruntime.NetworkConfig{PodCidr: "10.244.7.0/24"}}))
	id2, err := rt.RunPodSandbox(ctx, pod)
	require.NoError(t, err)
	st2, err := rt.PodSandboxStatus(ctx, id2)
	require.NoError(t, err)
	assert.Equal(t, "10.244.7.2", st2.Network.IP, "the host-network sandbox took no address from the range")
	require.NoError(t, rt.RemovePodSandbox(ctx, id))
}
