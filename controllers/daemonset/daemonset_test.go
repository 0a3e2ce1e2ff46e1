package daemonset_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/daemonset"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

type fixture struct {
	c   *sim.Cluster
	ctx context.Context
}

func setup(ctx context.Context, nodes ...*api.Node) (*fixture, error) {
	c, err := sim.New(ctx, testenv.Step)
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		if _, err := c.Kubectl.Create(ctx, n); err != nil {
			return nil, err
		}
	}
	d := testenv.ForController(c, daemonset.Name)
	return &fixture{c: c, ctx: ctx}, c.Add(ctx, daemonset.New(d.Client, d.Informers, d.Clock, d.Trace, d.Events))
}

func newFixture(t *testing.T, nodes ...*api.Node) *fixture {
	t.Helper()
	f, err := setup(context.Background(), nodes...)
	require.NoError(t, err)
	t.Cleanup(f.c.Close)
	return f
}

func node(name string, labels map[string]string, taints ...api.Taint) *api.Node {
	l := map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		l[k] = v
	}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: l}, Spec: api.NodeSpec{Taints: taints}}
}

func fluentd(mutate func(*api.DaemonSet)) *api.DaemonSet {
	labels := map[string]string{"app": "fluentd"}
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "fluentd", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v1.16"}}}}}}
	if mutate != nil {
		mutate(ds)
	}
	return ds
}

func (f *fixture) create(t *testing.T, ds *api.DaemonSet) {
	t.Helper()
	_, err := f.c.Kubectl.Create(f.ctx, ds)
	require.NoError(t, err)
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 30))
}

// placement maps each daemon pod's target node (from its node affinity) to the pod.
func (f *fixture) placement(t *testing.T) map[string]*api.Pod {
	t.Helper()
	pods, _, err := client.For[api.Pod](f.c.Kubectl.Client()).List(f.ctx, "kube-system", client.ListOptions{LabelSelector: "app=fluentd"})
	require.NoError(t, err)
	out := map[string]*api.Pod{}
	for _, p := range pods {
		fields := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields
		require.Len(t, fields, 1)
		require.NotContains(t, out, fields[0].Values[0], "one pod per node")
		out[fields[0].Values[0]] = p
	}
	return out
}

func nodesOf(m map[string]*api.Pod) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (f *fixture) status(t *testing.T) api.DaemonSetStatus {
	t.Helper()
	ds, err := client.For[api.DaemonSet](f.c.Kubectl.Client()).Get(f.ctx, "kube-system", "fluentd")
	require.NoError(t, err)
	return ds.Status
}

func TestOneDaemonPodPerNodePinnedByNodeAffinity(t *testing.T) {
	f := newFixture(t, node("node-1", nil), node("node-2", nil), node("node-3", nil))
	f.create(t, fluentd(nil))

	placed := f.placement(t)
	assert.Equal(t, []string{"node-1", "node-2", "node-3"}, nodesOf(placed))
	p := placed["node-2"]
	assert.Empty(t, p.Spec.NodeName, "the scheduler binds it")
	assert.Equal(t, api.NodeSelectorRequirement{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-2"}},
		p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0])
	ref := p.ControllerRef()
	require.NotNil(t, ref)
	assert.Equal(t, "DaemonSet", ref.Kind)
	assert.True(t, *ref.BlockOwnerDeletion)
	assert.Equal(t, "1", p.Labels[daemonset.TemplateGenerationLabel])
	assert.Contains(t, p.Spec.Tolerations, api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
		"no tolerationSeconds: daemon pods are never evicted from a dead node")
	assert.Contains(t, p.Spec.Tolerations, api.Toleration{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})

	st := f.status(t)
	assert.Equal(t, int32(3), st.DesiredNumberScheduled)
	assert.Equal(t, int32(3), st.CurrentNumberScheduled)
	assert.Equal(t, int32(3), st.UpdatedNumberScheduled)
	assert.Equal(t, int32(3), st.NumberUnavailable, "no pod is Ready yet")

	// One SuccessfulCreate event per pod. (Counted from the recorder's trace lines: the foundation's
	// recorder names events <object>.<time>, so events about one object at the same virtual instant
	// collide and only the first is stored.)
	created := 0
	for _, e := range f.c.Trace.Events() {
		if e.Component == daemonset.Name && e.Action == "event" && strings.Contains(e.Message, "SuccessfulCreate") {
			created++
		}
	}
	assert.Equal(t, 3, created)
}

