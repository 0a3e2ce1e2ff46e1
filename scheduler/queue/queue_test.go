package queue

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/clock"
	"kubesim/scheduler/framework"
)

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func less(a, b *framework.QueuedPodInfo) bool {
	pa, pb := framework.PodPriority(a.Pod), framework.PodPriority(b.Pod)
	return pa > pb || pa == pb && a.Timestamp.Before(b.Timestamp)
}

func newQueue() (*PriorityQueue, *clock.Virtual) {
	clk := clock.NewVirtual(epoch)
	return New(Options{Clock: clk, Less: less, Events: map[string][]framework.ClusterEvent{
		"NodeResourcesFit": {{Resource: framework.AssignedPod, ActionType: framework.Delete}, {Resource: framework.Node, ActionType: framework.Add}},
		"TaintToleration":  {{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}},
	}}), clk
}

func testPod(name string, priority int32) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}, Spec: api.PodSpec{Priority: &priority}}
}

// PodInitialBackoffDuration 1s, PodMaxBackoffDuration 10s:
// https://kubernetes.io/docs/reference/config-api/kube-scheduler-config.v1/
func TestBackoffDoublesFromOneSecondUpToTen(t *testing.T) {
	var got []time.Duration
	for attempts := 1; attempts <= 6; attempts++ {
		got = append(got, backoffDuration(attempts))
	}
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}, got)
}

func TestActiveQPopsHigherPriorityFirstThenLongestWaiting(t *testing.T) {
	q, clk := newQueue()
	q.Add(testPod("low", 0))
	clk.Advance(time.Second)
	q.Add(testPod("high", 100))
	q.Add(testPod("low-later", 0))
	var order []string
	for {
		pi, ok := q.Pop()
		if !ok {
			break
		}
		order = append(order, pi.Pod.Name)
	}
	assert.Equal(t, []string{"high", "low", "low-later"}, order)
}

// rejected adds pod web to q, pops it and gives it back as unschedulable, rejected by plugin.
func rejected(t *testing.T, q *PriorityQueue, plugin string) *framework.QueuedPodInfo {
	t.Helper()
	q.Add(testPod("web", 0))
	pi, _ := q.Pop()
	pi.UnschedulablePlugins = []string{plugin}
	require.NoError(t, q.AddUnschedulableIfNotPresent(pi, q.SchedulingCycle()))
	return pi
}

func TestRejectedPodWaitsForAnEventItsPluginsRegistered(t *testing.T) {
	q, clk := newQueue()
	pi := rejected(t, q, "NodeResourcesFit")
	assert.Equal(t, "unschedulablePods", q.Where(pi.Pod))

	q.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeTaint})
	assert.Equal(t, "unschedulablePods", q.Where(pi.Pod), "a taint change cannot help a pod short of cpu")

	q.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete)
	assert.Equal(t, "backoffQ", q.Where(pi.Pod), "still within its 1s backoff")
	clk.AdvanceToNext()
	assert.Equal(t, "activeQ", q.Where(pi.Pod))
	assert.Equal(t, epoch.Add(time.Second), clk.Now())
}

func TestUnschedulablePodIsRetriedAfterFiveMinutesWithoutAnyEvent(t *testing.T) {
	q, clk := newQueue()
	pi := rejected(t, q, "TaintToleration")
	clk.Advance(5*time.Minute - time.Second)
	assert.Equal(t, "unschedulablePods", q.Where(pi.Pod))
	clk.Advance(time.Second)
	assert.Equal(t, "activeQ", q.Where(pi.Pod))
}

func TestErrorOrAnEventDuringTheCycleSendsThePodToBackoff(t *testing.T) {
	q, clk := newQueue()
	q.Add(testPod("a", 0))
	q.Add(testPod("b", 0))
	a, _ := q.Pop()
	cycleA := q.SchedulingCycle()
	require.NoError(t, q.AddUnschedulableIfNotPresent(a, cycleA), "no rejecting plugins: an error")
	assert.Equal(t, "backoffQ", q.Where(a.Pod))

	b, _ := q.Pop()
	b.UnschedulablePlugins = []string{"TaintToleration"}
	q.MoveAllToActiveOrBackoffQueue(framework.EventNodeAdd) // arrives while b is in flight
	require.NoError(t, q.AddUnschedulableIfNotPresent(b, q.SchedulingCycle()))
	assert.Equal(t, "backoffQ", q.Where(b.Pod), "the event may have been what b needed")
	clk.AdvanceToNext()
	_, ok := q.Pop()
	assert.True(t, ok)
}

func TestUpdateOfASpecMovesAnUnschedulablePodButAStatusChangeDoesNot(t *testing.T) {
	q, clk := newQueue()
	p := testPod("web", 0)
	q.Add(p)
	pi, _ := q.Pop()
	pi.UnschedulablePlugins = []string{"TaintToleration"}
	require.NoError(t, q.AddUnschedulableIfNotPresent(pi, q.SchedulingCycle()))
	clk.Advance(2 * time.Second)

	withStatus := api.DeepCopy(p)
	withStatus.ResourceVersion = "2"
	withStatus.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse}}
	q.Update(p, withStatus)
	assert.Equal(t, "unschedulablePods", q.Where(p))

	withToleration := api.DeepCopy(withStatus)
	withToleration.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}}
	q.Update(withStatus, withToleration)
	assert.Equal(t, "activeQ", q.Where(p), "backoff (1s) already over")
}

func TestNominatedPodsAreSnapshottedPerNode(t *testing.T) {
	q, _ := newQueue()
	assert.Nil(t, q.NominatedPods(), "nothing nominated: no work for filters")
	p := testPod("urgent", 1000)
	q.AddNominatedPod(framework.NewPodInfo(p), "node-2")
	n := q.NominatedPods()
	require.NotNil(t, n)
	assert.Len(t, n.NominatedPodsForNode("node-2"), 1)
	q.DeleteNominatedPodIfExists(p)
	assert.Nil(t, q.NominatedPods())
}

func ExamplePriorityQueue() {
	clk := clock.NewVirtual(epoch)
	q := New(Options{Clock: clk, Less: less})
	q.Add(testPod("web", 0))
	for attempt := 1; attempt <= 5; attempt++ {
		pi, _ := q.Pop()
		_ = q.AddUnschedulableIfNotPresent(pi, q.SchedulingCycle()) // an error: back off
		start := clk.Now()
		clk.AdvanceToNext()
		fmt.Printf("attempt %d failed: retried after %s\n", attempt, clk.Now().Sub(start))
	}
	// Output:
	// attempt 1 failed: retried after 1s
	// attempt 2 failed: retried after 2s
	// attempt 3 failed: retried after 4s
	// attempt 4 failed: retried after 8s
	// attempt 5 failed: retried after 10s
}
