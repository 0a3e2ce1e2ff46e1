package kubelet_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
	"kubesim/wire"
)

// Three nodes pulling the same image at the same moment finish together: a pull takes virtual time
// without holding up the other nodes.
func TestImagePullsOnThreeNodesOverlapInVirtualTime(t *testing.T) {
	c, ctx := newCluster(t)
	for n := 1; n <= 3; n++ {
		addNode(t, ctx, c, n, nil)
	}
	for _, n := range []string{"1", "2", "3"} {
		createPod(t, ctx, c, newPod("nginx-"+n, "node-"+n, "nginx:1.25"))
	}
	runUntil(t, ctx, c, "three pods Ready", func() bool {
		for _, n := range []string{"1", "2", "3"} {
			if condition(getPod(t, ctx, c, "nginx-"+n), api.PodReady) != api.ConditionTrue {
				return false
			}
		}
		return true
	})
	assert.Equal(t, 3339*time.Millisecond, since(c), "each pull takes 3.339s, all three at once")
}

// Node admission: the kubelet refuses a pod that does not fit, even one that skipped the scheduler.
func TestNodeAdmissionRejectsPodThatDoesNotFit(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	for _, pod := range []struct{ name, cpu string }{{"a", "2"}, {"b", "1500m"}, {"c", "2"}} {
		p := newPod(pod.name, "node-1", "nginx:1.25")
		p.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceCPU: resource.MustParse(pod.cpu)}
		createPod(t, ctx, c, p)
	}
	runUntil(t, ctx, c, "c rejected", func() bool { return getPod(t, ctx, c, "c").Status.Phase == api.PodFailed })
	p := getPod(t, ctx, c, "c")
	assert.Equal(t, "OutOfcpu", p.Status.Reason)
	assert.Equal(t, "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 3500, capacity: 4000", p.Status.Message)
	assert.Contains(t, events(t, ctx, c, "c"), "OutOfcpu: Node didn't have enough resource: cpu, requested: 2000, used: 3500, capacity: 4000")
}

// Memory pressure: a BestEffort pod whose memory keeps growing pushes memory.available under 100Mi;
// the node reports MemoryPressure (and is tainted), and the eviction manager evicts that pod, not the
// Burstable one that stays within its request. As pkg/kubelet/eviction/eviction_manager.go does for a
// hard threshold, it kills the pod with a grace period of 1 s (immediateEvictionGracePeriodSeconds),
// adds the condition DisruptionTarget (reason TerminationByKubelet), and its message
// (evictionMessage in pkg/kubelet/eviction/helpers.go) names every container using more than it
// requested.
func TestEvictionUnderMemoryPressureEvictsBestEffortFirst(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, func(cfg *kubelet.NodeConfig) { cfg.Capacity[resource.ResourceMemory] = resource.MustParse("1Gi") })
	hog := newPod("hog", "node-1", "nginx:1.25")
	hog.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_MEMORY_GROWTH", Value: "10Mi/s"}}
	hog.Spec.Containers = append(hog.Spec.Containers, api.Container{Name: "sidecar", Image: "busybox:1.36",
		Command: []string{"sleep", "infinity"}, Env: []api.EnvVar{{Name: "KUBESIM_MEMORY_GROWTH", Value: "1Mi/s"}}})
	createPod(t, ctx, c, hog)
	calm := newPod("calm", "node-1", "nginx:1.25")
	calm.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceMemory: resource.MustParse("64Mi")}
	createPod(t, ctx, c, calm)
	runUntil(t, ctx, c, "hog evicted", func() bool { return getPod(t, ctx, c, "hog").Status.Reason == "Evicted" })

	p := getPod(t, ctx, c, "hog")
	assert.Equal(t, api.PodFailed, p.Status.Phase)
	assert.Regexp(t, `^The node was low on resource: memory\. Threshold quantity: 100Mi, available: \d+Ki\. `+
		`Container hog was using \d+Ki, request is 0, has larger consumption of memory\. `+
		`Container sidecar was using \d+Ki, request is 0, has larger consumption of memory\. $`, p.Status.Message)
	var disruption *api.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == "DisruptionTarget" {
			disruption = &p.Status.Conditions[i]
		}
	}
	require.NotNil(t, disruption, "%+v", p.Status.Conditions)
	assert.Equal(t, api.ConditionTrue, disruption.Status)
	assert.Equal(t, "TerminationByKubelet", disruption.Reason)
	assert.Equal(t, p.Status.Message, disruption.Message)
	assert.True(t, traceHas(c, "StopContainer hog (grace period 1s)"), "a hard threshold gives 1 s of grace")
	assert.Contains(t, strings.Join(events(t, ctx, c, "hog"), "\n"), "Evicted: The node was low on resource: memory.")
	assert.Contains(t, events(t, ctx, c, "node-1"), "EvictionThresholdMet: Attempting to reclaim memory")
	assert.Equal(t, api.PodRunning, getPod(t, ctx, c, "calm").Status.Phase)

	runUntil(t, ctx, c, "MemoryPressure", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeMemoryPressure).Status == api.ConditionTrue
	})
	n := getNode(t, ctx, c, "node-1")
	assert.Equal(t, "KubeletHasInsufficientMemory", nodeCondition(n, api.NodeMemoryPressure).Reason)
	// The node lifecycle controller, not the kubelet, turns the condition into a taint.
	assert.NotContains(t, n.Spec.Taints, api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule})

	// Under memory pressure alone the kubelet still admits pods that request something, and refuses
	// BestEffort ones unless they tolerate the memory-pressure taint (the eviction manager's Admit).
	bestEffort := newPod("besteffort", "node-1", "nginx:1.25")
	tolerant := newPod("tolerant", "node-1", "nginx:1.25")
	tolerant.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	burstable := newPod("burstable", "node-1", "nginx:1.25")
	burstable.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceMemory: resource.MustParse("16Mi")}
	for _, p := range []*api.Pod{bestEffort, tolerant, burstable} {
		createPod(t, ctx, c, p)
	}
	runUntil(t, ctx, c, "besteffort rejected", func() bool { return getPod(t, ctx, c, "besteffort").Status.Phase == api.PodFailed })
	assert.Equal(t, "Pod was rejected: The node had condition: [MemoryPressure]. ", getPod(t, ctx, c, "besteffort").Status.Message)
	runUntil(t, ctx, c, "tolerant and burstable running", func() bool {
		return getPod(t, ctx, c, "tolerant").Status.Phase == api.PodRunning && getPod(t, ctx, c, "burstable").Status.Phase == api.PodRunning
	})
}

