package kubelet_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// runFor steps the cluster for d of cluster time.
func runFor(t *testing.T, ctx context.Context, c *sim.Cluster, d time.Duration) {
	t.Helper()
	until := since(c) + d
	runUntil(t, ctx, c, "time passes", func() bool { return since(c) >= until })
}

// An update that changes only a pod's status is a RECONCILE for the kubelet, not a SYNC
// (pkg/kubelet/config/config.go checkAndUpdatePod): neither its own status writes nor someone
// else's change the runtime's view of the pod, so they do not sync it. A change to its labels does.
func TestStatusOnlyUpdatesDoNotSyncThePod(t *testing.T) {
	c, ctx := newCluster(t)
	rt := addCountedNode(t, ctx, c)
	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "web ready", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })
	runFor(t, ctx, c, 2*time.Second)
	before := rt.syncs.Load()

	pods := client.For[api.Pod](admin(c))
	p := getPod(t, ctx, c, "web")
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: "example.com/Checked", Status: api.ConditionTrue})
	_, err := pods.UpdateStatus(ctx, p)
	require.NoError(t, err)
	runFor(t, ctx, c, 5*time.Second)
	assert.Equal(t, before, rt.syncs.Load(), "a status-only update syncs nothing")

	p = getPod(t, ctx, c, "web")
	p.Labels = map[string]string{"tier": "front"}
	_, err = pods.Update(ctx, p)
	require.NoError(t, err)
	runFor(t, ctx, c, time.Second)
	assert.Equal(t, before+1, rt.syncs.Load(), "a label change syncs the pod once")
}

// When someone else changes the status the kubelet owns (the node lifecycle controller marks a lost
// node's pods not Ready), the kubelet's status manager writes its own back at its next periodic
// reconcile, every 10s (status_manager.go syncBatch), not at once.
func TestStatusChangedByOthersIsWrittenBackAtTheNextReconcile(t *testing.T) {
	c, ctx := newCluster(t)
	started := since(c)
	addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "web ready", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })

	p := getPod(t, ctx, c, "web")
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == api.PodReady {
			p.Status.Conditions[i].Status = api.ConditionFalse
		}
	}
	_, err := client.For[api.Pod](admin(c)).UpdateStatus(ctx, p)
	require.NoError(t, err)
	marked := since(c)
	runUntil(t, ctx, c, "web ready again", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })
	took := since(c) - marked
	assert.Positive(t, took, "not at once")
	assert.LessOrEqual(t, took, 10*time.Second, "within one status sync period")
	assert.Zero(t, (since(c)-started)%(10*time.Second), "at a tick of the status manager's 10s period, counted from the kubelet's start")
}

// The pod worker syncs a pod again after each successful sync, at the resync interval
// (--sync-frequency, 1 minute) plus up to 50% of jitter (pkg/kubelet/pod_workers.go completeWork):
// in 3 minutes of a running pod with nothing happening, 2 or 3 syncs.
func TestThePodWorkerResyncsEveryMinuteWithJitter(t *testing.T) {
	c, ctx := newCluster(t)
	rt := addCountedNode(t, ctx, c)
	createPod(t, ctx, c, newPod("web", "node-1", "nginx:1.25"))
	runUntil(t, ctx, c, "web ready", func() bool { return condition(getPod(t, ctx, c, "web"), api.PodReady) == api.ConditionTrue })
	runFor(t, ctx, c, time.Second)
	before := rt.syncs.Load()
	runFor(t, ctx, c, 3*time.Minute)
	assert.Contains(t, []int64{2, 3}, rt.syncs.Load()-before)
}
