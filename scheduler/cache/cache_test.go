package cache_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler/cache"
	"kubesim/scheduler/framework"
)

func node(name string) *api.Node {
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("8Gi"),
		resource.ResourcePods: resource.MustParse("110")}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Allocatable: alloc}}
}

func pod(name, nodeName, cpu string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: nodeName, Containers: []api.Container{{Name: "c",
			Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}}}}}}
}

func TestAssumedPodCountsUntilConfirmedOrForgotten(t *testing.T) {
	c := cache.New()
	c.AddNode(node("node-1"))
	p := pod("web", "node-1", "500m")
	require.NoError(t, c.AssumePod(p))
	assert.True(t, c.IsAssumedPod(p))
	assert.Error(t, c.AssumePod(p), "a pod is assumed once")
	assert.Equal(t, "node-1: 1 pods (1 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())

	c.FinishBinding(p)
	c.AddPod(p) // the informer reports it bound
	assert.False(t, c.IsAssumedPod(p))
	assert.Equal(t, "node-1: 1 pods (0 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())
	assert.Error(t, c.ForgetPod(p), "a confirmed pod cannot be forgotten")

	q := pod("db", "node-1", "1")
	require.NoError(t, c.AssumePod(q))
	require.NoError(t, c.ForgetPod(q))
	assert.Equal(t, "node-1: 1 pods (0 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())
}

func TestAssumedPodThatLandsElsewhereMoves(t *testing.T) {
	c := cache.New()
	c.AddNode(node("node-1"))
	c.AddNode(node("node-2"))
	require.NoError(t, c.AssumePod(pod("web", "node-1", "1")))
	c.AddPod(pod("web", "node-2", "1"))
	assert.Equal(t, "node-1: 0 pods (0 assumed), cpu 0m/4000m, memory 0Mi/8192Mi\nnode-2: 1 pods (0 assumed), cpu 1000m/4000m, memory 0Mi/8192Mi\n", c.Dump())
}

func TestUpdateSnapshotCopiesOnlyWhatChangedAndMatchesAFreshSnapshot(t *testing.T) {
	c := cache.New()
	for i := 0; i < 5; i++ {
		c.AddNode(node(fmt.Sprintf("node-%d", i)))
	}
	s := &framework.Snapshot{}
	c.UpdateSnapshot(s)
	assert.Equal(t, 5, s.NumNodes())
	before := s.List()[3]

	c.AddPod(pod("a", "node-1", "1"))
	c.AddPod(pod("ghost", "node-9", "1")) // a node the cache has not seen: not in the snapshot
	c.UpdateSnapshot(s)
	assert.Same(t, before, s.List()[3], "unchanged nodes are not copied")
	ni, err := s.Get("node-1")
	require.NoError(t, err)
	assert.Len(t, ni.Pods, 1)
	assert.Equal(t, 5, s.NumNodes())

	c.AddNode(node("node-9"))
	c.RemoveNode(node("node-0"))
	c.UpdateSnapshot(s)
	fresh := c.Snapshot()
	require.Equal(t, fresh.NumNodes(), s.NumNodes())
	for i, n := range fresh.List() {
		assert.Same(t, n, s.List()[i])
	}
	ni, err = s.Get("node-9")
	require.NoError(t, err)
	assert.Len(t, ni.Pods, 1, "the pod that arrived before its node is counted")
}

func ExampleCache() {
	c := cache.New()
	c.AddNode(node("node-1"))
	web := pod("web", "node-1", "1500m")
	_ = c.AssumePod(web) // the scheduler chose node-1; the binding is on its way
	fmt.Print(c.Dump())
	_ = c.ForgetPod(web) // the binding failed
	fmt.Print(c.Dump())
	// Output:
	// node-1: 1 pods (1 assumed), cpu 1500m/4000m, memory 0Mi/8192Mi
	// node-1: 0 pods (0 assumed), cpu 0m/4000m, memory 0Mi/8192Mi
}