// A hung runtime, as a v1.34 kubelet sees it. updateRuntimeUp (pkg/kubelet/kubelet.go) asks the
// runtime for its status every 5 s; runtimeErrors (pkg/kubelet/runtime.go) says "container runtime is
// down" once 30 s (maxWaitForContainerRuntime) have passed without an answer, so the node is NotReady
// within about 40 s. After 3 minutes without a relist the PLEG (pkg/kubelet/pleg/generic.go, Healthy)
// joins in, and the message is the aggregate of both. The running container is not touched.
func TestHungRuntimeIsDownAfter30sAndPLEGUnhealthyAfter3m(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("nginx", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "nginx Ready", func() bool { return condition(getPod(t, ctx, c, "nginx"), api.PodReady) == api.ConditionTrue })
	id := strings.TrimPrefix(containerStatus(getPod(t, ctx, c, "nginx")).ContainerID, "containerd://")

	hungAt := c.Clock.Now()
	node.rt.SetFault(fakeruntime.FaultHung{})
	runUntil(t, ctx, c, "node NotReady", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status == api.ConditionFalse
	})
	ready := nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady)
	assert.Equal(t, "KubeletNotReady", ready.Reason)
	assert.Equal(t, "container runtime is down", ready.Message)
	assert.Less(t, c.Clock.Since(hungAt), 45*time.Second, "30 s without a runtime answer, seen at the next node status")
	assert.Contains(t, events(t, ctx, c, "node-1"), "NodeNotReady: Node node-1 status is now: NodeNotReady")
	assert.NoError(t, node.PLEGHealthy(), "the PLEG is still within its 3 minutes")

	runUntil(t, ctx, c, "PLEG unhealthy too", func() bool {
		return strings.Contains(nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Message, "PLEG")
	})
	ready = nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady)
	assert.Regexp(t, `^\[container runtime is down, PLEG is not healthy: pleg was last seen active 3m\d+(\.\d+)?s ago; threshold is 3m0s\]$`, ready.Message)
	assert.Error(t, node.PLEGHealthy())

	node.rt.ClearFault()
	st, err := node.rt.ContainerStatus(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, fakeruntime.ContainerRunning, st.State, "the container kept running")
	runUntil(t, ctx, c, "node Ready again", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status == api.ConditionTrue
	})
}

