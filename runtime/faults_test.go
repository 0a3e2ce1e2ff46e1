package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
	"kubesim/trace"
)

func TestDownRuntimeFailsFastWithConnectionRefused(t *testing.T) {
	n := newNode(t)
	n.rt.SetFault(fakeruntime.FaultDown{})
	_, err := n.rt.ListContainers(context.Background(), nil)
	assert.EqualError(t, err, `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"`)
	assert.Equal(t, fakeruntime.Unavailable, fakeruntime.CodeOf(err))
	assert.Equal(t, t0, n.clk.Now(), "no time passes")

	n.rt.ClearFault()
	_, err = n.rt.ListContainers(context.Background(), nil)
	assert.NoError(t, err)
}

func TestSlowRuntimeMakesEveryCallWaitOnTheClock(t *testing.T) {
	n := newNode(t)
	n.rt.SetFault(fakeruntime.FaultSlow{Delay: 3 * time.Second})
	_, err := n.rt.ListPodSandbox(context.Background(), nil)
	require.NoError(t, err)
	_, err = n.rt.Version(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 6*time.Second, n.clk.Since(t0))
}

func TestHungRuntimeFailsWithDeadlineExceededAfterTheRequestTimeout(t *testing.T) {
	n := newNode(t)
	n.rt.SetFault(fakeruntime.FaultHung{})
	_, err := n.rt.ListPodSandbox(context.Background(), nil)
	assert.EqualError(t, err, "rpc error: code = DeadlineExceeded desc = context deadline exceeded")
	assert.Equal(t, fakeruntime.DefaultRequestTimeout, n.clk.Since(t0), "the kubelet's --runtime-request-timeout of cluster time passed")
}

func TestHungRuntimeBlocksUntilTheCallersContextEnds(t *testing.T) {
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clock.NewReal(1), NodeName: "n", PodCIDR: "10.244.0.0/24", RequestTimeout: time.Hour})
	require.NoError(t, err)
	rt.SetFault(fakeruntime.FaultHung{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := rt.ListContainers(ctx, nil)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a hung call returned early: %v", err)
	case <-time.After(150 * time.Millisecond):
	}
	cancel()
	err = <-done
	assert.EqualError(t, err, "rpc error: code = Canceled desc = context canceled")
}

func TestHungCallProceedsWhenTheFaultIsCleared(t *testing.T) {
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clock.NewReal(1), NodeName: "n", PodCIDR: "10.244.0.0/24", RequestTimeout: time.Hour})
	require.NoError(t, err)
	rt.SetFault(fakeruntime.FaultHung{})
	done := make(chan error)
	go func() {
		_, err := rt.Version(context.Background())
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the call start hanging; the result does not depend on it
	rt.ClearFault()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the call stayed hung after ClearFault")
	}
}

func TestNodeCrashKillsEveryContainerWithExitCode255(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	web := n.run(t, "web", fakeruntime.ContainerConfig{Image: "nginx"})
	n.rt.SetFault(fakeruntime.FaultKill{})
	_, err := n.rt.ContainerStatus(ctx, web)
	assert.Equal(t, fakeruntime.Unavailable, fakeruntime.CodeOf(err), "a crashed node's runtime does not answer")

	n.clk.Advance(time.Minute)
	n.rt.ClearFault() // the node has rebooted
	st := n.status(t, web)
	assert.Equal(t, fakeruntime.ContainerExited, st.State)
	assert.Equal(t, int32(255), st.ExitCode)
	assert.Equal(t, "Unknown", st.Reason)
	assert.Equal(t, t0.Add(3418*time.Millisecond), st.FinishedAt, "it died at the crash")
	sandboxes, err := n.rt.ListPodSandbox(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, fakeruntime.SandboxNotReady, sandboxes[0].State, "the kubelet must create a new sandbox (attempt 1)")
}

func TestCanceledContextFailsBeforeAnything(t *testing.T) {
	n := newNode(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := n.rt.PullImage(ctx, "nginx", nil)
	assert.Equal(t, fakeruntime.Canceled, fakeruntime.CodeOf(err))
	img, err := n.rt.ImageStatus(context.Background(), "nginx")
	require.NoError(t, err)
	assert.Nil(t, img)
}

func TestTraceTellsThePullsSandboxesAndExits(t *testing.T) {
	clk := clock.NewVirtual(t0)
	rec := trace.NewRecorder(clk, true)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "node-1", PodCIDR: "10.244.1.0/24", Trace: rec})
	require.NoError(t, err)
	n := &node{clk: clk, rt: rt}
	n.run(t, "oops", fakeruntime.ContainerConfig{Image: "busybox", Command: []string{"sh", "-c", "sleep 2; exit 3"}})
	clk.AdvanceToNext()

	var story []string
	for _, e := range rec.Events() {
		if !e.Detail {
			story = append(story, e.Component+" "+e.Action+" "+e.Message)
		}
	}
	require.Len(t, story, 4)
	assert.Regexp(t, `^containerd/node-1 cni-add CNI ADD for sandbox [0-9a-f]{13}: eth0 gets 10.244.1.2/24 from podCIDR 10.244.1.0/24, default route via 10.244.1.1 \(cni0\)$`, story[0])
	assert.Regexp(t, `^containerd/node-1 run-sandbox started sandbox [0-9a-f]{13} \(registry.k8s.io/pause:3.10\) for pod default/oops, attempt 0, IP 10.244.1.2$`, story[1])
	assert.Regexp(t, `^containerd/node-1 pull pulled docker.io/library/busybox:latest \([0-9a-f]{13}, 2166802 bytes\) in 587ms$`, story[2])
	assert.Equal(t, "containerd/node-1 exit container main exited with code 3 (Error)", story[3])
}

// A call under Instant (a paused run's crictl) takes no cluster time: a slow runtime answers at once,
// a hung one fails at once with the deadline, one that is down refuses as ever.
func TestInstantCallsTakeNoClusterTime(t *testing.T) {
	n := newNode(t)
	ctx := fakeruntime.Instant(context.Background())
	n.rt.SetFault(fakeruntime.FaultSlow{Delay: 3 * time.Second})
	_, err := n.rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	n.rt.SetFault(fakeruntime.FaultHung{})
	_, err = n.rt.ListContainers(ctx, nil)
	assert.EqualError(t, err, "rpc error: code = DeadlineExceeded desc = context deadline exceeded")
	n.rt.SetFault(fakeruntime.FaultDown{})
	_, err = n.rt.ListContainers(ctx, nil)
	assert.Equal(t, fakeruntime.Unavailable, fakeruntime.CodeOf(err))
	assert.Equal(t, t0, n.clk.Now(), "no time passed")
}
