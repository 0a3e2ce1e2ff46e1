package fakeruntime_test

import (
	"context"
	"fmt"
	"time"

	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

// A kubelet's view of one pod: sandbox, pull, create, start, then a relist after the container
// has run out of memory.
func Example() {
	ctx := context.Background()
	clk := clock.NewVirtual(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	rt, _ := fakeruntime.New(fakeruntime.Options{Clock: clk, NodeName: "node-1", PodCIDR: "10.244.1.0/24"})

	pod := &fakeruntime.PodSandboxConfig{Metadata: fakeruntime.PodSandboxMetadata{Name: "leaky", Namespace: "default", UID: "1234"}}
	sandboxID, _ := rt.RunPodSandbox(ctx, pod)
	sandbox, _ := rt.PodSandboxStatus(ctx, sandboxID)
	fmt.Println("sandbox", sandbox.State, "IP", sandbox.Network.IP)

	_, err := rt.PullImage(ctx, "ngnix:1.25", nil)
	fmt.Println("pull ngnix:", fakeruntime.CodeOf(err))
	start := clk.Now()
	_, _ = rt.PullImage(ctx, "nginx:1.25", nil)
	fmt.Println("pulled nginx:1.25 in", clk.Since(start))

	id, _ := rt.CreateContainer(ctx, sandboxID, &fakeruntime.ContainerConfig{
		Metadata:  fakeruntime.ContainerMetadata{Name: "web"},
		Image:     "nginx:1.25",
		Envs:      []fakeruntime.KeyValue{{Key: fakeruntime.EnvMemoryGrowth, Value: "8Mi/s"}},
		Resources: &fakeruntime.LinuxContainerResources{MemoryLimitInBytes: 64 << 20},
	}, pod)
	_ = rt.StartContainer(ctx, id)
	st, _ := rt.ContainerStatus(ctx, id)
	fmt.Println(st.Metadata.Name, st.State)

	clk.AdvanceToNext() // the step driver jumps to the next timer: the OOM kill
	st, _ = rt.ContainerStatus(ctx, id)
	fmt.Println(st.Metadata.Name, st.State, st.ExitCode, st.Reason, "after", st.FinishedAt.Sub(st.StartedAt))

	// Output:
	// sandbox SANDBOX_READY IP 10.244.1.2
	// pull ngnix: Unknown
	// pulled nginx:1.25 in 3.339s
	// web CONTAINER_RUNNING
	// web CONTAINER_EXITED 137 OOMKilled after 7s
}
