// scheduling_test.go: the scheduling scenarios of SCENARIOS.md section 5, each checking the signs a
// real cluster shows: the FailedScheduling event and PodScheduled condition in Kubernetes' words, the
// Scheduled event, and where pods land.
package scheduler_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// insufficient-resources: https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/
func TestPodTooBigForEveryNodeIsPendingWithInsufficientCPUUntilCapacityFrees(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"node-1", "node-2", "node-3"} {
		e.addNode(n, "2", "4Gi")
		e.create(newPod("filler-"+n, "1500m", "1Gi", func(p *api.Pod) { p.Spec.NodeName = n }))
	}
	e.create(newPod("big", "1", "1Gi"))
	msg := e.runUntilFailed("big")
	assert.Equal(t, "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", msg)
	p := e.get("big")
	cond := api.GetPodCondition(p, api.PodScheduled)
	require.NotNil(t, cond)
	assert.Equal(t, api.ConditionFalse, cond.Status)
	assert.Equal(t, api.PodReasonUnschedulable, cond.Reason)
	assert.Equal(t, msg, cond.Message)
	assert.Equal(t, "unschedulablePods", e.s.QueuePosition(p))

	// Free room on node-2: the pod deletion is a cluster event NodeResourcesFit registered for.
	require.NoError(t, e.c.Kubectl.Delete(e.ctx, "pods", "default", "filler-node-2", clientDeleteNow()))
	assert.Equal(t, "node-2", e.runUntilBound("big"))
	evs := e.events("big")
	assert.Equal(t, "Successfully assigned default/big to node-2", evs[len(evs)-1].Message)
	assert.Equal(t, "Scheduled", evs[len(evs)-1].Reason)
	assert.Equal(t, "default-scheduler", evs[len(evs)-1].Source.Component)
	if testing.Verbose() {
		dumpTrace(t, e, false)
	}
}

// taints: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
func TestTaintedControlPlaneAndFullWorkersGiveKubernetesAggregatedMessage(t *testing.T) {
	e := newEnv(t)
	e.addNode("control-plane", "4", "8Gi", withTaint(api.LabelNodeRoleControlPlane, "", api.TaintEffectNoSchedule))
	for _, n := range []string{"node-1", "node-2"} {
		e.addNode(n, "2", "4Gi")
		e.create(newPod("filler-"+n, "1500m", "", func(p *api.Pod) { p.Spec.NodeName = n }))
	}
	e.create(newPod("web", "1", ""))
	assert.Equal(t, "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. "+
		"no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
		e.runUntilFailed("web"))
}

func TestOrdinaryPodsAvoidTaintedNodesAndATolerationLetsAPodIn(t *testing.T) {
	e := newEnv(t)
	e.addNode("control-plane", "4", "8Gi", withTaint(api.LabelNodeRoleControlPlane, "", api.TaintEffectNoSchedule))
	e.addNode("gpu-1", "8", "16Gi", withTaint("nvidia.com/gpu", "present", api.TaintEffectNoSchedule))
	e.addNode("node-1", "1", "2Gi")
	e.create(newPod("web", "500m", ""))
	assert.Equal(t, "node-1", e.runUntilBound("web"))

	e.create(newPod("too-big", "2", ""))
	assert.Equal(t, "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "+
		"1 node(s) had untolerated taint {nvidia.com/gpu: present}. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
		e.runUntilFailed("too-big"), "node-1 is smaller than the request: evicting its pods would not help either")

	e.create(newPod("training", "2", "", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "nvidia.com/gpu", Operator: api.TolerationOpEqual, Value: "present", Effect: api.TaintEffectNoSchedule}}
	}))
	assert.Equal(t, "gpu-1", e.runUntilBound("training"))
}

// node-selector-affinity: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/
func TestNodeSelectorAndRequiredAffinityFilterAndPreferredAffinityScores(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi", withLabels("disktype", "hdd"))
	e.addNode("node-2", "4", "8Gi", withLabels("disktype", "ssd", "tier", "gold"))
	e.addNode("node-3", "4", "8Gi", withLabels("disktype", "ssd", "tier", "silver"))

	e.create(newPod("nvme", "", "", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disktype": "nvme"} }))
	assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. "+
		"no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", e.runUntilFailed("nvme"))

	prefersSilver := func(p *api.Pod) {
		p.Spec.NodeSelector = map[string]string{"disktype": "ssd"}
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: "tier", Operator: api.NodeSelectorOpIn, Values: []string{"gold", "silver"}}}}}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 50,
				Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "tier", Operator: api.NodeSelectorOpIn, Values: []string{"silver"}}}}}},
		}}
	}
	ex, err := e.s.Explain(newPod("ssd", "", "", prefersSilver))
	require.NoError(t, err)
	assert.Equal(t, 2, ex.Feasible)
	assert.Equal(t, "NodeAffinity", ex.Nodes[0].RejectedBy)
	assert.Equal(t, "node(s) didn't match Pod's node affinity/selector", ex.Nodes[0].Reason)
	assert.Equal(t, "node-3", ex.Winner)
	for _, ps := range ex.Nodes[2].Scores {
		if ps.Plugin == "NodeAffinity" {
			assert.Equal(t, int64(50), ps.Raw)
			assert.Equal(t, int64(100), ps.Score)
			assert.Equal(t, int64(2), ps.Weight)
		}
	}
	e.create(newPod("ssd", "", "", prefersSilver))
	assert.Equal(t, "node-3", e.runUntilBound("ssd"))
}

