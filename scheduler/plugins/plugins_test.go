package plugins_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

func node(name, cpu string, mods ...func(*api.Node)) *framework.NodeInfo {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
		Status: api.NodeStatus{Allocatable: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu),
			resource.ResourceMemory: resource.MustParse("4Gi"), resource.ResourcePods: resource.MustParse("110")}}}
	for _, m := range mods {
		m(n)
	}
	return framework.NewNodeInfo(n)
}

func pod(name, cpu string, labels map[string]string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name, Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1.25"}}}}
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests = resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}
	}
	return p
}

// newFramework builds the default profile over nodes, ready to run one cycle.
func newFramework(t *testing.T, nodes ...*framework.NodeInfo) *framework.Framework {
	t.Helper()
	p := plugins.DefaultProfile("")
	f, err := framework.NewFramework(plugins.NewInTreeRegistry(), p, framework.Options{})
	require.NoError(t, err)
	f.SetCycle(framework.NewSnapshot(nodes), nil)
	return f
}

func filter(t *testing.T, f *framework.Framework, p *api.Pod, ni *framework.NodeInfo) *framework.Status {
	t.Helper()
	state := framework.NewCycleState()
	_, st, _ := f.RunPreFilterPlugins(context.Background(), state, p)
	require.True(t, st.IsSuccess())
	return f.RunFilterPlugins(context.Background(), state, p, ni)
}

func TestNodeResourcesFitListsEveryShortfallAndTellsUnresolvable(t *testing.T) {
	full := node("node-1", "2").WithPod(framework.NewPodInfo(pod("old", "1500m", nil)))
	f := newFramework(t, full)
	big := pod("big", "1", nil)
	big.Spec.Containers[0].Resources.Requests[resource.ResourceMemory] = resource.MustParse("5Gi")
	st := filter(t, f, big, full)
	assert.Equal(t, []string{"Insufficient cpu", "Insufficient memory"}, st.Reasons())
	assert.Equal(t, framework.UnschedulableAndUnresolvable, st.Code(), "5Gi is more than the node has at all")
	assert.Equal(t, "NodeResourcesFit", st.Plugin())

	st = filter(t, f, pod("web", "1", nil), full)
	assert.Equal(t, framework.Unschedulable, st.Code(), "evicting old would make room")
	assert.True(t, filter(t, f, pod("besteffort", "", nil), full).IsSuccess(), "no requests: fits anywhere")
}

func TestTaintTolerationNamesTheTaintAndHonoursTolerations(t *testing.T) {
	gpu := node("gpu-1", "8", func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: api.TaintEffectNoSchedule}}
	})
	f := newFramework(t, gpu)
	st := filter(t, f, pod("web", "", nil), gpu)
	assert.Equal(t, "node(s) had untolerated taint {nvidia.com/gpu: present}", st.Message())
	tolerant := pod("train", "", nil)
	tolerant.Spec.Tolerations = []api.Toleration{{Key: "nvidia.com/gpu", Operator: api.TolerationOpExists}}
	assert.True(t, filter(t, f, tolerant, gpu).IsSuccess())
}

func TestFirstPodOfASelfAffineGroupMayStart(t *testing.T) {
	n1 := node("node-1", "4")
	f := newFramework(t, n1)
	affine := func(name string) *api.Pod {
		p := pod(name, "", map[string]string{"app": "db"})
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: api.LabelHostname}}}}
		return p
	}
	assert.True(t, filter(t, f, affine("db-0"), n1).IsSuccess())
	other := pod("web", "", map[string]string{"app": "web"})
	other.Spec.Affinity = affine("x").Spec.Affinity
	assert.Equal(t, "node(s) didn't match pod affinity rules", filter(t, f, other, n1).Message(), "web does not match its own term")
}

func TestDefaultNormalizeScore(t *testing.T) {
	scores := framework.NodeScoreList{{Name: "a", Score: 0}, {Name: "b", Score: 2}, {Name: "c", Score: 4}}
	plugins.DefaultNormalizeScore(100, true, scores)
	assert.Equal(t, []int64{100, 50, 0}, []int64{scores[0].Score, scores[1].Score, scores[2].Score})
	zeros := framework.NodeScoreList{{Name: "a"}, {Name: "b"}}
	plugins.DefaultNormalizeScore(100, false, zeros)
	assert.Equal(t, int64(0), zeros[0].Score)
}

