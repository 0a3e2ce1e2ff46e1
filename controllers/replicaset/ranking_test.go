package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

var rankNow = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// readyPod is a Running, Ready pod on node, created and ready at the given ages before rankNow.
func readyPod(name, uid, node string, created, ready time.Duration) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, UID: uid, Namespace: "default",
			CreationTimestamp: api.NewTime(rankNow.Add(-created))},
		Spec: api.PodSpec{NodeName: node},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
			{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(rankNow.Add(-ready))}}},
	}
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// The pod-deletion-cost annotation comes before everything but scheduling, phase and readiness
// (ActivePodsWithRanks.Less, pkg/controller/controller_utils.go): the cheaper pod goes, even though it
// is the older one; an invalid value ("+5", "007") counts as 0.
func TestScaleDownDeletesTheLowestPodDeletionCostFirst(t *testing.T) {
	cheap := readyPod("b-cheap", "u2", "node-1", time.Hour, time.Hour)
	cheap.Annotations = map[string]string{annotationPodDeletionCost: "-5"}
	dear := readyPod("a-dear", "u1", "node-2", time.Minute, time.Minute)
	dear.Annotations = map[string]string{annotationPodDeletionCost: "100"}
	plus := readyPod("c-plus", "u3", "node-3", time.Minute, time.Minute)
	plus.Annotations = map[string]string{annotationPodDeletionCost: "+50"}
	pods := []*api.Pod{dear, cheap, plus}
	assert.Equal(t, []string{"b-cheap", "c-plus", "a-dear"}, names(podsToDelete(pods, pods, 3, rankNow)))
}

// A pod doubled up on a node with other pods of the same workload goes before one alone on its node
// (getPodsRankedByRelatedPodsOnSameNode, pkg/controller/replicaset/replica_set.go), counting the pods
// of the workload's other ReplicaSets too.
func TestScaleDownDeletesPodsDoubledUpOnANodeFirst(t *testing.T) {
	alone := readyPod("a-alone", "u1", "node-1", time.Minute, time.Minute) // the newest
	crowded := readyPod("b-crowded", "u2", "node-2", time.Hour, time.Hour)
	oldRSPod := readyPod("old-rs-pod", "u9", "node-2", 2*time.Hour, 2*time.Hour)
	got := podsToDelete([]*api.Pod{alone, crowded}, []*api.Pod{alone, crowded, oldRSPod}, 1, rankNow)
	assert.Equal(t, []string{"b-crowded"}, names(got))
}

// LogarithmicScaleDown (GA in 1.31): ready times in the same power-of-two bucket count as equal, and
// the smaller UID goes first, not the pod that turned ready last.
func TestScaleDownComparesReadyTimesInLogarithmicBuckets(t *testing.T) {
	// 100 s and 120 s are both in the bucket 2^36 ns (68.7 s) to 2^37 ns (137.4 s).
	newer := readyPod("a-newer", "uid-b", "node-1", 100*time.Second, 100*time.Second)
	older := readyPod("b-older", "uid-a", "node-2", 120*time.Second, 120*time.Second)
	pods := []*api.Pod{newer, older}
	assert.Equal(t, []string{"b-older"}, names(podsToDelete(pods, pods, 1, rankNow)))

	// 100 s and 200 s are in different buckets: the one ready for less time goes.
	older.Status.Conditions[0].LastTransitionTime = api.NewTime(rankNow.Add(-200 * time.Second))
	assert.Equal(t, []string{"a-newer"}, names(podsToDelete(pods, pods, 1, rankNow)))
}

// Pods equal in every respect go in UID order, not by name.
func TestScaleDownBreaksTiesByUID(t *testing.T) {
	a := readyPod("a", "uid-2", "node-1", time.Minute, time.Minute)
	b := readyPod("b", "uid-1", "node-2", time.Minute, time.Minute)
	pods := []*api.Pod{a, b}
	assert.Equal(t, []string{"b"}, names(podsToDelete(pods, pods, 1, rankNow)))
}
