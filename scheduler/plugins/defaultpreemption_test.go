// defaultpreemption_test.go: how DefaultPreemption weighs PodDisruptionBudgets and ranks candidate
// nodes, as kube-scheduler v1.34 does (pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption.go: SelectVictimsOnNode, filterPodsWithPDBViolation; pkg/scheduler/framework/
// preemption/preemption.go: pickOneNodeForPreemption). Docs:
// https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/#poddisruptionbudget-is-supported-but-not-guaranteed
package plugins

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/clock"
	"kubesim/scheduler/framework"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// victim is a pod of priority prio that started at t0+started, labelled app=name.
func victim(name string, prio int32, started time.Duration) *framework.PodInfo {
	return framework.NewPodInfo(&api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name, Labels: map[string]string{"app": name}},
		Spec:       api.PodSpec{Priority: api.Ptr(prio)},
		Status:     api.PodStatus{StartTime: api.Ptr(api.NewTime(t0.Add(started)))}})
}

// cand is a candidate on node whose first violations victims break a budget.
func cand(node string, violations int, victims ...*framework.PodInfo) *candidate {
	c := &candidate{node: node, victims: victims}
	for _, v := range victims[:violations] {
		c.violations = append(c.violations, violation{pod: v.Pod, budgets: []string{"pdb"}})
	}
	return c
}

func TestPickPrefersFewestBudgetViolationsOverFewerVictimsAndLowerPriorities(t *testing.T) {
	protected := cand("node-1", 1, victim("db", 0, 0))
	free := cand("node-2", 0, victim("a", 100, 0), victim("b", 100, 0))
	p := pickOneNodeForPreemption([]*candidate{protected, free}, t0)
	assert.Equal(t, "node-2", p.chosen.node, "breaking no budget beats one victim of lower priority")
	require.NotNil(t, p.by)
	assert.Equal(t, &pickCriteria[0], p.by)
	assert.Equal(t, "node-1 1, node-2 0", p.values)
}

func TestPickPrefersTheLowestMostImportantVictim(t *testing.T) {
	p := pickOneNodeForPreemption([]*candidate{
		cand("node-1", 0, victim("a", 100, 0)),
		cand("node-2", 0, victim("b", 10, 0), victim("c", 10, 0), victim("d", 10, 0)),
	}, t0)
	assert.Equal(t, "node-2", p.chosen.node, "three victims of priority 10 beat one of priority 100")
	assert.Equal(t, &pickCriteria[1], p.by)
	assert.Equal(t, "node-1 100, node-2 10", p.values)
}

func TestPickPrefersTheSmallestSumOfPriorities(t *testing.T) {
	p := pickOneNodeForPreemption([]*candidate{
		cand("node-1", 0, victim("a", 50, 0), victim("b", 20, 0)),
		cand("node-2", 0, victim("c", 50, 0), victim("d", 15, 0)),
	}, t0)
	assert.Equal(t, "node-2", p.chosen.node, "a sum of 65 beats 70")
	assert.Equal(t, &pickCriteria[2], p.by)
	assert.Equal(t, "node-1 2×2^31+70, node-2 2×2^31+65", p.values)
}

// Kubernetes adds 2^31 to each priority before summing, so that two victims of priority -5 never sum
// to less than one of them; with it, more victims cost more even when their plain sum is smaller.
func TestPickCountsEachVictimPriorityFromMinus2To31(t *testing.T) {
	p := pickOneNodeForPreemption([]*candidate{
		cand("node-1", 0, victim("a", -5, 0), victim("b", -5, 0)),
		cand("node-2", 0, victim("c", -5, 0)),
	}, t0)
	assert.Equal(t, "node-2", p.chosen.node)
	assert.Equal(t, &pickCriteria[2], p.by)
	assert.Equal(t, "node-1 2×2^31-10, node-2 1×2^31-5", p.values)

	p = pickOneNodeForPreemption([]*candidate{
		cand("node-1", 0, victim("a", 50, 0), victim("b", 20, 0)),
		cand("node-2", 0, victim("c", 50, 0), victim("d", 10, 0), victim("e", 5, 0)),
	}, t0)
	assert.Equal(t, "node-1", p.chosen.node, "two victims summing to 70 beat three summing to 65")
}

func TestPickPrefersVictimsThatStartedLastThenTheFirstNodeByName(t *testing.T) {
	p := pickOneNodeForPreemption([]*candidate{
		cand("node-1", 0, victim("old", 0, 0)),
		cand("node-2", 0, victim("new", 0, time.Minute)),
	}, t0.Add(time.Hour))
	assert.Equal(t, "node-2", p.chosen.node, "disturb what started most recently")
	assert.Equal(t, &pickCriteria[4], p.by)

	p = pickOneNodeForPreemption([]*candidate{
		cand("node-b", 0, victim("x", 0, 0)),
		cand("node-a", 0, victim("y", 0, 0)),
	}, t0)
	assert.Equal(t, "node-a", p.chosen.node)
	assert.Nil(t, p.by, "every criterion tied")

	p = pickOneNodeForPreemption([]*candidate{cand("node-c", 1, victim("z", 0, 0))}, t0)
	assert.Equal(t, "node-c", p.chosen.node)
	assert.Nil(t, p.by, "no choice to explain")
}

