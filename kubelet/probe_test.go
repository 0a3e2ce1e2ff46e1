package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
)

func httpProbe(path string, port int32) *api.Probe {
	return &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: path, Port: api.FromInt32(port)}},
		PeriodSeconds: 10, FailureThreshold: 3, SuccessThreshold: 1, TimeoutSeconds: 1}
}

// A liveness probe that starts failing: after failureThreshold (3) failures, 10s apart, the kubelet
// kills the container and restarts it; the restart shows in restartCount and lastState.
func TestLivenessProbeFailureRestartsContainer(t *testing.T) {
	c, ctx := startPodFailingLiveness(t)
	runUntil(t, ctx, c, "web restarted", func() bool { return containerStatus(getPod(t, ctx, c, "web")).RestartCount == 1 })
	ev := events(t, ctx, c, "web")
	assert.Contains(t, ev, "Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500")
	assert.Contains(t, ev, "Killing: Container web failed liveness probe, will be restarted")
	cs := containerStatus(getPod(t, ctx, c, "web"))
	require.NotNil(t, cs.LastTerminationState.Terminated)
	assert.Equal(t, int32(0), cs.LastTerminationState.Terminated.ExitCode, "nginx exits 0 on SIGTERM")
	// Started at 3.3s, failing from 33.3s on; probes at 3.3s + 10s*n: failures at 33.3, 43.3, 53.3.
	assert.InDelta(t, 54, since(c).Seconds(), 2)
}

// A readiness probe gates Ready: the pod is Running but not Ready until nginx listens (after a 20s
// start delay), then Ready flips to True; the container is never restarted for it.
func TestReadinessProbeFlipsReady(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("web", "node-1", "nginx:1.25")
	p.Spec.Containers[0].ReadinessProbe = httpProbe("/", 80)
	p.Spec.Containers[0].ReadinessProbe.PeriodSeconds = 5
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_START_DELAY", Value: "20s"}}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "web Running", func() bool { return getPod(t, ctx, c, "web").Status.Phase == api.PodRunning })
	pod := getPod(t, ctx, c, "web")
	assert.Equal(t, api.ConditionFalse, condition(pod, api.PodReady))
	assert.Equal(t, api.ConditionFalse, condition(pod, api.ContainersReady))
	assert.False(t, containerStatus(pod).Ready)
	assert.Equal(t, "ContainersNotReady", readyReason(pod))

	runUntil(t, ctx, c, "web Ready", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })
	assert.InDelta(t, 23.3, since(c).Seconds(), 5.1)
	assert.True(t, containerStatus(getPod(t, ctx, c, "web")).Ready)
	assert.Equal(t, int32(0), containerStatus(getPod(t, ctx, c, "web")).RestartCount)
	assert.Contains(t, events(t, ctx, c, "web")[4], "Readiness probe failed: Get \"http://10.244.1.2:80/\": dial tcp 10.244.1.2:80: connect: connection refused")
}

// A startup probe holds off the liveness probe until it passes.
func TestStartupProbeGatesLiveness(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("slow", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_START_DELAY", Value: "45s"}}
	p.Spec.Containers[0].LivenessProbe = httpProbe("/", 80)
	p.Spec.Containers[0].StartupProbe = httpProbe("/", 80)
	p.Spec.Containers[0].StartupProbe.FailureThreshold = 10
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "slow started", func() bool {
		s := containerStatus(getPod(t, ctx, c, "slow")).Started
		return s != nil && *s
	})
	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	assert.Equal(t, int32(0), containerStatus(getPod(t, ctx, c, "slow")).RestartCount, "a liveness probe alone would have killed it at 33s")
	assert.Equal(t, api.ConditionTrue, condition(getPod(t, ctx, c, "slow"), api.PodReady))
}

// A container whose memory grows past limits.memory is OOM-killed: exit code 137, reason OOMKilled.
func TestOOMKilledContainerReports137(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("hog", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_MEMORY_GROWTH", Value: "10Mi/s"}}
	p.Spec.Containers[0].Resources.Limits = resource.ResourceList{resource.ResourceMemory: resource.MustParse("64Mi")}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "hog OOMKilled", func() bool {
		t := containerStatus(getPod(t, ctx, c, "hog")).LastTerminationState.Terminated
		return t != nil
	})
	last := containerStatus(getPod(t, ctx, c, "hog")).LastTerminationState.Terminated
	assert.Equal(t, int32(137), last.ExitCode)
	assert.Equal(t, "OOMKilled", last.Reason)
}

func readyReason(p *api.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Reason
		}
	}
	return ""
}

// A probe's port may be the container's port name; the kubelet dials the pod's IP, which for a
// hostNetwork pod is the node's (192.168.0.11), not an address of its own. A name the container does
// not declare cannot be probed at all: each attempt errors ("probe errored and resulted in unknown
// state") and the pod stays not Ready.
func TestProbeNamedPortsAndTheHostNetworkAddress(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	named := newPod("named", "node-1", "nginx:1.25")
	named.Spec.Containers[0].Ports = []api.ContainerPort{{Name: "http", ContainerPort: 80}}
	named.Spec.Containers[0].ReadinessProbe = httpProbe("/", 0)
	named.Spec.Containers[0].ReadinessProbe.HTTPGet.Port = api.FromString("http")
	createPod(t, ctx, c, named)

	host := newPod("host", "node-1", "nginx:1.25")
	host.Spec.HostNetwork = true
	host.Spec.Containers[0].ReadinessProbe = httpProbe("/", 8080) // nginx listens on 80
	createPod(t, ctx, c, host)

	unnamed := newPod("unnamed", "node-1", "nginx:1.25")
	unnamed.Spec.Containers[0].ReadinessProbe = httpProbe("/", 0)
	unnamed.Spec.Containers[0].ReadinessProbe.HTTPGet.Port = api.FromString("web")
	createPod(t, ctx, c, unnamed)

	runUntil(t, ctx, c, "named Ready", func() bool { return condition(getPod(t, ctx, c, "named"), api.PodReady) == api.ConditionTrue })
	require.NoError(t, c.Driver.Advance(ctx, 30*time.Second))
	assert.Contains(t, events(t, ctx, c, "host"),
		`Unhealthy: Readiness probe failed: Get "http://192.168.0.11:8080/": dial tcp 192.168.0.11:8080: connect: connection refused`)
	assert.Contains(t, events(t, ctx, c, "unnamed"),
		`Unhealthy: Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing "web": invalid syntax`)
	assert.Equal(t, api.ConditionFalse, condition(getPod(t, ctx, c, "unnamed"), api.PodReady))
}
