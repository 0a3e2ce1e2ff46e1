package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fakeruntime "kubesim/runtime"
)

func TestBusyboxSleepRunsThenCompletesWithExitCode0(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "sleeper", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"sleep", "10"}})
	started := n.clk.Now()

	st := n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerRunning, st.State)
	assert.Equal(t, started, st.StartedAt)
	assert.True(t, st.FinishedAt.IsZero())

	assert.True(t, n.clk.AdvanceToNext(), "the exit is a clock timer, so a step driver stops there")
	assert.Equal(t, started.Add(10*time.Second), n.clk.Now())
	st = n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(0), st.ExitCode)
	assert.Equal(t, "Completed", st.Reason)
	assert.Equal(t, started.Add(10*time.Second), st.FinishedAt)
	assert.Equal(t, "docker.io/library/busybox:latest", st.Image)
}

func TestCommandsThatFailExitWithCode1RightAfterStart(t *testing.T) {
	n := newNode(t)
	for pod, cmd := range map[string][]string{
		"sh-exit": {"sh", "-c", "exit 1"},
		"false":   {"false"},
		"chain":   {"sh", "-c", "echo starting && false"},
	} {
		id := n.run(t, pod, fakeruntime.ContainerConfig{Image: "busybox:1.36", Command: cmd})
		st := n.status(t, id)
		assert.Equal(t, fakeruntime.ContainerExited, st.State, pod)
		assert.Equal(t, int32(1), st.ExitCode, pod)
		assert.Equal(t, "Error", st.Reason, pod)
	}
}

func TestBusyboxWithoutCommandExitsAtOnce(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "bb", fakeruntime.ContainerConfig{Image: "busybox"})
	st := n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerExited, st.State, "sh without stdin reads EOF and exits")
	assert.Equal(t, "Completed", st.Reason)
}

func TestCrashAfterExitsAtThatClockTime(t *testing.T) {
	n := newNode(t)
	byEnv := n.run(t, "env", fakeruntime.ContainerConfig{Image: "nginx:1.25",
		Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvCrashAfter, Value: "10s"}, {Key: fakeruntime.EnvExitCode, Value: "3"}}})
	byArg := n.run(t, "arg", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"sleep", "3600"}, Args: []string{"kubesim-crash-after=20s"}})

	n.clk.Advance(9 * time.Second)
	assert.Equal(t, fakeruntime.ContainerRunning, n.status(t, byEnv).State)
	n.clk.Advance(time.Second)
	st := n.status(t, byEnv)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(3), st.ExitCode)
	assert.Equal(t, "Error", st.Reason)
	assert.Equal(t, fakeruntime.ContainerRunning, n.status(t, byArg).State)
	n.clk.Advance(10 * time.Second)
	assert.Equal(t, int32(1), n.status(t, byArg).ExitCode)
}

func TestMemoryGrowthPastTheLimitIsOOMKilledWith137(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "leak", fakeruntime.ContainerConfig{Image: "nginx:1.25",
		Envs:      []fakeruntime.KeyValue{{Key: fakeruntime.EnvMemoryGrowth, Value: "10Mi/s"}},
		Resources: &fakeruntime.LinuxContainerResources{MemoryLimitInBytes: 128 << 20}})
	started := n.clk.Now()

	stats, err := n.rt.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, uint64(8<<20), stats.MemoryWorkingSetBytes, "nginx starts at its base working set")
	n.clk.Advance(5 * time.Second)
	stats, err = n.rt.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, uint64(58<<20), stats.Containers[0].MemoryWorkingSetBytes)

	require.True(t, n.clk.AdvanceToNext())
	st := n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(137), st.ExitCode)
	assert.Equal(t, "OOMKilled", st.Reason)
	assert.Equal(t, 12*time.Second, st.FinishedAt.Sub(started), "(128Mi - 8Mi) / 10Mi/s")
	stats, err = n.rt.Stats(context.Background())
	require.NoError(t, err)
	assert.Empty(t, stats.Containers, "only running containers use memory")
}

func TestMissingExecutableIsAStartErrorWithExitCode128(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	sb := sandboxConfig("typo")
	sid, err := n.rt.RunPodSandbox(ctx, sb)
	require.NoError(t, err)
	_, err = n.rt.PullImage(ctx, "nginx:1.25", nil)
	require.NoError(t, err)
	id, err := n.rt.CreateContainer(ctx, sid, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "web"}, Image: "nginx:1.25", Command: []string{"ngnix"}}, sb)
	require.NoError(t, err)
	err = n.rt.StartContainer(ctx, id)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `exec: "ngnix": executable file not found in $PATH`)
	st := n.status(t, id)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(128), st.ExitCode)
	assert.Equal(t, "StartError", st.Reason)
	assert.Contains(t, st.Message, "executable file not found")
}