func TestNodeSelectorAndAffinityChooseTheNodes(t *testing.T) {
	f := newFixture(t, node("node-1", map[string]string{"disktype": "ssd"}), node("node-2", nil),
		node("node-3", map[string]string{"disktype": "ssd", "zone": "b"}))
	f.create(t, fluentd(func(ds *api.DaemonSet) {
		ds.Spec.Template.Spec.NodeSelector = map[string]string{"disktype": "ssd"}
		ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpNotIn, Values: []string{"b"}}}}}}}}
	}))
	placed := f.placement(t)
	assert.Equal(t, []string{"node-1"}, nodesOf(placed))
	terms := placed["node-1"].Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	require.Len(t, terms, 1)
	assert.Len(t, terms[0].MatchExpressions, 1, "the template's expressions are kept beside the node pin")
	assert.Equal(t, int32(1), f.status(t).DesiredNumberScheduled)
}

func TestTaintsKeepDaemonPodsAwayUnlessTolerated(t *testing.T) {
	gpu := api.Taint{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}
	f := newFixture(t, node("node-1", nil), node("node-2", nil, gpu),
		node("node-3", nil, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}))
	f.create(t, fluentd(nil))
	assert.Equal(t, []string{"node-1", "node-3"}, nodesOf(f.placement(t)), "a cordoned node still runs daemons; the gpu node does not")

	// A NoSchedule taint added later leaves the running pod; an untolerated NoExecute one removes it.
	nodes := client.For[api.Node](f.c.Kubectl.Client())
	n1, err := nodes.Get(f.ctx, "", "node-1")
	require.NoError(t, err)
	n1.Spec.Taints = append(n1.Spec.Taints, gpu)
	_, err = nodes.Update(f.ctx, n1)
	require.NoError(t, err)
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 30))
	assert.Equal(t, []string{"node-1", "node-3"}, nodesOf(f.placement(t)))
	assert.Equal(t, int32(1), f.status(t).NumberMisscheduled, "node-1 runs a pod it should no longer get")

	n1, err = nodes.Get(f.ctx, "", "node-1")
	require.NoError(t, err)
	n1.Spec.Taints = append(n1.Spec.Taints, api.Taint{Key: "maintenance", Effect: api.TaintEffectNoExecute})
	_, err = nodes.Update(f.ctx, n1)
	require.NoError(t, err)
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 30))
	assert.Equal(t, []string{"node-3"}, nodesOf(f.placement(t)))
}

func TestANewNodeGetsADaemonPodAndADeletedPodIsReplaced(t *testing.T) {
	f := newFixture(t, node("node-1", nil))
	f.create(t, fluentd(nil))
	_, err := f.c.Kubectl.Create(f.ctx, node("node-2", nil))
	require.NoError(t, err)
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 30))
	placed := f.placement(t)
	assert.Equal(t, []string{"node-1", "node-2"}, nodesOf(placed))

	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "pods", "kube-system", placed["node-1"].Name, client.DeleteOptions{}))
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 30))
	again := f.placement(t)
	assert.Equal(t, []string{"node-1", "node-2"}, nodesOf(again))
	assert.NotEqual(t, placed["node-1"].Name, again["node-1"].Name)
}

// A DaemonSet on a two-node cluster: one pod for each node, each pinned to its node by affinity.
func Example() {
	ctx := context.Background()
	f, err := setup(ctx, node("node-1", nil), node("node-2", nil))
	if err != nil {
		panic(err)
	}
	defer f.c.Close()
	if _, err := f.c.Kubectl.Create(ctx, fluentd(nil)); err != nil {
		panic(err)
	}
	if err := f.c.Driver.RunIdle(ctx, 10); err != nil {
		panic(err)
	}
	for _, e := range f.c.Trace.Events() {
		if e.Component == daemonset.Name && e.Action == "reconcile" {
			fmt.Println(e.Message)
		}
	}
	pods, _, err := client.For[api.Pod](f.c.Kubectl.Client()).List(ctx, "kube-system", client.ListOptions{LabelSelector: "app=fluentd"})
	if err != nil {
		panic(err)
	}
	for _, p := range pods {
		pin := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0]
		fmt.Printf("%s: %s %s %v\n", p.Name, pin.Key, pin.Operator, pin.Values)
	}
	// Output:
	// reconcile kube-system/fluentd: 2 nodes; no daemon pod on [node-1, node-2] -> create 2; [] -> delete 0 (expecting 2 adds, 0 deletes)
	// fluentd-ncx8w: metadata.name In [node-2]
	// fluentd-tqvrk: metadata.name In [node-1]
}
