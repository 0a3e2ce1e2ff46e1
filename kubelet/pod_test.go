package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubelet"
	"kubesim/sim"
)

// The whole pod start on a node: sandbox (pause, pod IP from the node's podCIDR), image pull that
// takes its time, create, start, then status Running and Ready, with Kubernetes' events.
func TestPodStartsWithSandboxPullCreateStartAndBecomesReady(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("nginx", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "nginx Ready", func() bool { return condition(getPod(t, ctx, c, "nginx"), api.PodReady) == api.ConditionTrue })
	dumpTrace(t, c)

	p := getPod(t, ctx, c, "nginx")
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.Equal(t, "10.244.1.2", p.Status.PodIP)
	assert.Equal(t, "192.168.0.11", p.Status.HostIP)
	require.NotNil(t, p.Status.StartTime)
	cs := containerStatus(p)
	require.NotNil(t, cs.State.Running)
	assert.True(t, cs.Ready)
	assert.True(t, *cs.Started)
	assert.Regexp(t, `^containerd://[0-9a-f]{64}$`, cs.ContainerID)
	assert.Regexp(t, `^docker.io/library/nginx@sha256:[0-9a-f]{64}$`, cs.ImageID)
	assert.Equal(t, "nginx:1.25", cs.Image)
	for _, cond := range []api.PodConditionType{"PodReadyToStartContainers", api.PodInitialized, api.ContainersReady, api.PodReady, api.PodScheduled} {
		assert.Equal(t, api.ConditionTrue, condition(p, cond), cond)
	}
	// nginx:1.25 is 70983496 bytes: 0.5s to resolve plus 2.839s at 25 MB/s.
	assert.Equal(t, []string{
		`Pulling: Pulling image "nginx:1.25"`,
		`Pulled: Successfully pulled image "nginx:1.25" in 3.339s (3.339s including waiting). Image size: 70983496 bytes.`,
		`Created: Created container: nginx`,
		`Started: Started container nginx`,
	}, events(t, ctx, c, "nginx"))
	assert.Equal(t, 3*time.Second, cs.State.Running.StartedAt.Sub(sim.Epoch), "started once the pull finished (timestamps have second precision)")
}

// Every story-level trace line of the kubelet has a Chinese telling in its catalogue (kubelet/zh.go).
func TestKubeletTraceLinesHaveChineseFormats(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("web", "node-1", "ngnix:1.25"))
	p := newPod("crash", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_CRASH_AFTER", Value: "1s"}}
	createPod(t, ctx, c, p)
	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "crash", client.DeleteOptions{}))
	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	for _, e := range c.Trace.Events() {
		if !strings.HasPrefix(e.Component, "kubelet/") || e.Action == "event" || e.Action == "start" {
			continue
		}
		format, _ := e.Format()
		_, ok := kubelet.ZH[format]
		assert.True(t, ok, "no Chinese format for %q", format)
	}
}