// pod-anti-affinity: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#inter-pod-affinity-and-anti-affinity
func TestRequiredAntiAffinityLeavesExtraReplicaPendingAndPreferredStillSchedules(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"node-1", "node-2", "node-3"} {
		e.addNode(n, "4", "8Gi")
	}
	antiAffinity := func(required bool) func(*api.Pod) {
		return func(p *api.Pod) {
			term := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: p.Labels}, TopologyKey: api.LabelHostname}
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{}}
			if required {
				p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = []api.PodAffinityTerm{term}
			} else {
				p.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []api.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: term}}
			}
		}
	}
	nodes := map[string]bool{}
	for _, name := range []string{"cache-0", "cache-1", "cache-2"} {
		e.create(newPod(name, "100m", "", withAppLabel("cache"), antiAffinity(true)))
		nodes[e.runUntilBound(name)] = true
	}
	assert.Len(t, nodes, 3, "one replica per node")
	e.create(newPod("cache-3", "100m", "", withAppLabel("cache"), antiAffinity(true)))
	assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. "+
		"no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", e.runUntilFailed("cache-3"))

	nodes = map[string]bool{}
	for _, name := range []string{"web-0", "web-1", "web-2", "web-3"} {
		e.create(newPod(name, "100m", "", withAppLabel("web"), antiAffinity(false)))
		nodes[e.runUntilBound(name)] = true
	}
	assert.Len(t, nodes, 3, "preferred anti-affinity spreads the first three, and the fourth still schedules")
}

func withAppLabel(app string) func(*api.Pod) {
	return func(p *api.Pod) { p.Labels = map[string]string{"app": app} }
}

// topology-spread: https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/
func TestTopologySpreadKeepsZonesWithinMaxSkewAndFiltersAViolatingPlacement(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi", withLabels(api.LabelTopologyZone, "zone-a"))
	e.addNode("node-2", "4", "8Gi", withLabels(api.LabelTopologyZone, "zone-a"))
	e.addNode("node-3", "4", "8Gi", withLabels(api.LabelTopologyZone, "zone-b"))
	spread := func(p *api.Pod) {
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone,
			WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	}
	zones := map[string]int{}
	zoneOf := map[string]string{"node-1": "zone-a", "node-2": "zone-a", "node-3": "zone-b"}
	for _, name := range []string{"web-0", "web-1", "web-2", "web-3"} {
		e.create(newPod(name, "100m", "", spread))
		zones[zoneOf[e.runUntilBound(name)]]++
	}
	assert.Equal(t, map[string]int{"zone-a": 2, "zone-b": 2}, zones)

	// Cordon zone-b's only node. A fifth replica still fits in zone-a (3 against 2: skew 1); a
	// sixth would make it 4 against 2 and is filtered, while zone-b's node takes nothing new.
	n3, err := clientNodes(e).Get(e.ctx, "", "node-3")
	require.NoError(t, err)
	n3.Spec.Unschedulable = true
	_, err = clientNodes(e).Update(e.ctx, n3)
	require.NoError(t, err)
	e.create(newPod("web-4", "100m", "", spread))
	assert.Equal(t, "zone-a", zoneOf[e.runUntilBound("web-4")])
	e.create(newPod("web-5", "100m", "", spread))
	assert.Equal(t, "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match pod topology spread constraints. "+
		"no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
		e.runUntilFailed("web-5"))
	ex, err := e.s.Explain(e.get("web-5"))
	require.NoError(t, err)
	assert.Equal(t, "PodTopologySpread", ex.Nodes[0].RejectedBy)
	assert.Equal(t, "NodeUnschedulable", ex.Nodes[2].RejectedBy)
}

// host-port: https://kubernetes.io/docs/concepts/configuration/overview/#services
func TestSecondPodWantingTheSameHostPortAvoidsTheFirstOnesNode(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "4", "8Gi")
	hostPort := func(p *api.Pod) {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
	}
	e.create(newPod("proxy-0", "", "", hostPort))
	assert.Equal(t, "node-1", e.runUntilBound("proxy-0"))
	e.create(newPod("proxy-1", "", "", hostPort))
	assert.Equal(t, "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. "+
		"no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.", e.runUntilFailed("proxy-1"))
	e.addNode("node-2", "4", "8Gi")
	assert.Equal(t, "node-2", e.runUntilBound("proxy-1"), "a new node is a cluster event NodePorts registered for")
}

// no-requests: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
func TestPodsWithoutRequestsFitAnywhereButAreScoredAtTheDefaultRequests(t *testing.T) {
	e := newEnv(t)
	e.addNode("node-1", "1", "2Gi")
	for i := 0; i < 15; i++ {
		e.create(newPod(fmt.Sprintf("besteffort-%d", i), "", ""))
	}
	e.runUntil("15 pods bound", func() bool {
		for i := 0; i < 15; i++ {
			if e.get(fmt.Sprintf("besteffort-%d", i)).Spec.NodeName == "" {
				return false
			}
		}
		return true
	})
	assert.Contains(t, e.s.CacheDump(), "node-1: 15 pods (0 assumed), cpu 0m/1000m")

	e.addNode("node-2", "1", "2Gi")
	e.settle()
	// Scoring counts each best-effort pod at 100m cpu / 200Mi memory: node-2 looks emptier.
	ex, err := e.s.Explain(newPod("next", "", ""))
	require.NoError(t, err)
	assert.Equal(t, "node-2", ex.Winner)
	for _, n := range ex.Nodes {
		for _, ps := range n.Scores {
			if ps.Plugin == "NodeResourcesFit" && n.Name == "node-1" {
				assert.Equal(t, int64(0), ps.Raw, "15 x 100m exceeds 1 cpu: LeastAllocated gives 0 for cpu, (2048-15*200-200)<0 for memory")
			}
		}
	}
}
