package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
)

// A kubelet registers its Node with capacity, allocatable (capacity - reserved - hard eviction
// threshold), labels and Ready=True, then renews its Lease every 10 seconds. Nothing is reserved by
// default (--kube-reserved and --system-reserved are empty, pkg/kubelet/apis/config/v1beta1/defaults.go),
// so a 4-CPU node offers all 4 CPUs and its memory less the 100Mi memory.available eviction threshold
// (pkg/kubelet/cm/node_container_manager_linux.go, GetNodeAllocatableAbsolute).
func TestKubeletRegistersReadyNodeAndRenewsLease(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	runUntil(t, ctx, c, "node-1 registered", func() bool {
		_, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil
	})
	n := getNode(t, ctx, c, "node-1")
	assert.Equal(t, "4", n.Status.Capacity.Cpu().String())
	assert.Equal(t, "4", n.Status.Allocatable.Cpu().String())
	assert.Equal(t, "8Gi", n.Status.Capacity.Memory().String())
	mem := n.Status.Allocatable.Memory()
	assert.Equal(t, int64(8<<30-100<<20), mem.Value())
	assert.Equal(t, "node-1", n.Labels[api.LabelHostname])
	assert.Equal(t, "linux", n.Labels[api.LabelOSStable])
	assert.Equal(t, "amd64", n.Labels[api.LabelArchStable])
	assert.Equal(t, "zone-a", n.Labels[api.LabelTopologyZone])
	assert.Equal(t, "10.244.1.0/24", n.Spec.PodCIDR)
	assert.Equal(t, "containerd://2.0.2", n.Status.NodeInfo.ContainerRuntimeVersion)
	ready := nodeCondition(n, api.NodeReady)
	require.NotNil(t, ready)
	assert.Equal(t, api.ConditionTrue, ready.Status)
	assert.Equal(t, "KubeletReady", ready.Reason)
	assert.Equal(t, "kubelet is posting ready status", ready.Message)
	assert.Equal(t, "KubeletHasSufficientMemory", nodeCondition(n, api.NodeMemoryPressure).Reason)
	assert.Equal(t, "KubeletHasNoDiskPressure", nodeCondition(n, api.NodeDiskPressure).Reason)
	assert.Equal(t, "KubeletHasSufficientPID", nodeCondition(n, api.NodePIDPressure).Reason)

	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	lease, err := client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)
	assert.Equal(t, "node-1", *lease.Spec.HolderIdentity)
	assert.Equal(t, int32(40), *lease.Spec.LeaseDurationSeconds)
	assert.WithinDuration(t, c.Now(), lease.Spec.RenewTime.Time, 10*time.Second)
	assert.Equal(t, "Node", lease.OwnerReferences[0].Kind)

	dumpTrace(t, c)
	assert.Contains(t, events(t, ctx, c, "node-1"), "NodeReady: Node node-1 status is now: NodeReady")
}
