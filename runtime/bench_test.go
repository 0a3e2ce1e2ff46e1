package fakeruntime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

// BenchmarkCreateAndList10000Containers measures a large node: 10,000 pods of one nginx container
// each (a /18 podCIDR), then one relist, the PLEG's periodic call.
func BenchmarkCreateAndList10000Containers(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		rt := bigNode(b, ctx)
		list, err := rt.ListContainers(ctx, nil)
		require.NoError(b, err)
		require.Len(b, list, 10_000)
	}
}

// BenchmarkRelist10000Containers is the steady-state cost of the PLEG's relist over an idle node:
// one ListPodSandbox and one ListContainers, where nothing changed since the last.
func BenchmarkRelist10000Containers(b *testing.B) {
	ctx := context.Background()
	rt := bigNode(b, ctx)
	for b.Loop() {
		if _, err := rt.ListPodSandbox(ctx, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := rt.ListContainers(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPodSyncLists10000Containers is what each pod sync asks first on a node of 10,000 pods:
// the pod's sandboxes and containers, by the pod uid label.
func BenchmarkPodSyncLists10000Containers(b *testing.B) {
	ctx := context.Background()
	rt := bigNode(b, ctx)
	i := 0
	for b.Loop() {
		sel := map[string]string{fakeruntime.LabelPodUID: fmt.Sprint(i % 10_000)}
		sandboxes, err := rt.ListPodSandbox(ctx, &fakeruntime.PodSandboxFilter{LabelSelector: sel})
		if err != nil || len(sandboxes) != 1 {
			b.Fatal(len(sandboxes), err)
		}
		containers, err := rt.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: sel})
		if err != nil || len(containers) != 1 {
			b.Fatal(len(containers), err)
		}
		i++
	}
}

// bigNode is node "big" (a /18 podCIDR) with nginx:1.25 pulled and 10,000 running containers, one
// pod each, labelled as the kubelet labels them.
func bigNode(b *testing.B, ctx context.Context) *fakeruntime.Runtime {
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: clock.NewVirtual(t0), NodeName: "big", PodCIDR: "10.128.0.0/18"})
	require.NoError(b, err)
	_, err = rt.PullImage(ctx, "nginx:1.25", nil)
	require.NoError(b, err)
	for i := range 10_000 {
		labels := map[string]string{fakeruntime.LabelPodName: fmt.Sprint("p", i), fakeruntime.LabelPodNamespace: "default", fakeruntime.LabelPodUID: fmt.Sprint(i)}
		sb := &fakeruntime.PodSandboxConfig{Metadata: fakeruntime.PodSandboxMetadata{Name: fmt.Sprint("p", i), Namespace: "default", UID: fmt.Sprint(i)}, Labels: labels}
		sid, err := rt.RunPodSandbox(ctx, sb)
		require.NoError(b, err)
		id, err := rt.CreateContainer(ctx, sid, &fakeruntime.ContainerConfig{Metadata: fakeruntime.ContainerMetadata{Name: "web"}, Image: "nginx:1.25", Labels: labels}, sb)
		require.NoError(b, err)
		require.NoError(b, rt.StartContainer(ctx, id))
	}
	return rt
}