// Runtime calls on a hung runtime fail after --runtime-request-timeout, whose default is 2 minutes
// (pkg/kubelet/apis/config/v1beta1/defaults.go): the simulator's nodes keep that default.
func TestSimNodesTimeOutRuntimeCallsAfterTwoMinutes(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(1))
	n, ok := c.Node("node-1")
	require.True(t, ok)
	n.Runtime.SetFault(fakeruntime.FaultHung{})
	require.NoError(t, c.Driver.Advance(ctx, 150*time.Second))
	var failures []string
	for _, e := range c.Trace.Events() {
		if strings.HasPrefix(e.Message, "PLEG relist failed") {
			failures = append(failures, e.Message)
		}
	}
	require.NotEmpty(t, failures)
	assert.Contains(t, failures[0], "PLEG relist failed after 2m0s: rpc error: code = DeadlineExceeded")
}

// kubectl delete pod: the kubelet stops the container (SIGTERM), removes the sandbox, then deletes
// the pod with grace period 0. A shell that ignores SIGTERM is killed when the grace period ends.
func TestGracefulTerminationStopsContainersThenDeletesPod(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("nginx", "node-1", "nginx:1.25"))
	sleeper := newPod("sleeper", "node-1", "busybox:1.36")
	sleeper.Spec.Containers[0].Command = []string{"sleep", "3600"}
	sleeper.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](20)
	createPod(t, ctx, c, sleeper)
	runUntil(t, ctx, c, "both Running", func() bool {
		return getPod(t, ctx, c, "nginx").Status.Phase == api.PodRunning && getPod(t, ctx, c, "sleeper").Status.Phase == api.PodRunning
	})
	for _, name := range []string{"nginx", "sleeper"} {
		require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", name, client.DeleteOptions{}))
	}
	start := since(c)
	gone := func(name string) bool {
		_, err := client.For[api.Pod](admin(c)).Get(ctx, "default", name)
		return err != nil
	}
	runUntil(t, ctx, c, "nginx gone", func() bool { return gone("nginx") })
	assert.Less(t, since(c)-start, 2*time.Second, "nginx stops at once on SIGTERM")
	assert.False(t, gone("sleeper"), "the sleeper is still in its grace period")
	runUntil(t, ctx, c, "sleeper gone", func() bool { return gone("sleeper") })
	dumpTrace(t, c)
	assert.InDelta(t, 20, (since(c) - start).Seconds(), 2)
	assert.Contains(t, events(t, ctx, c, "nginx"), "Killing: Stopping container nginx")
	sandboxes, err := node.rt.ListPodSandbox(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, sandboxes, "both sandboxes removed")
}

// partition is a transport that can be cut, as a network partition between a node and the
// apiserver: every request fails while it is cut.
type partition struct {
	apiserver *apiserver.Server
	cut       atomic.Bool
}

func (p *partition) Do(ctx context.Context, req *wire.Request) (*wire.Response, error) {
	if p.cut.Load() {
		return nil, errors.New("dial tcp 10.96.0.1:443: connect: connection refused")
	}
	return p.apiserver.Do(ctx, req)
}

