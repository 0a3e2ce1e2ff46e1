package nodelifecycle_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/controllers/nodelifecycle"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

// heartbeats stands in for the kubelets (there are none yet): every 10 s each live node renews its
// Lease in kube-node-lease, under its own node identity.
type heartbeats struct {
	c     *sim.Cluster
	nodes []string

	mu   sync.Mutex
	due  bool
	dead map[string]bool
}

func (h *heartbeats) Name() string                       { return "kubelets" }
func (h *heartbeats) Informers() []client.InformerHandle { return nil }
func (h *heartbeats) Run(context.Context)                {}

func (h *heartbeats) Step(ctx context.Context) (bool, error) {
	h.mu.Lock()
	due := h.due
	h.due = false
	h.mu.Unlock()
	if !due {
		return false, nil
	}
	for _, n := range h.nodes {
		if !h.alive(n) {
			continue
		}
		leases := client.For[api.Lease](kubelet(h.c, n))
		l, err := leases.Get(ctx, api.NamespaceNodeLease, n)
		if err != nil {
			return false, err
		}
		l.Spec.RenewTime = api.Ptr(api.NewMicroTime(h.c.Now()))
		if _, err := leases.Update(ctx, l); err != nil {
			return false, err
		}
	}
	h.c.Clock.AfterFunc(10*time.Second, h.tick)
	return true, nil
}

func (h *heartbeats) tick() {
	h.mu.Lock()
	h.due = true
	h.mu.Unlock()
}

func (h *heartbeats) alive(n string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.dead[n]
}

func (h *heartbeats) setDead(n string, dead bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dead[n] = dead
}

func kubelet(c *sim.Cluster, node string) *client.Client {
	return c.Client("system:node:"+node, "kubelet/"+node, apiserver.GroupNodes)
}

type fixture struct {
	c     *sim.Cluster
	ctx   context.Context
	beats *heartbeats
	nodes client.Resource[api.Node, *api.Node]
	pods  client.Resource[api.Pod, *api.Pod]
}

// newFixture builds a cluster with the node lifecycle controller and nodes registered (Ready, with a
// Lease) as kubelets would, all in one zone.
func newFixture(t *testing.T, nodes ...string) *fixture {
	t.Helper()
	f, err := setup(context.Background(), nodes...)
	require.NoError(t, err)
	t.Cleanup(f.c.Close)
	return f
}

func setup(ctx context.Context, nodes ...string) (*fixture, error) {
	c, err := sim.New(ctx, testenv.Step)
	if err != nil {
		return nil, err
	}
	f := &fixture{c: c, ctx: ctx, beats: &heartbeats{c: c, nodes: nodes, due: true, dead: map[string]bool{}},
		nodes: client.For[api.Node](c.Kubectl.Client()), pods: client.For[api.Pod](c.Kubectl.Client())}
	for _, n := range nodes {
		kc := kubelet(c, n)
		now := api.NewTime(c.Now())
		if _, err := client.For[api.Node](kc).Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: n,
			Labels: map[string]string{api.LabelHostname: n, api.LabelTopologyZone: "zone-a"}},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
				Reason: "KubeletReady", Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}}}}); err != nil {
			return nil, err
		}
		if _, err := client.For[api.Lease](kc).Create(ctx, &api.Lease{ObjectMeta: api.ObjectMeta{Name: n, Namespace: api.NamespaceNodeLease},
			Spec: api.LeaseSpec{HolderIdentity: api.Ptr(n), LeaseDurationSeconds: api.Ptr[int32](40), RenewTime: api.Ptr(api.NewMicroTime(c.Now()))}}); err != nil {
			return nil, err
		}
	}
	if err := c.Add(ctx, newController(c)); err != nil {
		return nil, err
	}
	return f, c.Add(ctx, f.beats)
}