func TestStopContainerGracePeriodDependsOnWhetherPID1HandlesSIGTERM(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	web := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx:1.25"})
	sleeper := n.run(t, "sleeper", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"sleep", "3600"}})

	before := n.clk.Now()
	require.NoError(t, n.rt.StopContainer(ctx, web, 30*time.Second))
	assert.Equal(t, before, n.clk.Now(), "nginx exits on SIGTERM at once")
	st := n.status(t, web)
	assert.Equal(t, int32(0), st.ExitCode)
	assert.Equal(t, "Completed", st.Reason)

	require.NoError(t, n.rt.StopContainer(ctx, sleeper, 30*time.Second))
	assert.Equal(t, 30*time.Second, n.clk.Since(before), "sleep as PID 1 ignores SIGTERM: the whole grace period passes")
	st = n.status(t, sleeper)
	assert.Equal(t, int32(137), st.ExitCode)
	assert.Equal(t, "Error", st.Reason)

	assert.NoError(t, n.rt.StopContainer(ctx, sleeper, 30*time.Second), "stopping an exited container succeeds")
	require.NoError(t, n.rt.RemoveContainer(ctx, sleeper))
	_, err := n.rt.ContainerStatus(ctx, sleeper)
	assert.EqualError(t, err, `rpc error: code = NotFound desc = an error occurred when try to find container "`+sleeper+`": not found`)
}

func TestStopContainerReturnsWhenTheProcessExitsDuringTheGracePeriod(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "short", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"sleep", "5"}})
	before := n.clk.Now()
	require.NoError(t, n.rt.StopContainer(context.Background(), id, 30*time.Second))
	assert.Equal(t, 5*time.Second, n.clk.Since(before))
	assert.Equal(t, int32(0), n.status(t, id).ExitCode, "it finished its sleep before SIGKILL")
}

func TestCreatingTheSameAttemptTwiceHitsContainerdsNameReservation(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	first := n.run(t, "web", fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "nginx"}, Image: "nginx:1.25"})
	list, err := n.rt.ListPodSandbox(ctx, nil)
	require.NoError(t, err)
	_, err = n.rt.CreateContainer(ctx, list[0].ID, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "nginx"}, Image: "nginx:1.25"}, nil)
	assert.EqualError(t, err, `rpc error: code = Unknown desc = failed to reserve container name "nginx_web_default_uid-web_0": name "nginx_web_default_uid-web_0" is reserved for "`+first+`"`)
	_, err = n.rt.CreateContainer(ctx, list[0].ID, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "nginx", Attempt: 1}, Image: "nginx:1.25"}, nil)
	assert.NoError(t, err, "the next attempt (restart) gets a new name")
	_, err = n.rt.CreateContainer(ctx, list[0].ID, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "redis"}, Image: "redis"}, nil)
	assert.True(t, fakeruntime.IsNotFound(err), "the kubelet must pull first")
}

func TestListContainersFiltersByStateAndSandbox(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	running := n.run(t, "a", fakeruntime.ContainerConfig{Image: "nginx"})
	exited := n.run(t, "b", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"true"}})

	all, err := n.rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	require.Len(t, all, 2)
	assert.Equal(t, running, all[0].ID)
	assert.Equal(t, exited, all[1].ID)

	state := fakeruntime.ContainerExited
	only, err := n.rt.ListContainers(ctx, &fakeruntime.ContainerFilter{State: &state})
	require.NoError(t, err)
	require.Len(t, only, 1)
	assert.Equal(t, exited, only[0].ID)
	only, err = n.rt.ListContainers(ctx, &fakeruntime.ContainerFilter{PodSandboxID: all[0].PodSandboxID})
	require.NoError(t, err)
	require.Len(t, only, 1)
	assert.Equal(t, running, only[0].ID)
}

func TestBadSteeringValueMakesTheContainerExit2(t *testing.T) {
	n := newNode(t)
	id := n.run(t, "bad", fakeruntime.ContainerConfig{Image: "nginx", Envs: []fakeruntime.KeyValue{{Key: fakeruntime.EnvStartDelay, Value: "soon"}}})
	st := n.status(t, id)
	assert.Equal(t, int32(2), st.ExitCode)
	logs, err := n.rt.ContainerLogs(context.Background(), id, 1)
	require.NoError(t, err)
	require.Len(t, logs, 1)
	assert.Equal(t, `kubesim: invalid KUBESIM_START_DELAY="soon": want a duration such as 30s`, logs[0].Log)
}
