package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/kubelet"
	"kubesim/sim"
)

// withDisk gives node-1 a disk of size.
func withDisk(size string) func(*kubelet.NodeConfig) {
	return func(cfg *kubelet.NodeConfig) {
		cfg.Capacity[resource.ResourceEphemeralStorage] = resource.MustParse(size)
	}
}

// writer is a pod whose container writes rate to its writable layer.
func writer(name, rate string) *api.Pod {
	p := newPod(name, "node-1", "busybox:1.36")
	p.Spec.Containers[0].Command = []string{"sleep", "infinity"}
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_DISK_GROWTH", Value: rate}}
	return p
}

// leaveImages runs a pod with two images and deletes it: the images stay on node-1, unused.
func leaveImages(t *testing.T, c *sim.Cluster) {
	ctx := t.Context()
	old := newPod("old", "node-1", "nginx:1.25")
	old.Spec.Containers = append(old.Spec.Containers, api.Container{Name: "httpd", Image: "httpd:2.4"})
	createPod(t, ctx, c, old)
	runUntil(t, ctx, c, "old running", func() bool { return getPod(t, ctx, c, "old").Status.Phase == api.PodRunning })
	deletePod(t, c, "old")
}

func deletePod(t *testing.T, c *sim.Cluster, name string) {
	ctx := t.Context()
	require.NoError(t, c.Kubectl.Delete(ctx, "pod", "default", name, client.DeleteOptions{}))
	runUntil(t, ctx, c, name+" gone", func() bool {
		_, err := c.Kubectl.Get(ctx, "pod", "default", name)
		return err != nil
	})
}

// Under disk pressure the eviction manager first reclaims what belongs to the node
// (pkg/kubelet/eviction/eviction_manager.go, reclaimNodeLevelResources: dead containers, then unused
// images older than imageMinimumGCAge, least recently used first) and evicts no one if that is
// enough; only when it is not does it evict, ranking as rankDiskPressureFunc does (usage over the
// ephemeral-storage request first). The threshold is imagefs.available<15% (the same disk as nodefs,
// so it is crossed first), printed as the kubelet computes it from a float32 percentage.
func TestDiskPressureReclaimsUnusedImagesBeforeEvicting(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, withDisk("1Gi"))
	leaveImages(t, c)
	// The image collector first sees the images at its next run, 5 minutes after the kubelet
	// started; they may be deleted 2 minutes after that.
	runUntil(t, ctx, c, "5m10s", func() bool { return c.Clock.Since(sim.Epoch) > 5*time.Minute+10*time.Second })
	calm := newPod("calm", "node-1", "nginx:1.27")
	calm.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceEphemeralStorage: resource.MustParse("100Mi")}
	createPod(t, ctx, c, calm)
	createPod(t, ctx, c, writer("writer", "4Mi/s"))

	runUntil(t, ctx, c, "images reclaimed", func() bool { return traceHas(c, "disk reclaimed without evicting a pod") })
	assert.True(t, traceHas(c, "removed image docker.io/library/nginx:1.25"), "an unused image goes first")
	assert.True(t, traceHas(c, "removed image docker.io/library/httpd:2.4"))
	assert.False(t, traceHas(c, "removed image docker.io/library/busybox:1.36"), "an image in use stays")
	assert.Contains(t, events(t, ctx, c, "node-1"), "EvictionThresholdMet: Attempting to reclaim ephemeral-storage")
	assert.Equal(t, api.PodRunning, getPod(t, ctx, c, "writer").Status.Phase, "reclaiming images was enough, for now")

	runUntil(t, ctx, c, "writer evicted", func() bool { return getPod(t, ctx, c, "writer").Status.Reason == "Evicted" })
	p := getPod(t, ctx, c, "writer")
	assert.Regexp(t, `^The node was low on resource: ephemeral-storage\. Threshold quantity: 161061280, available: \d+Ki\. `+
		`Container writer was using \d+Ki, request is 0, has larger consumption of ephemeral-storage\. $`, p.Status.Message)
	assert.Equal(t, api.ConditionTrue, condition(p, "DisruptionTarget"))
	assert.Equal(t, api.PodRunning, getPod(t, ctx, c, "calm").Status.Phase, "calm uses less than it requested")
	runUntil(t, ctx, c, "DiskPressure", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeDiskPressure).Status == api.ConditionTrue
	})
	n := nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeDiskPressure)
	assert.Equal(t, "KubeletHasDiskPressure", n.Reason)
	assert.Equal(t, "kubelet has disk pressure", n.Message)
	// While under disk pressure the kubelet admits no new pod, even one that skipped the scheduler
	// (the eviction manager's Admit): it fails at once, as an evicted pod does.
	late := newPod("late", "node-1", "nginx:1.27")
	late.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceCPU: resource.MustParse("100m")}
	createPod(t, ctx, c, late)
	runUntil(t, ctx, c, "late rejected", func() bool { return getPod(t, ctx, c, "late").Status.Phase == api.PodFailed })
	rejected := getPod(t, ctx, c, "late")
	assert.Equal(t, "Evicted", rejected.Status.Reason)
	assert.Equal(t, "Pod was rejected: The node had condition: [DiskPressure]. ", rejected.Status.Message)
	assert.Contains(t, events(t, ctx, c, "late"), "Evicted: The node had condition: [DiskPressure]. ")
	// The evicted pod's writable layer goes with its containers, at the next reclaim or within a
	// minute (the container garbage collector).
	runUntil(t, ctx, c, "writer's sandbox removed", func() bool { return traceHas(c, "the pod was evicted") })
}