// newController is the node lifecycle controller with default options, its events reported as
// "node-controller".
func newController(c *sim.Cluster) *nodelifecycle.Controller {
	d := testenv.ForController(c, nodelifecycle.Name)
	events := testenv.ForController(c, nodelifecycle.EventSource).Events
	return nodelifecycle.New(d.Client, d.Informers, d.Clock, d.Trace, events, nodelifecycle.Options{})
}

// runPod creates a pod bound to node (as if scheduled); admission gives it the default 300 s
// tolerations for not-ready and unreachable.
func (f *fixture) runPod(t testing.TB, name, node string) {
	require.NoError(t, f.bindPod(name, node))
}

func (f *fixture) bindPod(name, node string) error {
	if _, err := f.pods.Create(f.ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}); err != nil {
		return err
	}
	err := f.c.Client("system:kube-scheduler", "kube-scheduler").Bind(f.ctx, "default", name, node)
	return err
}

func (f *fixture) node(t *testing.T, name string) *api.Node {
	t.Helper()
	n, err := f.nodes.Get(f.ctx, "", name)
	require.NoError(t, err)
	return n
}

func ready(n *api.Node) *api.NodeCondition { return api.GetNodeCondition(&n.Status, api.NodeReady) }

func hasTaint(n *api.Node, key string, effect api.TaintEffect) *api.Taint {
	for i := range n.Spec.Taints {
		if n.Spec.Taints[i].Key == key && n.Spec.Taints[i].Effect == effect {
			return &n.Spec.Taints[i]
		}
	}
	return nil
}

func (f *fixture) events(t *testing.T, reason string) []string {
	t.Helper()
	evs, _, err := client.For[api.Event](f.c.Kubectl.Client()).List(f.ctx, "", client.ListOptions{})
	require.NoError(t, err)
	var out []string
	for _, e := range evs {
		if e.Reason == reason {
			out = append(out, e.Message)
		}
	}
	return out
}

func (f *fixture) until(t *testing.T, what string, cond func(*testing.T) bool) time.Time {
	t.Helper()
	require.NoError(t, f.c.Driver.RunUntil(f.ctx, what, func() (bool, error) { return cond(t), nil }, 2000))
	return f.c.Now()
}

func TestASilentNodeBecomesUnknownIsTaintedAndItsPodsAreEvicted(t *testing.T) {

	f := newFixture(t, "node-1", "node-2", "node-3")
	f.runPod(t, "web-1", "node-1")
	f.runPod(t, "web-2", "node-2")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 20*time.Second))

	// node-2's kubelet stops: no more Lease renewals.
	f.beats.setDead("node-2", true)
	lastRenew := f.c.Now()
	unknownAt := f.until(t, "node-2 is Unknown", func(t *testing.T) bool {
		r := ready(f.node(t, "node-2"))
		return r != nil && r.Status == api.ConditionUnknown
	})
	silent := unknownAt.Sub(lastRenew)
	assert.GreaterOrEqual(t, silent, nodelifecycle.DefaultNodeMonitorGracePeriod)
	assert.LessOrEqual(t, silent, nodelifecycle.DefaultNodeMonitorGracePeriod+2*nodelifecycle.DefaultNodeMonitorPeriod)
	r := ready(f.node(t, "node-2"))
	assert.Equal(t, "NodeStatusUnknown", r.Reason)
	assert.Equal(t, "Kubelet stopped posting node status.", r.Message)
	assert.Equal(t, []string{"Node node-2 status is now: NodeNotReady"}, f.events(t, "NodeNotReady"))
	assert.Equal(t, api.ConditionTrue, ready(f.node(t, "node-1")).Status, "the others keep heartbeating")

	taintedAt := f.until(t, "node-2 is tainted unreachable:NoExecute", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-2"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil
	})
	assert.LessOrEqual(t, taintedAt.Sub(unknownAt), nodelifecycle.DefaultNodeMonitorPeriod, "at the next monitor pass")
	n2 := f.node(t, "node-2")
	assert.Equal(t, taintedAt, hasTaint(n2, api.TaintNodeUnreachable, api.TaintEffectNoExecute).TimeAdded.Time)
	assert.NotNil(t, hasTaint(n2, api.TaintNodeUnreachable, api.TaintEffectNoSchedule), "and NoSchedule, for new pods")

	evictedAt := f.until(t, "web-2 is being deleted", func(t *testing.T) bool {
		p, err := f.pods.Get(f.ctx, "default", "web-2")
		require.NoError(t, err)
		return p.DeletionTimestamp != nil
	})
	assert.Equal(t, 300*time.Second, evictedAt.Sub(taintedAt).Round(time.Second), "tolerationSeconds 300 from admission")
	assert.Equal(t, []string{"Marking for deletion Pod default/web-2"}, f.events(t, "TaintManagerEviction"))
	p1, err := f.pods.Get(f.ctx, "default", "web-1")
	require.NoError(t, err)
	assert.Nil(t, p1.DeletionTimestamp, "pods on healthy nodes stay")

	// The kubelet comes back: it renews its Lease and posts Ready=True; the taints go.
	f.beats.setDead("node-2", false)
	n2 = f.node(t, "node-2")
	now := api.NewTime(f.c.Now())
	*ready(n2) = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
		Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}
	_, err = client.For[api.Node](kubelet(f.c, "node-2")).UpdateStatus(f.ctx, n2)
	require.NoError(t, err)
	f.until(t, "node-2 has no unreachable taint", func(t *testing.T) bool {
		n := f.node(t, "node-2")
		return hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute) == nil && hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoSchedule) == nil
	})
}

