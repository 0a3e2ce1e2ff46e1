package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// node is one runtime on a Virtual clock, as in step mode.
type node struct {
	clk *clock.Virtual
	rt  *fakeruntime.Runtime
}

func newNode(t testing.TB) *node {
	t.Helper()
	clk := clock.NewVirtual(t0)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "node-1", PodCIDR: "10.244.1.0/24"})
	require.NoError(t, err)
	return &node{clk: clk, rt: rt}
}

func sandboxConfig(name string) *fakeruntime.PodSandboxConfig {
	return &fakeruntime.PodSandboxConfig{
		Metadata: fakeruntime.PodSandboxMetadata{Name: name, Namespace: "default", UID: "uid-" + name},
		Hostname: name,
		Labels:   map[string]string{fakeruntime.LabelPodName: name, fakeruntime.LabelPodNamespace: "default"},
	}
}

// run starts a one-container pod the way the kubelet does, and returns the container ID.
func (n *node) run(t testing.TB, pod string, c fakeruntime.ContainerConfig) string {
	t.Helper()
	ctx := context.Background()
	sb := sandboxConfig(pod)
	sid, err := n.rt.RunPodSandbox(ctx, sb)
	require.NoError(t, err)
	_, err = n.rt.PullImage(ctx, c.Image, nil)
	require.NoError(t, err)
	if c.Metadata.Name == "" {
		c.Metadata.Name = "main"
	}
	id, err := n.rt.CreateContainer(ctx, sid, &c, sb)
	require.NoError(t, err)
	require.NoError(t, n.rt.StartContainer(ctx, id))
	return id
}

func (n *node) status(t testing.TB, id string) *fakeruntime.ContainerStatus {
	t.Helper()
	st, err := n.rt.ContainerStatus(context.Background(), id)
	require.NoError(t, err)
	return st
}
