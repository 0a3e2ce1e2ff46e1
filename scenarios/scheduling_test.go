package scenarios_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInsufficientResourcesPendsThenSchedulesWhenRoomFrees(t *testing.T) {
	expectSigns(t, "insufficient-resources",
		"event Warning FailedScheduling: 0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
		"✓ kubectl get pod big: Pending, condition PodScheduled=False (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu.",
		"queue: default/big -> activeQ (cluster event AssignedPodDelete)",
		"event Normal Scheduled: Successfully assigned default/big to",
		"✓ it was scheduled as soon as the room freed (0s after the batch pod was gone)",
		"every expected sign was seen")
}

func TestTaintsRepelPodsWithoutTolerations(t *testing.T) {
	expectSigns(t, "taints",
		"0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {nvidia.com/gpu: present}, 2 node(s) didn't match Pod's node affinity/selector.",
		"bind default/trainer -> gpu-1",
		"✓ no log agent on gpu-1",
		"every expected sign was seen")
}

func TestNodeAffinityFiltersAndPreferencesScore(t *testing.T) {
	expectSigns(t, "node-selector-affinity",
		"explain: Pod default/db (schedulerName default-scheduler): 2 of 3 nodes pass Filter",
		"node-3, NodeAffinity: node(s) didn't match Pod's node affinity/selector",
		"NodeAffinity 2 0→0 80→100",
		"bind default/cache -> node-2",
		"✓ all 3 nodes pass Filter: preferences are never filters",
		"every expected sign was seen")
}

func TestRequiredPodAntiAffinityLeavesTheExtraReplicaPending(t *testing.T) {
	expectSigns(t, "pod-anti-affinity",
		"event Warning FailedScheduling: 0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
		"✓ all 4 web-soft replicas are scheduled, spread over all 3 nodes",
		"every expected sign was seen")
}

func TestTopologySpreadFiltersASkewedPlacement(t *testing.T) {
	expectSigns(t, "topology-spread",
		"✓ 2 replicas per zone (node-1: 2, node-2: 2, node-3: 2)",
		"0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 2 node(s) were unschedulable.",
		"every expected sign was seen")
}

func TestHostPortConflictsSendTheSecondPodElsewhere(t *testing.T) {
	expectSigns(t, "host-port",
		"NodePorts pass pass FAIL",
		"node-3, NodePorts: node(s) didn't have free ports for the requested pod ports",
		"bind default/proxy-b -> node-1",
		"event Warning FailedScheduling: 0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.",
		"every expected sign was seen")
}

func TestPodsWithoutRequestsCrowdOntoNodes(t *testing.T) {
	expectSigns(t, "no-requests",
		"✓ all 20 crowd pods are Running",
		"Allocated resources: cpu 0 (0%), memory 0 (0%)",
		"balanced by count, blind to use",
		"every expected sign was seen")
}

func TestCustomSchedulerNameWaitsSilentlyUntilItsSchedulerRuns(t *testing.T) {
	story := strings.Join(strings.Fields(story(t, "custom-scheduler")), " ")
	before, after, ok := strings.Cut(story, "3. Start a second scheduler")
	require.True(t, ok)
	assert.NotContains(t, before, "FailedScheduling:", "nobody tried the pod")
	assert.NotContains(t, before, "schedule default/special")
	assert.Contains(t, after, "my-scheduler acquire: successfully acquired lease kube-system/my-scheduler")
	assert.Contains(t, after, "my-scheduler schedule default/special: 3 of 3 nodes pass Filter")
	assert.Contains(t, after, "my-scheduler event Normal Scheduled: Successfully assigned default/special to")
	assert.Contains(t, after, "every expected sign was seen")
}

func TestExplainShowsEachFilterVerdictAndScore(t *testing.T) {
	expectSigns(t, "explain",
		"PLUGIN control-plane node-1 node-2 node-3",
		"TaintToleration FAIL pass pass pass",
		"NodeResourcesFit pass FAIL pass pass",
		"control-plane, TaintToleration: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
		"node-1, NodeResourcesFit: Insufficient cpu",
		"NodeAffinity 2 50→100 0→0",
		"TOTAL 661 474",
		"Score node-2 661, node-3 474 -> node-2",
		"every expected sign was seen")
}

func TestPreemptionEvictsALowerPriorityVictim(t *testing.T) {
	expectSigns(t, "preemption",
		"preempt for default/urgent (priority 1000000): evict default/low-",
		"event Normal Preempted: Preempted by pod",
		"✓ kubectl get pod urgent: not yet bound, status.nominatedNodeName node-1",
		"schedule default/urgent: its nominated node node-1 still fits -> node-1",
		"No preemption victims found for incoming pod",
		"every expected sign was seen")
}

func TestTooManyPodsFillsNodesThatHaveRoomLeft(t *testing.T) {
	expectSigns(t, "too-many-pods",
		"event Warning FailedScheduling: 0/3 nodes are available: 3 Too many pods. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
		"✓ kubectl get pod pinned: OutOfpods, phase Failed: Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2",
		"event Warning OutOfpods: Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2",
		"✓ pod extra is bound to",
		"✓ kubectl get pod extra: Running")
}