func TestANodeReportingNotReadyGetsTheNotReadyTaint(t *testing.T) {
	f := newFixture(t, "node-1", "node-2")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Second))
	n := f.node(t, "node-2")
	now := api.NewTime(f.c.Now())
	*ready(n) = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionFalse, Reason: "KubeletNotReady",
		Message: "PLEG is not healthy", LastHeartbeatTime: now, LastTransitionTime: now}
	_, err := client.For[api.Node](kubelet(f.c, "node-2")).UpdateStatus(f.ctx, n)
	require.NoError(t, err)
	f.until(t, "node-2 is tainted not-ready:NoExecute", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-2"), api.TaintNodeNotReady, api.TaintEffectNoExecute) != nil
	})
	n = f.node(t, "node-2")
	assert.NotNil(t, hasTaint(n, api.TaintNodeNotReady, api.TaintEffectNoSchedule))
	assert.Nil(t, hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute))
	assert.Empty(t, f.events(t, "NodeNotReady"), "the kubelet said so itself; the controller changed no condition")
}

func TestWhenEveryNodeIsDownTheControllerStopsEvicting(t *testing.T) {
	f := newFixture(t, "node-1", "node-2")
	f.runPod(t, "web", "node-1")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Second))
	f.beats.setDead("node-1", true)
	f.beats.setDead("node-2", true)
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Minute))

	for _, name := range []string{"node-1", "node-2"} {
		n := f.node(t, name)
		assert.Equal(t, api.ConditionUnknown, ready(n).Status)
		assert.Nil(t, hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute), "%s: no NoExecute taint in master disruption mode", name)
	}
	p, err := f.pods.Get(f.ctx, "default", "web")
	require.NoError(t, err)
	assert.Nil(t, p.DeletionTimestamp, "no eviction")
	assert.Contains(t, testenv.Messages(f.c, nodelifecycle.Name), "Controller detected that all Nodes are not-Ready. Entering master disruption mode: no NoExecute taints, no evictions")

	// One node comes back: the controller leaves disruption mode; the other node, still silent after
	// a fresh grace period, is tainted.
	f.beats.setDead("node-1", false)
	n1 := f.node(t, "node-1")
	now := api.NewTime(f.c.Now())
	*ready(n1) = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now}
	_, err = client.For[api.Node](kubelet(f.c, "node-1")).UpdateStatus(f.ctx, n1)
	require.NoError(t, err)
	f.until(t, "node-2 is tainted", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-2"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil
	})
	assert.Contains(t, testenv.Messages(f.c, nodelifecycle.Name), "Controller detected that some Nodes are Ready. Exiting master disruption mode")
}

