package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

func logText(t *testing.T, n *node, id string, tail int) []string {
	t.Helper()
	lines, err := n.rt.ContainerLogs(context.Background(), id, tail)
	require.NoError(t, err)
	var out []string
	for _, l := range lines {
		out = append(out, l.Time.Sub(t0).String()+" "+l.Stream+" "+l.Log)
	}
	return out
}

func TestBusyboxEchoLoopWritesLinesAtTheirTime(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "counter", fakeruntime.ContainerConfig{Image: "busybox",
		Command: []string{"sh", "-c", `echo "starting up"; while true; do date; echo tick >&2; sleep 5; done`}})
	// busybox pulled in 587ms, so the container started then.
	n.clk.Advance(12 * time.Second)
	assert.Equal(t, []string{
		"587ms stdout starting up",
		"587ms stdout Mon Jan  1 00:00:00 UTC 2024",
		"587ms stderr tick",
		"5.587s stdout Mon Jan  1 00:00:05 UTC 2024",
		"5.587s stderr tick",
		"10.587s stdout Mon Jan  1 00:00:10 UTC 2024",
		"10.587s stderr tick",
	}, logText(t, n, id, -1))
	assert.Equal(t, []string{"10.587s stdout Mon Jan  1 00:00:10 UTC 2024", "10.587s stderr tick"}, logText(t, n, id, 2))
	assert.Equal(t, fakeruntime.ContainerRunning, n.status(t, id).State, "the loop never ends")

	n.clk.Advance(time.Hour)
	assert.Len(t, logText(t, n, id, -1), 1000, "the log keeps at most 1000 lines")
}

func TestNginxLogsItsStartupAndEveryHTTPProbe(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx:1.25"})
	n.clk.Advance(10 * time.Second)
	_, err := n.rt.ProbeContainer(context.Background(), id, &fakeruntime.Probe{Type: fakeruntime.LivenessProbe, HTTPGet: &fakeruntime.HTTPGetAction{Path: "/", Port: 80}})
	require.NoError(t, err)
	require.NoError(t, n.rt.StopContainer(context.Background(), id, 30*time.Second))
	assert.Equal(t, []string{
		"3.339s stdout /docker-entrypoint.sh: Configuration complete; ready for start up",
		`3.339s stderr 2024/01/01 00:00:03 [notice] 1#1: using the "epoll" event method`,
		"3.339s stderr 2024/01/01 00:00:03 [notice] 1#1: nginx/1.25.5",
		"3.339s stderr 2024/01/01 00:00:03 [notice] 1#1: start worker processes",
		`13.339s stdout 10.244.1.1 - - [01/Jan/2024:00:00:13 +0000] "GET / HTTP/1.1" 200 615 "-" "kube-probe/1.32" "-"`,
		"13.339s stderr 2024/01/01 00:00:13 [notice] 1#1: signal 15 (SIGTERM) received, exiting",
	}, logText(t, n, id, -1))
}

func TestACrashLeavesItsLastWordsInTheLog(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "crash", fakeruntime.ContainerConfig{Image: "busybox",
		Command: []string{"sh", "-c", "echo working; sleep 3600"}, Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvCrashAfter, Value: "10s"}}})
	n.clk.Advance(time.Minute)
	assert.Equal(t, []string{
		"587ms stdout working",
		"10.587s stderr kubesim: crashing after 10s as asked (exit code 1)",
	}, logText(t, n, id, -1), "nothing is written after the exit")
}

