package scheduler_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler"
)

// fixedNode is a node as FixedCluster takes it: allocatable cpu, 8Gi and room for pods.
func fixedNode(name, cpu, pods string) *api.Node {
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu),
		resource.ResourceMemory: resource.MustParse("8Gi"), resource.ResourcePods: resource.MustParse(pods)}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
		Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
}

// A fixed cluster answers without an apiserver: its bound pods count on their nodes, its
// ReplicaSets feed default spreading, and a cycle that finds no node says what FailedScheduling says.
func TestFixedClusterExplainsAndSchedules(t *testing.T) {
	controller := true
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	sibling := func(name, node string) *api.Pod {
		p := newPod(name, "", "", func(p *api.Pod) {
			p.UID, p.Spec.NodeName = name, node
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", Controller: &controller}}
		})
		return p
	}
	c := scheduler.FixedCluster{
		Nodes:       []*api.Node{fixedNode("node-1", "4", "110"), fixedNode("node-2", "4", "110"), fixedNode("node-3", "1", "0")},
		Pods:        []*api.Pod{sibling("web-a", "node-1"), sibling("web-b", "node-1")},
		ReplicaSets: []*api.ReplicaSet{rs},
	}
	s, err := scheduler.NewFixed(c, 1)
	require.NoError(t, err)
	pod := sibling("web-c", "")
	ex, err := s.Explain(pod)
	require.NoError(t, err)
	assert.Equal(t, "node-2", ex.Winner, "node-1 already runs two siblings")
	assert.Empty(t, ex.TiedWith)
	node, msg, err := s.Schedule(pod)
	require.NoError(t, err)
	assert.Equal(t, "node-2", node)
	assert.Empty(t, msg)

	_, msg, err = s.Schedule(newPod("huge", "8", ""))
	require.NoError(t, err)
	assert.Equal(t, "0/3 nodes are available: 1 Too many pods, 3 Insufficient cpu. no new claims to deallocate, "+
		"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", msg)
}

// Preemption looks for candidates among enough nodes, not all: at least 10% of them and at least
// 100 (DefaultPreemptionArgs' minCandidateNodesPercentage and minCandidateNodesAbsolute), walking from
// a node chosen at random; the same seed walks from the same node.
func TestPreemptionStopsAfterEnoughCandidateNodes(t *testing.T) {
	for _, tc := range []struct{ nodes, want int }{{60, 60}, {300, 100}, {1500, 150}} {
		c := scheduler.FixedCluster{}
		for i := range tc.nodes {
			name := fmt.Sprintf("node-%04d", i)
			c.Nodes = append(c.Nodes, fixedNode(name, "1", "110"))
			c.Pods = append(c.Pods, newPod("low-"+name, "1", "", func(p *api.Pod) {
				p.UID, p.Spec.NodeName, p.Spec.Priority = "low-"+name, name, api.Ptr[int32](0)
			}))
		}
		high := newPod("high", "1", "", func(p *api.Pod) { p.Spec.Priority = api.Ptr[int32](1000) })
		nominated := map[string]bool{}
		for range 2 {
			s, err := scheduler.NewFixed(c, 7)
			require.NoError(t, err)
			candidates, node, err := s.Preempt(high)
			require.NoError(t, err)
			assert.Len(t, candidates, tc.want, "%d nodes", tc.nodes)
			nominated[node] = true
		}
		assert.Len(t, nominated, 1, "%d nodes: the same seed, the same walk and the same pick", tc.nodes)
	}
}
