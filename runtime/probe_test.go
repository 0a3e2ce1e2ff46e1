package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fakeruntime "kubesim/runtime"
)

func probe(t *testing.T, n *node, id string, p fakeruntime.Probe) fakeruntime.ProbeResult {
	t.Helper()
	res, err := n.rt.ProbeContainer(context.Background(), id, &p)
	require.NoError(t, err)
	return res
}

func httpGet(kind fakeruntime.ProbeType, path string, port int32) fakeruntime.Probe {
	return fakeruntime.Probe{Type: kind, HTTPGet: &fakeruntime.HTTPGetAction{Path: path, Port: port}}
}

func TestNginxPassesHTTPProbesOnItsPortAndPath(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx:1.25"})

	assert.Equal(t, fakeruntime.ProbeResult{Success: true}, probe(t, n, id, httpGet(fakeruntime.ReadinessProbe, "/", 80)))
	assert.Equal(t, fakeruntime.ProbeResult{Output: "HTTP probe failed with statuscode: 404"},
		probe(t, n, id, httpGet(fakeruntime.LivenessProbe, "/healthz", 80)), "nginx has no /healthz")
	assert.Equal(t, fakeruntime.ProbeResult{Output: `Get "http://10.244.1.2:8080/": dial tcp 10.244.1.2:8080: connect: connection refused`},
		probe(t, n, id, httpGet(fakeruntime.LivenessProbe, "/", 8080)))
	assert.True(t, probe(t, n, id, fakeruntime.Probe{Type: fakeruntime.LivenessProbe, TCPSocket: &fakeruntime.TCPSocketAction{Port: 80}}).Success)
}

func TestSlowStarterRefusesConnectionsUntilItsStartDelay(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "slow", fakeruntime.ContainerConfig{Image: "redis", Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvStartDelay, Value: "30s"}}})
	tcp := fakeruntime.Probe{Type: fakeruntime.StartupProbe, TCPSocket: &fakeruntime.TCPSocketAction{Port: 6379}}
	exec := fakeruntime.Probe{Type: fakeruntime.ReadinessProbe, Exec: &fakeruntime.ExecAction{Command: []string{"redis-cli", "ping"}}}

	n.clk.Advance(29 * time.Second)
	assert.Equal(t, fakeruntime.ProbeResult{Output: "dial tcp 10.244.1.2:6379: connect: connection refused"}, probe(t, n, id, tcp))
	assert.False(t, probe(t, n, id, exec).Success)
	n.clk.Advance(time.Second)
	assert.True(t, probe(t, n, id, tcp).Success)
	assert.Equal(t, fakeruntime.ProbeResult{Success: true, Output: "PONG"}, probe(t, n, id, exec))
}

func TestProbeFailuresOnDemand(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "sick", fakeruntime.ContainerConfig{Image: "nginx", Envs: []fakeruntime.KeyValue{
		{Key: fakeruntime.EnvFailLivenessAfter, Value: "60s"}, {Key: fakeruntime.EnvFailReadiness, Value: "true"}}})

	assert.True(t, probe(t, n, id, httpGet(fakeruntime.LivenessProbe, "/", 80)).Success)
	assert.Equal(t, "HTTP probe failed with statuscode: 503", probe(t, n, id, httpGet(fakeruntime.ReadinessProbe, "/", 80)).Output)
	n.clk.Advance(time.Minute)
	assert.Equal(t, "HTTP probe failed with statuscode: 500", probe(t, n, id, httpGet(fakeruntime.LivenessProbe, "/", 80)).Output)
}

// The liveness exec example from the Kubernetes docs ("Configure Liveness, Readiness and Startup
// Probes"): the file exists for 30 seconds, then the probe fails.
func TestExecProbeSeesTheFilesTheCommandCreatesAndRemoves(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "liveness-exec", fakeruntime.ContainerConfig{Image: "busybox",
		Args: []string{"/bin/sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"}})
	cat := fakeruntime.Probe{Type: fakeruntime.LivenessProbe, Exec: &fakeruntime.ExecAction{Command: []string{"cat", "/tmp/healthy"}}}

	n.clk.Advance(10 * time.Second)
	assert.Equal(t, fakeruntime.ProbeResult{Success: true}, probe(t, n, id, cat))
	n.clk.Advance(25 * time.Second)
	assert.Equal(t, fakeruntime.ProbeResult{Output: "cat: can't open '/tmp/healthy': No such file or directory"}, probe(t, n, id, cat))
	assert.Equal(t, fakeruntime.ContainerRunning, n.status(t, id).State)
}

func TestExecProbeInADistrolessImageCannotFindItsShell(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	sb := sandboxConfig("app")
	sid, err := n.rt.RunPodSandbox(ctx, sb)
	require.NoError(t, err)
	_, err = n.rt.PullImage(ctx, "registry.example.com/private/app:1.0",
		&fakeruntime.AuthConfig{Username: fakeruntime.PrivateRegistryUsername, Password: fakeruntime.PrivateRegistryPassword})
	require.NoError(t, err)
	id, err := n.rt.CreateContainer(ctx, sid, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "app"}, Image: "registry.example.com/private/app:1.0"}, sb)
	require.NoError(t, err)
	require.NoError(t, n.rt.StartContainer(ctx, id))

	assert.True(t, probe(t, n, id, httpGet(fakeruntime.ReadinessProbe, "/readyz", 8080)).Success)
	res := probe(t, n, id, fakeruntime.Probe{Type: fakeruntime.LivenessProbe, Exec: &fakeruntime.ExecAction{Command: []string{"sh", "-c", "true"}}})
	assert.Equal(t, `OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown`, res.Output)
}

func TestProbingAnExitedContainerFails(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "done", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"true"}})
	res := probe(t, n, id, httpGet(fakeruntime.LivenessProbe, "/", 80))
	assert.Equal(t, fakeruntime.ProbeResult{Output: "container is in CONTAINER_EXITED state"}, res)
}
