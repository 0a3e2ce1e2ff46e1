// profiles_test.go: schedulerName and profiles, Explain, preemption, and a scheduler that survives
// its plugins.
package scheduler_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/scheduler"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// custom-scheduler: https://kubernetes.io/docs/tasks/extend-kubernetes/configure-multiple-schedulers/
func TestPodNamingAnUnknownSchedulerStaysPendingSilentlyUntilThatSchedulerRuns(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi")
	e.create(newPod("custom", "100m", "", func(p *api.Pod) { p.Spec.SchedulerName = "my-scheduler" }))
	require.NoError(t, e.c.Driver.RunIdle(e.ctx, 50))
	p := e.get("custom")
	assert.Empty(t, p.Spec.NodeName)
	assert.Nil(t, api.GetPodCondition(p, api.PodScheduled), "no scheduler wrote a condition")
	assert.Empty(t, e.events("custom"), "no FailedScheduling event: nobody is responsible for the pod")
	assert.Equal(t, "", e.s.QueuePosition(p))

	mine := e.addScheduler(func(o *scheduler.Options) {
		o.Name = "my-scheduler"
		o.Profiles = []framework.Profile{plugins.DefaultProfile("my-scheduler")}
	})
	assert.Equal(t, []string{"my-scheduler"}, mine.ProfileNames())
	assert.Equal(t, "node-1", e.runUntilBound("custom"))
	evs := e.events("custom")
	require.NotEmpty(t, evs)
	assert.Equal(t, "my-scheduler", evs[len(evs)-1].Source.Component)
	assert.Equal(t, "my-scheduler", evs[len(evs)-1].ReportingController)
}

func TestOneSchedulerServesSeveralProfiles(t *testing.T) {
	e := newEnv(t, func(o *scheduler.Options) {
		o.Profiles = []framework.Profile{plugins.DefaultProfile(""), plugins.DefaultProfile("batch")}
	})
	e.addNode("node-1", "4", "8Gi")
	e.create(newPod("a", "", ""))
	e.create(newPod("b", "", "", func(p *api.Pod) { p.Spec.SchedulerName = "batch" }))
	assert.Equal(t, "node-1", e.runUntilBound("a"))
	assert.Equal(t, "node-1", e.runUntilBound("b"))
	evs := e.events("b")
	assert.Equal(t, "batch", evs[len(evs)-1].Source.Component)
	assert.Equal(t, []string{"batch", "default-scheduler"}, e.s.ProfileNames())
}