func TestACordonedNodeGetsTheUnschedulableTaint(t *testing.T) {
	f := newFixture(t, "node-1")
	n := f.node(t, "node-1")
	n.Spec.Unschedulable = true
	_, err := f.nodes.Update(f.ctx, n)
	require.NoError(t, err)
	f.until(t, "node-1 is tainted unschedulable", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-1"), api.TaintNodeUnschedulable, api.TaintEffectNoSchedule) != nil
	})
	n = f.node(t, "node-1")
	n.Spec.Unschedulable = false
	_, err = f.nodes.Update(f.ctx, n)
	require.NoError(t, err)
	f.until(t, "node-1 is uncordoned", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-1"), api.TaintNodeUnschedulable, api.TaintEffectNoSchedule) == nil
	})
}

func TestAPodThatDoesNotTolerateTheTaintIsEvictedAtOnce(t *testing.T) {
	f := newFixture(t, "node-1", "node-2")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Second))
	f.runPod(t, "web", "node-2")
	n := f.node(t, "node-2")
	n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoExecute})
	_, err := f.nodes.Update(f.ctx, n)
	require.NoError(t, err)
	start := f.c.Now()
	evictedAt := f.until(t, "web is being deleted", func(t *testing.T) bool {
		p, err := f.pods.Get(f.ctx, "default", "web")
		require.NoError(t, err)
		return p.DeletionTimestamp != nil
	})
	assert.Equal(t, start, evictedAt)
	assert.Contains(t, testenv.Messages(f.c, nodelifecycle.Name), "pod default/web does not tolerate the taints dedicated=gpu:NoExecute of node node-2: delete it now")
}

func TestNodesAreTaintedAtTheZoneEvictionRate(t *testing.T) {
	f := newFixture(t, "node-1", "node-2", "node-3", "node-4", "node-5", "node-6")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Second))
	f.beats.setDead("node-2", true)
	f.beats.setDead("node-3", true)
	first := f.until(t, "one node tainted", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-2"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil ||
			hasTaint(f.node(t, "node-3"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil
	})
	second := f.until(t, "both nodes tainted", func(t *testing.T) bool {
		return hasTaint(f.node(t, "node-2"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil &&
			hasTaint(f.node(t, "node-3"), api.TaintNodeUnreachable, api.TaintEffectNoExecute) != nil
	})
	assert.Equal(t, 10*time.Second, second.Sub(first), "--node-eviction-rate 0.1: one node every 10 s")
}

func TestASmallPartiallyDisruptedZoneIsNotTainted(t *testing.T) {
	f := newFixture(t, "node-1", "node-2", "node-3", "node-4")
	require.NoError(t, f.c.Driver.Advance(f.ctx, 10*time.Second))
	for _, n := range []string{"node-2", "node-3", "node-4"} {
		f.beats.setDead(n, true)
	}
	require.NoError(t, f.c.Driver.Advance(f.ctx, 5*time.Minute))
	for _, n := range []string{"node-2", "node-3", "node-4"} {
		node := f.node(t, n)
		assert.Equal(t, api.ConditionUnknown, ready(node).Status)
		assert.Nil(t, hasTaint(node, api.TaintNodeUnreachable, api.TaintEffectNoExecute), n)
	}
	assert.Contains(t, testenv.Messages(f.c, nodelifecycle.Name), `zone "zone-a": Normal -> PartialDisruption (3 of 4 nodes not Ready): NoExecute taints at 0 nodes/s`,
		"3 of 4 is over the 55% unhealthy-zone threshold, and a cluster of 50 nodes or fewer then stops tainting")
}