// A container over its limits.ephemeral-storage gets its pod evicted whatever the node's free space
// (localStorageEviction), with no DisruptionTarget condition: Kubernetes passes none for it.
func TestContainerOverItsEphemeralStorageLimitIsEvicted(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := writer("log", "1Mi/s")
	p.Spec.Containers[0].Resources.Limits = resource.ResourceList{resource.ResourceEphemeralStorage: resource.MustParse("10Mi")}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "log evicted", func() bool { return getPod(t, ctx, c, "log").Status.Reason == "Evicted" })
	got := getPod(t, ctx, c, "log")
	assert.Equal(t, `Container log exceeded its local ephemeral storage limit "10Mi". `, got.Status.Message)
	assert.Equal(t, api.PodFailed, got.Status.Phase)
	assert.Empty(t, condition(got, "DisruptionTarget"))
	assert.NotContains(t, events(t, ctx, c, "node-1"), "EvictionThresholdMet: Attempting to reclaim ephemeral-storage",
		"the node itself has room")
}

// The periodic image collection (every ImageGCPeriod, 5 minutes) frees images from 85% disk use down
// to 80%; when the unused images are not enough it records FreeDiskSpaceFailed, and when it fails
// again the next time, ImageGCFailed too (pkg/kubelet/kubelet.go StartGarbageCollection).
func TestImageGCThatCannotFreeEnoughRecordsFreeDiskSpaceFailed(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, func(cfg *kubelet.NodeConfig) {
		withDisk("1Gi")(cfg)
		cfg.EvictionHard = kubelet.EvictionThresholds{MemoryAvailable: resource.MustParse("100Mi")} // no disk eviction
	})
	p := writer("filler", "4Mi/s")
	p.Spec.RestartPolicy = api.RestartPolicyNever
	p.Spec.Containers[0].Env = append(p.Spec.Containers[0].Env, api.EnvVar{Name: "KUBESIM_CRASH_AFTER", Value: "230s"},
		api.EnvVar{Name: "KUBESIM_EXIT_CODE", Value: "0"})
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "ImageGCFailed", func() bool {
		return strings.Contains(strings.Join(events(t, ctx, c, "node-1"), "\n"), "ImageGCFailed")
	})
	all := strings.Join(events(t, ctx, c, "node-1"), "\n")
	assert.Regexp(t, `FreeDiskSpaceFailed: Failed to garbage collect required amount of images\. Attempted to free \d+ bytes, but only found 0 bytes eligible to free\.`, all)
	assert.Regexp(t, `ImageGCFailed: Failed to garbage collect required amount of images\.`, all)
	assert.NotContains(t, all, "EvictionThresholdMet")
}