// explain
func TestExplainShowsEveryFilterVerdictAndEveryScoreWithoutBinding(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi", withTaint(api.LabelNodeRoleControlPlane, "", api.TaintEffectNoSchedule))
	e.addNode("node-2", "4", "8Gi")
	e.addNode("node-3", "2", "8Gi")
	e.settle()
	before := len(e.c.Trace.Events())
	ex, err := e.s.Explain(newPod("web", "500m", "256Mi"))
	require.NoError(t, err)
	assert.Equal(t, before, len(e.c.Trace.Events()), "Explain writes nothing, not even a trace line")

	assert.Equal(t, 2, ex.Feasible)
	require.Len(t, ex.Nodes, 3)
	n1 := ex.Nodes[0]
	assert.False(t, n1.Feasible)
	assert.Equal(t, "TaintToleration", n1.RejectedBy)
	assert.Equal(t, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }", n1.Reason)
	verdicts := map[string]string{}
	for _, v := range n1.Filters {
		verdicts[v.Plugin] = v.Code
	}
	assert.Equal(t, map[string]string{"NodeUnschedulable": "Success", "NodeName": "Success", "TaintToleration": "UnschedulableAndUnresolvable",
		"NodeAffinity": "Skip", "NodePorts": "Skip", "NodeResourcesFit": "Success", "VolumeRestrictions": "Skip", "NodeVolumeLimits": "Skip", "VolumeBinding": "Skip",
		"VolumeZone": "Skip", "PodTopologySpread": "Skip", "InterPodAffinity": "Skip"}, verdicts)

	n2 := ex.Nodes[1]
	var total int64
	for _, ps := range n2.Scores {
		total += ps.Weighted
		assert.Equal(t, ps.Score*ps.Weight, ps.Weighted)
	}
	assert.Equal(t, n2.Total, total)
	assert.Equal(t, "node-2", ex.Winner, "more free cpu than node-3")

	raw, err := json.Marshal(ex)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"rejectedBy":"TaintToleration"`)
	text := ex.String()
	assert.Contains(t, text, "Pod default/web (schedulerName default-scheduler): 2 of 3 nodes pass Filter; winner node-2")
	assert.Contains(t, text, "node-1, TaintToleration: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
	assert.Contains(t, text, "TOTAL")

	// The scheduling decision carries the same detail in the trace.
	e.create(newPod("web", "500m", "256Mi"))
	assert.Equal(t, "node-2", e.runUntilBound("web"))
	lines := e.schedulerTrace()
	assert.True(t, containsLine(lines, "schedule default/web: 2 of 3 nodes pass Filter; Score node-2 "), strings.Join(lines, "\n"))
	assert.True(t, containsLine(lines, "  node-1: Filter TaintToleration rejected it: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"))
	assert.True(t, containsLine(lines, "  node-2: passed Filter; Score TaintToleration 0→100×3"))
}

func TestEqualScoresAreBrokenBySeedAndSaidSoInTheTrace(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"node-1", "node-2", "node-3"} {
		e.addNode(n, "4", "8Gi")
	}
	e.create(newPod("web", "100m", "128Mi"))
	e.runUntilBound("web")
	assert.True(t, containsLine(e.schedulerTrace(), "(tie broken by seed)"))
}

// preemption: https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
func TestHighPriorityPodPreemptsALowerPriorityVictimIsNominatedThenBound(t *testing.T) {
	e := newEnv(t)
	for _, pc := range []*api.PriorityClass{{ObjectMeta: api.ObjectMeta{Name: "low"}, Value: 100}, {ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}} {
		_, err := client.For[api.PriorityClass](e.admin).Create(e.ctx, pc)
		require.NoError(t, err)
	}
	priority := func(class string) func(*api.Pod) { return func(p *api.Pod) { p.Spec.PriorityClassName = class } }
	e.addNode("node-1", "2", "4Gi")
	e.addNode("node-2", "2", "4Gi")
	e.create(newPod("low-1", "1500m", "", priority("low")))
	e.create(newPod("low-2", "1", "", priority("low")))
	e.create(newPod("high-0", "1", "", priority("high")))
	low1, low2 := e.runUntilBound("low-1"), e.runUntilBound("low-2")
	require.NotEqual(t, low1, low2)
	highNode := e.runUntilBound("high-0")
	assert.Equal(t, low2, highNode)

	// Now full: node-1 1500m+... A high-priority pod needing 1500m fits nowhere without evicting.
	e.create(newPod("urgent", "1500m", "", priority("high")))
	msg := e.runUntilFailed("urgent")
	assert.Equal(t, "0/2 nodes are available: 2 Insufficient cpu.", msg, "preemption found a victim: no preemption message")
	p := e.get("urgent")
	assert.Equal(t, low1, p.Status.NominatedNodeName, "the node of low-1, the only lower-priority pod whose eviction is enough")
	victim := e.get("low-1")
	require.NotNil(t, victim.DeletionTimestamp, "deleted gracefully: the kubelet would now stop it")
	dt := api.GetPodCondition(victim, plugins.ConditionDisruptionTarget)
	require.NotNil(t, dt)
	assert.Equal(t, "PreemptionByScheduler", dt.Reason)
	assert.Equal(t, "default-scheduler: preempting to accommodate a higher priority pod", dt.Message)
	evs := e.events("low-1")
	assert.Equal(t, fmt.Sprintf("Preempted by pod %s on node %s", p.UID, low1), evs[len(evs)-1].Message)
	assert.Equal(t, "Preempted", evs[len(evs)-1].Reason)

	// While the victim terminates, the preemptor waits instead of preempting again.
	require.NoError(t, e.c.Driver.Advance(e.ctx, 3e9))
	assert.Empty(t, e.get("urgent").Spec.NodeName)
	// The kubelet finishes the deletion; the freed room goes to the nominated pod.
	require.NoError(t, e.c.Kubectl.Delete(e.ctx, "pods", "default", "low-1", clientDeleteNow()))
	assert.Equal(t, low1, e.runUntilBound("urgent"))
	assert.True(t, containsLine(e.schedulerTrace(), "schedule default/urgent: its nominated node "+low1+" still fits"))
	if testing.Verbose() {
		dumpTrace(t, e, false)
	}
}

func TestPreemptionPolicyNeverIsNotEligible(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "1", "4Gi")
	e.create(newPod("low", "1", ""))
	e.runUntilBound("low")
	e.create(newPod("polite", "1", "", func(p *api.Pod) {
		p.Spec.Priority = nil
		p.Spec.PreemptionPolicy = api.Ptr(api.PreemptNever)
	}))
	assert.Equal(t, "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.", e.runUntilFailed("polite"))
}

// failing is a Filter plugin that fails on one node, and panics on another.
type failing struct{}

func (failing) Name() string { return "Failing" }
func (failing) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	switch ni.Name() {
	case "node-1":
		return framework.AsStatus(errors.New("boom"))
	case "node-2":
		panic("kaboom")
	}
	return nil
}

func TestAFailingOrPanickingPluginNeverTakesTheSchedulerDown(t *testing.T) {
	e := newEnv(t, func(o *scheduler.Options) {
		fragile := plugins.DefaultProfile("fragile")
		fragile.Plugins = append(fragile.Plugins, framework.PluginRef{Name: "Failing"})
		o.Profiles = []framework.Profile{plugins.DefaultProfile(""), fragile}
		o.OutOfTreeRegistry = framework.Registry{"Failing": func(framework.Handle) (framework.Plugin, error) { return failing{}, nil }}
	})
	e.addNode("node-1", "4", "8Gi")
	e.create(newPod("victim", "", "", func(p *api.Pod) { p.Spec.SchedulerName = "fragile" }))
	msg := e.runUntilFailed("victim")
	assert.Equal(t, `running "Failing" filter plugin: boom`, msg)
	cond := api.GetPodCondition(e.get("victim"), api.PodScheduled)
	require.NotNil(t, cond)
	assert.Equal(t, "SchedulerError", cond.Reason)
	assert.Equal(t, "backoffQ", e.s.QueuePosition(e.get("victim")), "an error means retry after a backoff")

	// The scheduler lives on: the other profile's pods are scheduled.
	e.create(newPod("bystander", "", ""))
	assert.Equal(t, "node-1", e.runUntilBound("bystander"))

	// A panic is an error too.
	require.NoError(t, e.c.Kubectl.Delete(e.ctx, "nodes", "", "node-1", client.DeleteOptions{}))
	e.addNode("node-2", "4", "8Gi")
	e.runUntil("the panic reported", func() bool {
		return api.GetPodCondition(e.get("victim"), api.PodScheduled).Message == `running "Failing" filter plugin: plugin "Failing" panicked: kaboom`
	})
	require.NoError(t, e.c.Kubectl.Delete(e.ctx, "nodes", "", "node-2", client.DeleteOptions{}))
	e.addNode("node-3", "4", "8Gi")
	assert.Equal(t, "node-3", e.runUntilBound("victim"))
}

// flaky is a Bind plugin that fails its first call and then leaves binding to DefaultBinder.
type flaky struct{ calls int }

func (*flaky) Name() string { return "Flaky" }
func (f *flaky) Bind(context.Context, *framework.CycleState, *api.Pod, string) *framework.Status {
	f.calls++
	if f.calls == 1 {
		return framework.AsStatus(errors.New("etcd is having a bad day"))
	}
	return framework.NewStatus(framework.Skip)
}

func TestFailedBindForgetsTheAssumedPodAndRetriesAfterBackoff(t *testing.T) {
	f := &flaky{}
	e := newEnv(t, func(o *scheduler.Options) {
		p := plugins.DefaultProfile("")
		p.Plugins = append([]framework.PluginRef{{Name: "Flaky"}}, p.Plugins...)
		o.Profiles = []framework.Profile{p}
		o.OutOfTreeRegistry = framework.Registry{"Flaky": func(framework.Handle) (framework.Plugin, error) { return f, nil }}
	})
	e.addNode("node-1", "4", "8Gi")
	e.create(newPod("web", "1", ""))
	assert.Equal(t, `binding rejected: running Bind plugin "Flaky": etcd is having a bad day`, e.runUntilFailed("web"))
	assert.Contains(t, e.s.CacheDump(), "node-1: 0 pods (0 assumed)", "the assumed pod was forgotten")
	assert.Equal(t, "backoffQ", e.s.QueuePosition(e.get("web")))
	assert.Equal(t, "node-1", e.runUntilBound("web"))
	assert.Equal(t, 2, f.calls)
}