func budget(name, namespace string, allowed int32, sel *api.LabelSelector, disrupted ...string) *api.PodDisruptionBudget {
	b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace},
		Spec: api.PodDisruptionBudgetSpec{Selector: sel}, Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed}}
	if len(disrupted) > 0 {
		b.Status.DisruptedPods = map[string]api.Time{}
		for _, p := range disrupted {
			b.Status.DisruptedPods[p] = api.NewTime(t0)
		}
	}
	return b
}

func names(pis []*framework.PodInfo) []string {
	out := []string{}
	for _, pi := range pis {
		out = append(out, pi.Pod.Name)
	}
	return out
}

func TestSplitByBudgetViolationSpendsEachBudgetInOrder(t *testing.T) {
	web := func(name string) *framework.PodInfo {
		pi := victim(name, 0, 0)
		pi.Pod.Labels = map[string]string{"app": "web"}
		return pi
	}
	pods := []*framework.PodInfo{web("web-1"), web("web-2"), web("web-3"), victim("db", 0, 0)}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}

	violating, nonViolating, broken := splitByBudgetViolation(pods, disruptionBudgets([]*api.PodDisruptionBudget{budget("web-pdb", "default", 1, sel)}))
	assert.Equal(t, []string{"web-2", "web-3"}, names(violating), "the budget allows one: the second and third go below zero")
	assert.Equal(t, []string{"web-1", "db"}, names(nonViolating))
	assert.Equal(t, []string{"web-pdb"}, broken[pods[1]])

	violating, _, _ = splitByBudgetViolation(pods, disruptionBudgets([]*api.PodDisruptionBudget{budget("web-pdb", "default", 0, sel, "web-1")}))
	assert.Equal(t, []string{"web-2", "web-3"}, names(violating), "web-1 is already in disruptedPods: it spends nothing")

	for what, b := range map[string]*api.PodDisruptionBudget{
		"another namespace":  budget("web-pdb", "other", 0, sel),
		"no selector":        budget("web-pdb", "default", 0, nil),
		"an empty selector":  budget("web-pdb", "default", 0, &api.LabelSelector{}),
		"a selector of none": budget("web-pdb", "default", 0, &api.LabelSelector{MatchLabels: map[string]string{"app": "api"}}),
	} {
		violating, _, _ = splitByBudgetViolation(pods, disruptionBudgets([]*api.PodDisruptionBudget{b}))
		assert.Empty(t, violating, "a budget with %s protects no pod here", what)
	}
}

// One 4-CPU node runs two 2-CPU pods; the preemptor needs 2 CPUs, so one of them must go. Without
// budgets the less important one (started last) goes; when that one is protected, the other goes.
func TestSelectVictimsOnNodeReprievesTheProtectedPodFirst(t *testing.T) {
	older, newer := cpuPod("older", "2", 0), cpuPod("newer", "2", time.Minute)
	ni := framework.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"},
		Status: api.NodeStatus{Allocatable: resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"),
			resource.ResourceMemory: resource.MustParse("4Gi"), resource.ResourcePods: resource.MustParse("110")}}}).
		WithPod(framework.NewPodInfo(older)).WithPod(framework.NewPodInfo(newer))
	f, err := framework.NewFramework(NewInTreeRegistry(), DefaultProfile(""), framework.Options{Clock: clock.NewVirtual(t0.Add(time.Hour))})
	require.NoError(t, err)
	f.SetCycle(framework.NewSnapshot([]*framework.NodeInfo{ni}), nil)
	pl := &DefaultPreemption{handle: f}
	urgent := cpuPod("urgent", "2", 0)
	urgent.Spec.Priority = api.Ptr(int32(1000))

	victimsOf := func(pdbs ...*api.PodDisruptionBudget) *candidate {
		state := framework.NewCycleState()
		_, st, _ := f.RunPreFilterPlugins(context.Background(), state, urgent)
		require.True(t, st.IsSuccess())
		c, st := pl.selectVictimsOnNode(context.Background(), state, urgent, ni, disruptionBudgets(pdbs))
		require.True(t, st.IsSuccess(), st.Message())
		return c
	}
	c := victimsOf()
	assert.Equal(t, []string{"newer"}, names(c.victims))
	assert.Empty(t, c.violations)

	c = victimsOf(budget("newer-pdb", "default", 0, &api.LabelSelector{MatchLabels: map[string]string{"app": "newer"}}))
	assert.Equal(t, []string{"older"}, names(c.victims), "newer is protected, so it is reprieved first")
	assert.Empty(t, c.violations)

	both := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"older", "newer"}}}}
	c = victimsOf(budget("all-pdb", "default", 0, both))
	assert.Equal(t, []string{"newer"}, names(c.victims), "both protected: the usual order decides")
	require.Len(t, c.violations, 1, "one victim breaks the budget: preempted anyway")
	assert.Equal(t, []string{"all-pdb"}, c.violations[0].budgets)
}

func cpuPod(name, cpu string, started time.Duration) *api.Pod {
	p := victim(name, 0, started).Pod
	p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx:1.25",
		Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}}}}
	return p
}
