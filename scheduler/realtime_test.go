// realtime_test.go: the scheduler in real time, as `kubesim serve` runs it: informers on their own
// goroutines, filtering and scoring in parallel, binding in the background.
package scheduler_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/scheduler"
)

func TestRealTimeModeBindsEveryPodWithParallelFilteringAndBackgroundBinding(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(0))
	admin := c.Kubectl.Client()
	for i := 0; i < 20; i++ {
		alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("2"), resource.ResourceMemory: resource.MustParse("4Gi"),
			resource.ResourcePods: resource.MustParse("110")}
		_, err := client.For[api.Node](admin).Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%02d", i)},
			Status: api.NodeStatus{Allocatable: alloc}})
		require.NoError(t, err)
	}
	s, err := scheduler.New(scheduler.Options{Client: c.Client(scheduler.Identity, "kube-scheduler"), Clock: c.Clock, Trace: c.Trace, Seed: 1, Parallelism: 4})
	require.NoError(t, err)
	require.NoError(t, c.Add(ctx, s))
	for i := 0; i < 60; i++ {
		_, err := client.For[api.Pod](admin).Create(ctx, newPod(fmt.Sprintf("web-%02d", i), "500m", "256Mi"))
		require.NoError(t, err)
		if i%10 == 0 {
			_, err := s.Explain(newPod("probe", "500m", "")) // concurrently with the scheduling loop
			require.NoError(t, err)
		}
	}
	require.Eventually(t, func() bool {
		pods, _, err := client.For[api.Pod](admin).List(ctx, "default", client.ListOptions{})
		require.NoError(t, err)
		bound := 0
		for _, p := range pods {
			if p.Spec.NodeName != "" {
				bound++
			}
		}
		return bound == 60
	}, 20*time.Second, 20*time.Millisecond)
	perNode := map[string]int{}
	pods, _, err := client.For[api.Pod](admin).List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	for _, p := range pods {
		perNode[p.Spec.NodeName]++
	}
	for node, n := range perNode {
		assert.LessOrEqual(t, n, 4, "%s: 2 cpu fits four 500m pods", node)
	}
}