// Local autonomy: with the apiserver unreachable, containers keep running and the kubelet keeps
// syncing (it restarts a crashed container); once the network is back, the status catches up.
func TestKubeletStaysAutonomousWhenAPIServerUnreachable(t *testing.T) {
	c, ctx := newCluster(t)
	net := &partition{apiserver: c.APIServer}
	crc := kubelet.NewCRIClock(c.Clock)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: "node-1", PodCIDR: "10.244.1.0/24", Trace: c.Trace})
	require.NoError(t, err)
	cl := client.New(net, c.Token("system:node:node-1", "system:nodes"), "kubelet/node-1")
	k := kubelet.New(kubelet.Options{NodeName: "node-1", Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", "node-1", c.Clock, c.Trace), Runtime: rt, RuntimeClock: crc})
	require.NoError(t, c.Add(ctx, k))
	p := newPod("app", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_CRASH_AFTER", Value: "60s"}}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "app Running", func() bool { return getPod(t, ctx, c, "app").Status.Phase == api.PodRunning })

	net.cut.Store(true)
	require.NoError(t, c.Driver.Advance(ctx, 2*time.Minute))
	containers, err := rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	require.Len(t, containers, 2, "the crashed container was restarted while the apiserver was unreachable")
	assert.Equal(t, fakeruntime.ContainerRunning, containers[1].State)
	assert.Equal(t, int32(0), containerStatus(getPod(t, ctx, c, "app")).RestartCount, "the apiserver has not heard yet")
	assert.True(t, traceHas(c, "failed to renew lease: dial tcp 10.96.0.1:443: connect: connection refused"))

	net.cut.Store(false)
	runUntil(t, ctx, c, "status caught up", func() bool { return containerStatus(getPod(t, ctx, c, "app")).RestartCount == 1 })
}

// A rejected credential (401): the kubelet says so in its log (the trace), stops being heard (no
// Lease renewals), and its containers keep running.
func TestRevokedCredentialStopsLeaseRenewalsButNotContainers(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("nginx", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "nginx Running", func() bool { return getPod(t, ctx, c, "nginx").Status.Phase == api.PodRunning })
	c.APIServer.RevokeCredential(c.Token("system:node:node-1"))
	before, err := client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)

	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	assert.True(t, traceHas(c, "failed to renew lease: Unauthorized"))
	after, err := client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)
	assert.Equal(t, before.Spec.RenewTime, after.Spec.RenewTime, "no renewal since the credential was revoked")
	containers, err := node.rt.ListContainers(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, fakeruntime.ContainerRunning, containers[0].State)
}

// A stopped kubelet (the node-down fault) renews nothing; started again, it renews at once.
func TestStoppedKubeletStopsRenewingAndResumesOnStart(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	require.NoError(t, c.Driver.Advance(ctx, 15*time.Second))
	node.Stop()
	before, err := client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)
	require.NoError(t, c.Driver.Advance(ctx, time.Minute))
	after, err := client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)
	assert.Equal(t, before.ResourceVersion, after.ResourceVersion)
	node.Start()
	require.NoError(t, c.Driver.Advance(ctx, time.Second))
	after, err = client.For[api.Lease](admin(c)).Get(ctx, api.NamespaceNodeLease, "node-1")
	require.NoError(t, err)
	assert.NotEqual(t, before.ResourceVersion, after.ResourceVersion)
}

func traceHas(c *sim.Cluster, s string) bool {
	for _, e := range c.Trace.Events() {
		if strings.Contains(e.Message, s) {
			return true
		}
	}
	return false
}

// A kubelet whose credential is rejected cannot register: it says why and keeps retrying.
func TestRegistrationWithRejectedCredentialIsRetried(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	c.APIServer.RevokeCredential(c.Token("system:node:node-1"))
	require.NoError(t, c.Driver.Advance(ctx, 30*time.Second))
	assert.True(t, traceHas(c, "Unable to register node with API server: Unauthorized (retrying in 7s)"))
	_, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
	assert.Error(t, err, "no Node without a valid credential")
}

// When a hung containerd answers again, the kubelet notices within seconds, as a real kubelet's
// blocked calls return as soon as containerd does: it does not wait out the 2-minute request timeout
// of the calls that were hanging.
func TestNodeIsReadySoonAfterAHungRuntimeRecovers(t *testing.T) {
	c, ctx := newCluster(t)
	node := addNode(t, ctx, c, 1, nil)
	runUntil(t, ctx, c, "node Ready", func() bool {
		n, err := client.For[api.Node](admin(c)).Get(ctx, "", "node-1")
		return err == nil && nodeCondition(n, api.NodeReady).Status == api.ConditionTrue
	})
	node.rt.SetFault(fakeruntime.FaultHung{})
	require.NoError(t, c.Driver.Advance(ctx, 3*time.Minute+10*time.Second))
	require.Equal(t, api.ConditionFalse, nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status)
	node.rt.ClearFault()
	clearedAt := c.Clock.Now()
	runUntil(t, ctx, c, "node Ready again", func() bool {
		return nodeCondition(getNode(t, ctx, c, "node-1"), api.NodeReady).Status == api.ConditionTrue
	})
	assert.LessOrEqual(t, c.Clock.Since(clearedAt), 15*time.Second, "the next check, relist and node status")
}
