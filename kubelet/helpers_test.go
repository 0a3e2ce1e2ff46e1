package kubelet_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

// testNode is one kubelet with its runtime.
type testNode struct {
	*kubelet.Kubelet
	rt *fakeruntime.Runtime
}

func newCluster(t *testing.T) (*sim.Cluster, context.Context) {
	t.Helper()
	return testenv.Cluster(t, testenv.Step)
}

// addNode starts node-<n>'s kubelet on a fresh runtime, as the cluster would.
func addNode(t *testing.T, ctx context.Context, c *sim.Cluster, n int, edit func(*kubelet.NodeConfig)) *testNode {
	t.Helper()
	node, err := startNode(ctx, c, n, edit)
	require.NoError(t, err)
	return node
}

// withNode is startNode(ctx, c, n, nil) as a testenv.Setup, for an Example.
func withNode(n int) testenv.Setup {
	return func(ctx context.Context, c *sim.Cluster) error {
		_, err := startNode(ctx, c, n, nil)
		return err
	}
}

// startNode is addNode without t (and with what to do to the runtime before the kubelet starts): node-<n> (pod CIDR 10.244.<n>.0/24, zone-a) with the default
// node configuration, changed by edit if given. The runtime runs on a CRIClock so that its image
// pulls take virtual time in parallel; the kubelet authenticates as system:node:node-<n>, whom the
// Node authorizer lets see only its own pods.
func startNode(ctx context.Context, c *sim.Cluster, n int, edit func(*kubelet.NodeConfig), before ...func(*fakeruntime.Runtime)) (*testNode, error) {
	name := fmt.Sprintf("node-%d", n)
	cfg := kubelet.DefaultNodeConfig()
	cfg.PodCIDR = fmt.Sprintf("10.244.%d.0/24", n)
	cfg.InternalIP = fmt.Sprintf("192.168.0.%d", 10+n)
	cfg.Zone = "zone-a"
	if edit != nil {
		edit(&cfg)
	}
	crc := kubelet.NewCRIClock(c.Clock)
	disk := cfg.Capacity[resource.ResourceEphemeralStorage]
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: name, PodCIDR: cfg.PodCIDR,
		ImageFsCapacityBytes: uint64(disk.Value()), Trace: c.Trace})
	if err != nil {
		return nil, err
	}
	for _, f := range before {
		f(rt) // a fault present from the start
	}
	cl := c.Client("system:node:"+name, "kubelet/"+name, "system:nodes")
	k := kubelet.New(kubelet.Options{NodeName: name, Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", name, c.Clock, c.Trace), Runtime: rt, RuntimeClock: crc, Config: cfg})
	return &testNode{Kubelet: k, rt: rt}, c.Add(ctx, k)
}

// admin is the cluster admin's client.
func admin(c *sim.Cluster) *client.Client { return c.Kubectl.Client() }

// newPod is a pod already bound to node (no scheduler in these tests).
func newPod(name, node, image string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: strings.SplitN(name, "-", 2)[0], Image: image}}},
	}
}

func createPod(t *testing.T, ctx context.Context, c *sim.Cluster, p *api.Pod) *api.Pod {
	t.Helper()
	created, err := client.For[api.Pod](admin(c)).Create(ctx, p)
	require.NoError(t, err)
	return created
}

func getPod(t *testing.T, ctx context.Context, c *sim.Cluster, name string) *api.Pod {
	t.Helper()
	p, err := client.For[api.Pod](admin(c)).Get(ctx, "default", name)
	require.NoError(t, err)
	return p
}

func getNode(t *testing.T, ctx context.Context, c *sim.Cluster, name string) *api.Node {
	t.Helper()
	n, err := client.For[api.Node](admin(c)).Get(ctx, "", name)
	require.NoError(t, err)
	return n
}

// runUntil steps the cluster until cond holds.
func runUntil(t *testing.T, ctx context.Context, c *sim.Cluster, what string, cond func() bool) {
	t.Helper()
	require.NoError(t, c.Driver.RunUntil(ctx, what, func() (bool, error) { return cond(), nil }, 20000))
}

// events lists the events about an object, oldest first, as "Reason: message".
func events(t *testing.T, ctx context.Context, c *sim.Cluster, name string) []string {
	t.Helper()
	list, _, err := client.For[api.Event](admin(c)).List(ctx, "", client.ListOptions{FieldSelector: "involvedObject.name=" + name})
	require.NoError(t, err)
	var out []string
	for _, e := range list {
		out = append(out, e.Reason+": "+e.Message)
	}
	return out
}

// eventCount is the count of the event about the named object in default with that reason (0 if
// there is none): how many times its recorder counted it up.
func eventCount(t *testing.T, ctx context.Context, c *sim.Cluster, name, reason string) int32 {
	t.Helper()
	list, _, err := client.For[api.Event](admin(c)).List(ctx, "default", client.ListOptions{FieldSelector: "involvedObject.name=" + name})
	require.NoError(t, err)
	var count int32
	for _, e := range list {
		if e.Reason == reason {
			count = e.Count
		}
	}
	return count
}

func condition(p *api.Pod, t api.PodConditionType) api.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c.Status
		}
	}
	return ""
}

func nodeCondition(n *api.Node, t api.NodeConditionType) *api.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func containerStatus(p *api.Pod) api.ContainerStatus {
	if len(p.Status.ContainerStatuses) == 0 {
		return api.ContainerStatus{}
	}
	return p.Status.ContainerStatuses[0]
}

// since is virtual time since the cluster started.
func since(c *sim.Cluster) time.Duration { return c.Clock.Since(sim.Epoch) }
