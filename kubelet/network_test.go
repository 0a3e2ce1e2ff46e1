package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/kubelet"
)

// A node whose CNI plugin needs the podCIDR (Flannel's does) is NotReady until the node IPAM
// controller gives it one, with the wording containerd and the kubelet use; no pod-network sandbox
// starts before, while a hostNetwork pod (a CNI plugin's own DaemonSet, say) needs no pod network:
// it runs at once with the node's IP as its pod IP and takes nothing from the range.
// https://kubernetes.io/docs/concepts/cluster-administration/networking/
func TestNodeIsNotReadyUntilItsPodCIDRArrives(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, func(cfg *kubelet.NodeConfig) { cfg.PodCIDR = "" })
	runUntil(t, ctx, c, "node-1 registered", func() bool {
		_, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil
	})
	ready := nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady)
	require.NotNil(t, ready)
	assert.Equal(t, api.ConditionFalse, ready.Status)
	assert.Equal(t, "KubeletNotReady", ready.Reason)
	assert.Equal(t, "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady "+
		"message:Network plugin returns error: cni plugin not initialized", ready.Message)

	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	agent := newPod("agent", "node-1", "nginx:1.25")
	agent.Spec.HostNetwork = true
	createPod(t, ctx, c, agent)
	runUntil(t, ctx, c, "agent Ready", func() bool { return condition(getPod(t, ctx, c, "agent"), api.PodReady) == api.ConditionTrue })
	a := getPod(t, ctx, c, "agent")
	assert.Equal(t, "192.168.0.11", a.Status.HostIP)
	assert.Equal(t, a.Status.HostIP, a.Status.PodIP, "a hostNetwork pod's IP is its node's")
	assert.Equal(t, []api.PodIP{{IP: "192.168.0.11"}}, a.Status.PodIPs)
	web := getPod(t, ctx, c, "web")
	assert.Empty(t, web.Status.PodIP, "no sandbox before the pod network is ready")
	assert.Contains(t, events(t, ctx, c, "web"), "NetworkNotReady: network is not ready: "+ready.Message)
	assert.Equal(t, api.ConditionFalse, nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status)

	// The node IPAM controller's write.
	node := getNode(t, ctx, c, "node-1")
	node.Spec.PodCIDR, node.Spec.PodCIDRs = "10.244.1.0/24", []string{"10.244.1.0/24"}
	_, err := client.For[api.Node](admin(c)).Update(ctx, node)
	require.NoError(t, err)
	runUntil(t, ctx, c, "node-1 Ready", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status == api.ConditionTrue
	})
	assert.Contains(t, events(t, ctx, c, "node-1"), "NodeReady: Node node-1 status is now: NodeReady")
	runUntil(t, ctx, c, "web Ready", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })
	assert.Equal(t, "10.244.1.2", getPod(t, ctx, c, "web").Status.PodIP, "the first address of the range: the hostNetwork pod took none")
}

// A DaemonSet on the host's network, as kube-proxy's or a CNI plugin's: one pod per node, each with
// its node's IP as its pod IP (status.podIP == status.hostIP), none from the node's podCIDR.
func TestHostNetworkDaemonSetPodsHaveTheirNodesIP(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(3))
	labels := map[string]string{"app": "agent"}
	_, err := client.For[api.DaemonSet](admin(c)).Create(ctx, &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: labels}, Template: api.PodTemplateSpec{
			ObjectMeta: api.ObjectMeta{Labels: labels},
			Spec: api.PodSpec{HostNetwork: true, Containers: []api.Container{{Name: "agent", Image: "nginx:1.25",
				Ports: []api.ContainerPort{{ContainerPort: 80}}}}},
		}},
	})
	require.NoError(t, err)
	var pods []*api.Pod
	runUntil(t, ctx, c, "3 agent pods Ready", func() bool {
		list, _, err := client.For[api.Pod](admin(c)).List(ctx, "default", client.ListOptions{LabelSelector: "app=agent"})
		require.NoError(t, err)
		pods = list
		ready := 0
		for _, p := range list {
			if condition(p, api.PodReady) == api.ConditionTrue {
				ready++
			}
		}
		return ready == 3
	})
	hosts := map[string]string{}
	for _, p := range pods {
		node := getNode(t, ctx, c, p.Spec.NodeName)
		assert.Equal(t, node.Status.Addresses[0].Address, p.Status.HostIP, "%s: the node's InternalIP", p.Name)
		assert.Equal(t, p.Status.HostIP, p.Status.PodIP, "%s: a hostNetwork pod's IP is its node's", p.Name)
		hosts[p.Spec.NodeName] = p.Status.PodIP
	}
	assert.Len(t, hosts, 3, "one pod per node, each with its own node's IP")
}

// A sync that finds the pod network not ready is retried sooner than other failed syncs: the pod
// worker waits backOffOnTransientErrorPeriod, 1 s plus up to 50% of jitter, not backOffPeriod's 10 s
// (pkg/kubelet/pod_workers.go completeWork, pkg/kubelet/kubelet.go SyncPod), and each retry records
// NetworkNotReady again.
func TestNetworkNotReadyIsRetriedEverySecond(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, func(cfg *kubelet.NodeConfig) { cfg.PodCIDR = "" })
	runUntil(t, ctx, c, "node-1 registered", func() bool {
		_, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil
	})
	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	require.NoError(t, c.Driver.Advance(ctx, 20*time.Second))

	retries := 0
	for _, e := range c.Trace.Events() {
		msg, ok := strings.CutPrefix(e.Message, "sync of default/web failed: network is not ready: container runtime network not ready: ")
		if !ok {
			continue
		}
		retries++
		i := strings.LastIndex(msg, "(retrying in ")
		require.Positive(t, i, msg)
		d, err := time.ParseDuration(strings.TrimSuffix(msg[i+len("(retrying in "):], ")"))
		require.NoError(t, err)
		assert.LessOrEqual(t, d, 2*time.Second, "1 s, its jitter and the sync tick: %s", msg)
		assert.GreaterOrEqual(t, d, time.Second, msg)
	}
	assert.GreaterOrEqual(t, retries, 10, "about one sync a second over 20 s")
	count := eventCount(t, ctx, c, "web", "NetworkNotReady")
	assert.GreaterOrEqual(t, count, int32(10), "NetworkNotReady counted up at each retry")
}
