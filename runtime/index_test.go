package fakeruntime_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fakeruntime "kubesim/runtime"
)

// labelledPod starts a pod as the kubelet does, with the pod uid label on its sandbox and its
// containers, one container per command, and returns the sandbox ID and the container IDs.
func labelledPod(t *testing.T, n *node, name string, commands ...[]string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	labels := map[string]string{fakeruntime.LabelPodName: name, fakeruntime.LabelPodNamespace: "default", fakeruntime.LabelPodUID: "uid-" + name}
	sb := &fakeruntime.PodSandboxConfig{Metadata: fakeruntime.PodSandboxMetadata{Name: name, Namespace: "default", UID: "uid-" + name}, Labels: labels}
	sid, err := n.rt.RunPodSandbox(ctx, sb)
	require.NoError(t, err)
	var ids []string
	for i, cmd := range commands {
		cfg := &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: string(rune('a' + i))}, Image: "busybox", Command: cmd, Labels: labels}
		id, err := n.rt.CreateContainer(ctx, sid, cfg, sb)
		require.NoError(t, err)
		require.NoError(t, n.rt.StartContainer(ctx, id))
		ids = append(ids, id)
	}
	return sid, ids
}

// listed is what a list reports, as "id state" pairs.
func listed[T any](t *testing.T, list []*T, err error, describe func(*T) string) []string {
	t.Helper()
	require.NoError(t, err)
	out := []string{}
	for _, e := range list {
		out = append(out, describe(e))
	}
	return out
}

func containerLine(c *fakeruntime.Container) string { return c.ID[:8] + " " + c.State.String() }
func sandboxLine(s *fakeruntime.PodSandbox) string  { return s.ID[:8] + " " + s.State.String() }

func line(id string, state interface{ String() string }) string { return id[:8] + " " + state.String() }

// The lists come from the index (creation order, by pod uid) and, unfiltered, from the last answer
// while nothing changed: every change must show, the calls' and the clock's alike.
func TestListsFollowEveryChangeInCreationOrder(t *testing.T) {
	n := newNode(t)
	ctx := context.Background()
	_, err := n.rt.PullImage(ctx, "busybox", nil)
	require.NoError(t, err)
	forever, sleep5 := []string{"sleep", "infinity"}, []string{"sleep", "5"}
	sa, a := labelledPod(t, n, "a", forever, sleep5)
	sb, b := labelledPod(t, n, "b", forever)
	sc, c := labelledPod(t, n, "c", sleep5, forever)
	running, exited := fakeruntime.ContainerRunning, fakeruntime.ContainerExited
	ready, notReady := fakeruntime.SandboxReady, fakeruntime.SandboxNotReady

	all := func() []string {
		list, err := n.rt.ListContainers(ctx, nil)
		return listed(t, list, err, containerLine)
	}
	sandboxes := func() []string {
		list, err := n.rt.ListPodSandbox(ctx, nil)
		return listed(t, list, err, sandboxLine)
	}
	byUID := func(uid string, extra ...string) []string {
		sel := map[string]string{fakeruntime.LabelPodUID: uid}
		if len(extra) == 2 {
			sel[extra[0]] = extra[1]
		}
		list, err := n.rt.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: sel})
		return listed(t, list, err, containerLine)
	}
	sandboxesOf := func(uid string) []string {
		list, err := n.rt.ListPodSandbox(ctx, &fakeruntime.PodSandboxFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: uid}})
		return listed(t, list, err, sandboxLine)
	}

	assert.Equal(t, []string{line(a[0], running), line(a[1], running), line(b[0], running), line(c[0], running), line(c[1], running)}, all())
	assert.Equal(t, []string{line(sa, ready), line(sb, ready), line(sc, ready)}, sandboxes())
	assert.Equal(t, []string{line(c[0], running), line(c[1], running)}, byUID("uid-c"))
	assert.Equal(t, []string{line(c[0], running), line(c[1], running)}, byUID("uid-c", fakeruntime.LabelPodName, "c"))
	assert.Empty(t, byUID("uid-c", fakeruntime.LabelPodName, "b"), "the rest of the selector still applies")
	assert.Empty(t, byUID("uid-none"))

	first, err := n.rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	again, err := n.rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	require.Len(t, again, len(first))
	for i := range first {
		assert.Same(t, first[i], again[i], "an unchanged container is the same entry")
	}
	assert.Same(t, &first[0], &again[0], "an unchanged unfiltered list is the same slice, not a copy")
	grown := append(again, nil) // an append makes a new array: the cached answer is untouched
	assert.NotSame(t, &again[0], &grown[0])
	assert.Len(t, all(), 5)

	// The clock alone: the sleeps end at 5s.
	n.clk.Advance(4 * time.Second)
	assert.Equal(t, line(a[1], running), all()[1])
	n.clk.Advance(time.Second)
	assert.Equal(t, []string{line(a[0], running), line(a[1], exited), line(b[0], running), line(c[0], exited), line(c[1], running)}, all())
	assert.Equal(t, []string{line(a[0], running), line(a[1], exited)}, byUID("uid-a"))

	// Calls: a stop, a removal from the middle, a sandbox stopped and one removed.
	require.NoError(t, n.rt.StopContainer(ctx, b[0], 0))
	assert.Equal(t, line(b[0], exited), all()[2])
	require.NoError(t, n.rt.RemoveContainer(ctx, a[1]))
	assert.Equal(t, []string{line(a[0], running), line(b[0], exited), line(c[0], exited), line(c[1], running)}, all())
	assert.Equal(t, []string{line(a[0], running)}, byUID("uid-a"))
	require.NoError(t, n.rt.StopPodSandbox(ctx, sa))
	assert.Equal(t, []string{line(sa, notReady), line(sb, ready), line(sc, ready)}, sandboxes())
	assert.Equal(t, line(a[0], exited), all()[0])
	require.NoError(t, n.rt.RemovePodSandbox(ctx, sb))
	assert.Equal(t, []string{line(sa, notReady), line(sc, ready)}, sandboxes())
	assert.Equal(t, []string{line(a[0], exited), line(c[0], exited), line(c[1], running)}, all())
	assert.Empty(t, byUID("uid-b"))
	assert.Empty(t, sandboxesOf("uid-b"))
	assert.Equal(t, []string{line(sc, ready)}, sandboxesOf("uid-c"))

	// A new sandbox for a pod comes after its old one; a crash stops everything.
	sa2, err := n.rt.RunPodSandbox(ctx, &fakeruntime.PodSandboxConfig{Metadata: fakeruntime.PodSandboxMetadata{Name: "a", Namespace: "default", UID: "uid-a", Attempt: 1},
		Labels: map[string]string{fakeruntime.LabelPodUID: "uid-a"}})
	require.NoError(t, err)
	assert.Equal(t, []string{line(sa, notReady), line(sa2, ready)}, sandboxesOf("uid-a"))
	n.rt.SetFault(fakeruntime.FaultKill{})
	n.rt.ClearFault()
	assert.Equal(t, []string{line(sa, notReady), line(sc, notReady), line(sa2, notReady)}, sandboxes())
	assert.Equal(t, []string{line(a[0], exited), line(c[0], exited), line(c[1], exited)}, all())
}