func TestImageLocalityPrefersTheNodeWithTheImage(t *testing.T) {
	withImage := node("node-1", "4", func(n *api.Node) {
		n.Status.Images = []api.ContainerImage{{Names: []string{"docker.io/library/nginx:1.25", "nginx:1.25"}, SizeBytes: 500 << 20}}
	})
	without := node("node-2", "4")
	f := newFramework(t, withImage, without)
	state := framework.NewCycleState()
	p := pod("web", "100m", nil)
	require.True(t, f.RunPreScorePlugins(context.Background(), state, p, []*framework.NodeInfo{withImage, without}).IsSuccess())
	scores, st := f.RunScorePlugins(context.Background(), state, p, []*framework.NodeInfo{withImage, without})
	require.True(t, st.IsSuccess())
	get := func(ns framework.NodePluginScores) int64 {
		for _, s := range ns.Scores {
			if s.Plugin == plugins.ImageLocalityName {
				return s.Score
			}
		}
		return -1
	}
	// 500MB on half the nodes: 250MB, scaled between 23MB and 1000MB: 23.
	assert.Equal(t, int64(23), get(scores[0]))
	assert.Equal(t, int64(0), get(scores[1]))

	// The same pod after the snapshot changed (the image now on both nodes): the share of nodes is
	// worked out again, whether the snapshot is refreshed in place or replaced.
	both := node("node-2", "4", func(n *api.Node) { n.Status.Images = withImage.Node().Status.Images })
	score := func() int64 {
		scores, st := f.RunScorePlugins(context.Background(), state, p, []*framework.NodeInfo{withImage, both})
		require.True(t, st.IsSuccess())
		return get(scores[0])
	}
	snap := framework.NewSnapshot([]*framework.NodeInfo{withImage, without})
	f.SetCycle(snap, nil)
	assert.Equal(t, int64(23), score())
	snap.Update([]*framework.NodeInfo{withImage, both}, []int{1}, false,
		map[string]int{"docker.io/library/nginx:1.25": 2, "nginx:1.25": 2}, 0, 0)
	assert.Equal(t, int64(48), score(), "500MB on every node, scaled: 48")
	f.SetCycle(framework.NewSnapshot([]*framework.NodeInfo{withImage, without}), nil)
	assert.Equal(t, int64(23), score())
}

func ExampleTaintToleration_Filter() {
	cp := node("control-plane", "4", func(n *api.Node) {
		n.Spec.Taints = []api.Taint{{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}}
	})
	st := plugins.TaintToleration{}.Filter(context.Background(), nil, pod("web", "", nil), cp)
	fmt.Println(st.Code(), "-", st.Message())
	// Output:
	// UnschedulableAndUnresolvable - node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }
}

// InterPodAffinity skips its Filter when no existing pod's required anti-affinity selects the pod
// (and the pod has no required terms), and its Score when no term matches anywhere, as
// interpodaffinity's PreFilter and PreScore do in Kubernetes.
func TestInterPodAffinitySkipsWhenNoTermMatches(t *testing.T) {
	guard := pod("guard", "", map[string]string{"app": "guard"})
	guard.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: api.LabelHostname}},
		PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: api.PodAffinityTerm{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "cache"}}, TopologyKey: api.LabelHostname}}}}}
	n1 := node("node-1", "4").WithPod(framework.NewPodInfo(guard))
	n2 := node("node-2", "4")
	f := newFramework(t, n1, n2)
	ctx := context.Background()
	verdict := func(p *api.Pod) string {
		state := framework.NewCycleState()
		_, st, _ := f.RunPreFilterPlugins(ctx, state, p)
		require.True(t, st.IsSuccess())
		for _, v := range f.RunAllFilterPlugins(ctx, state, p, n1) {
			if v.Plugin == plugins.InterPodAffinityName {
				return v.Code + " " + v.Reason
			}
		}
		return "absent"
	}
	assert.Equal(t, "Skip ", verdict(pod("web", "", map[string]string{"app": "web"})))
	assert.Equal(t, "Unschedulable node(s) didn't satisfy existing pods anti-affinity rules",
		verdict(pod("db", "", map[string]string{"app": "db"})))

	scored := func(p *api.Pod) bool {
		state := framework.NewCycleState()
		nodes := []*framework.NodeInfo{n1, n2}
		require.True(t, f.RunPreScorePlugins(ctx, state, p, nodes).IsSuccess())
		scores, st := f.RunScorePlugins(ctx, state, p, nodes)
		require.True(t, st.IsSuccess())
		for _, s := range scores[0].Scores {
			if s.Plugin == plugins.InterPodAffinityName {
				return true
			}
		}
		return false
	}
	assert.False(t, scored(pod("web", "", map[string]string{"app": "web"})), "guard's preferred term selects cache pods only")
	assert.True(t, scored(pod("cache", "", map[string]string{"app": "cache"})))
}