// A container's process starts with the environment containerd gives it: the image's PATH, HOSTNAME
// (the pod's), the kubelet's variables in the kubelet's order, and HOME. env and printenv print it;
// the shell expands $NAME and ${NAME} (empty when unset), except inside single quotes; a command run
// without a shell sees "$NAME" as it is written.
func TestTheShellSeesTheContainersEnvironment(t *testing.T) {
	n := newNode(t)
	env := []fakeruntime.KeyValue{{Key: "GREETING", Value: "hello world"}, {Key: "WEB_SERVICE_HOST", Value: "10.96.0.10"}}
	sh := n.run(t, "sh", fakeruntime.ContainerConfig{Image: "busybox:1.36", Envs: env, Command: []string{"sh", "-c",
		`env; printenv WEB_SERVICE_HOST; printenv NOPE || echo "no NOPE"; echo $GREETING "${WEB_SERVICE_HOST}:80" '$GREETING' $NOPE x${NOPE}y`}})
	direct := n.run(t, "direct", fakeruntime.ContainerConfig{Image: "busybox:1.36", Envs: env, Command: []string{"echo", "$GREETING"}})
	assert.Equal(t, []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOSTNAME=sh",
		"GREETING=hello world",
		"WEB_SERVICE_HOST=10.96.0.10",
		"HOME=/root",
		"10.96.0.10",
		"no NOPE",
		"hello world 10.96.0.10:80 $GREETING xy",
	}, logLines(t, n, sh))
	assert.Equal(t, []string{"$GREETING"}, logLines(t, n, direct))
}

// logLines is a container's log, the text of each line.
func logLines(t *testing.T, n *node, id string) []string {
	t.Helper()
	lines, err := n.rt.ContainerLogs(context.Background(), id, -1)
	require.NoError(t, err)
	var out []string
	for _, l := range lines {
		out = append(out, l.Log)
	}
	return out
}

// A control-plane image comes preloaded on a control-plane node, and its container's log is the
// component's own (Options.ServerLog), up to when the container stopped; any other container's is
// the runtime's alone.
func TestAControlPlaneContainerLogsItsComponentsLines(t *testing.T) {
	clk := clock.NewVirtual(t0)
	var asked []string
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "control-plane", PodCIDR: "10.244.0.0/24",
		Preloaded: []string{fakeruntime.KubeadmImages["kube-apiserver"]},
		ServerLog: func(server string, until time.Time) []fakeruntime.LogLine {
			asked = append(asked, server+" until "+until.Sub(t0).String())
			return []fakeruntime.LogLine{{Time: t0.Add(2 * time.Second), Stream: "stderr", Log: "I0101 00:00:02.000000       1 kube-apiserver] ready"}}
		}})
	require.NoError(t, err)
	images, err := rt.ListImages(context.Background())
	require.NoError(t, err)
	var tags []string
	for _, img := range images {
		tags = append(tags, img.RepoTags...)
	}
	assert.ElementsMatch(t, []string{"registry.k8s.io/pause:3.10", "registry.k8s.io/kube-apiserver:v1.34.1"}, tags)

	n := &node{clk: clk, rt: rt}
	id := n.run(t, "kube-apiserver-control-plane", fakeruntime.ContainerConfig{Image: fakeruntime.KubeadmImages["kube-apiserver"],
		Command: []string{"kube-apiserver", "--secure-port=6443"}})
	assert.Equal(t, fakeruntime.ContainerRunning, n.status(t, id).State, "kube-apiserver serves")
	clk.Advance(5 * time.Second)
	assert.Equal(t, []string{"2s stderr I0101 00:00:02.000000       1 kube-apiserver] ready"}, logText(t, n, id, -1))
	require.NoError(t, rt.StopContainer(context.Background(), id, 30*time.Second))
	clk.Advance(time.Minute)
	logText(t, n, id, 10)
	require.Len(t, asked, 2)
	assert.Regexp(t, `^kube-apiserver until \d`, asked[0])
	assert.Equal(t, asked[0], asked[1], "asked up to now, then up to the stop, which was then")

	web := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx:1.25"})
	clk.Advance(10 * time.Second)
	assert.NotContains(t, logText(t, n, web, -1), "2s stderr I0101 00:00:02.000000       1 kube-apiserver] ready")
	assert.Len(t, asked, 2, "nginx's log is the runtime's own")

	_, err = fakeruntime.New(fakeruntime.Options{Clock: clk, Preloaded: []string{"registry.k8s.io/kube-proxy:v9.9.9"}})
	assert.EqualError(t, err, `fakeruntime: preloaded image "registry.k8s.io/kube-proxy:v9.9.9" is not in any registry`)
}
