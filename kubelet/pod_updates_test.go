package kubelet_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/kubelet"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

// syncCounter counts the kubelet's pod syncs: each begins by listing the pod's sandboxes (the PLEG,
// housekeeping and the garbage collectors list them all, with no filter).
type syncCounter struct {
	*fakeruntime.Runtime
	syncs atomic.Int64
}

func (r *syncCounter) ListPodSandbox(ctx context.Context, f *fakeruntime.PodSandboxFilter) ([]*fakeruntime.PodSandbox, error) {
	if f != nil {
		r.syncs.Add(1)
	}
	return r.Runtime.ListPodSandbox(ctx, f)
}

// addCountedNode is addNode with the runtime behind a syncCounter.
func addCountedNode(t *testing.T, ctx context.Context, c *sim.Cluster) *syncCounter {
	t.Helper()
	crc := kubelet.NewCRIClock(c.Clock)
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: crc, NodeName: "node-1", PodCIDR: "10.244.1.0/24", Trace: c.Trace})
	require.NoError(t, err)
	counted := &syncCounter{Runtime: rt}
	cfg := kubelet.DefaultNodeConfig()
	cfg.PodCIDR = "10.244.1.0/24"
	cl := c.Client("system:node:node-1", "kubelet/node-1", "system:nodes")
	k := kubelet.New(kubelet.Options{NodeName: "node-1", Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", "node-1", c.Clock, c.Trace), Runtime: counted, RuntimeClock: crc, Config: cfg})
	require.NoError(t, c.Add(ctx, k))
	return counted
}

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
