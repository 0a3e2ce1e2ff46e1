package bench

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/sim"
)

// A stalled envelope says where the missing pods are: here one Deployment is whole and one cannot be
// scheduled (it asks for more CPU than the node has), so the report names the short Deployment, the
// unscheduled pods and the scheduler's reason, and counts the ready pod.
func TestMissingPodsSaysWhereTheyAreStuck(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a cluster")
	}
	ctx := t.Context()
	c, err := sim.New(ctx, sim.FullCluster(1))
	require.NoError(t, err)
	defer c.Close()
	for _, m := range []string{
		benchDeploymentManifest("fits", 1, "registry.k8s.io/pause:3.10", "1m", "1Mi"),
		benchDeploymentManifest("too-big", 2, "registry.k8s.io/pause:3.10", "1000", "1Mi"),
	} {
		_, err := c.Kubectl.Apply(ctx, []byte(m))
		require.NoError(t, err)
	}
	err = c.Driver.RunUntil(ctx, "one pod available and two unschedulable", func() (bool, error) {
		fits, err := sim.Get[api.Deployment](ctx, c, "default", "fits")
		if err != nil || fits.Status.AvailableReplicas != 1 {
			return false, err
		}
		pods, err := sim.List[api.Pod](ctx, c, "default", "", "")
		ready, unschedulable := 0, 0
		for _, p := range pods {
			if api.IsPodReady(p) {
				ready++
			}
			if cond := api.GetPodCondition(p, api.PodScheduled); cond != nil && cond.Reason == api.PodReasonUnschedulable {
				unschedulable++
			}
		}
		return ready == 1 && unschedulable == 2, err
	}, 5000)
	require.NoError(t, err)

	got := missingPods(ctx, c)
	assert.Regexp(t, "^watch cache [0-9]+ revisions behind etcd; etcd database [0-9]+ MiB \\([0-9]+ MiB in use, quota 2048 MiB\\), alarms \\[\\]; kube-scheduler leading true \\(Lease renewed [0-9]+s ago\\); kube-controller-manager leading true", got)
	assert.Contains(t, got, "1 of 2 Deployments short (0 of 2 replicas available")
	assert.Contains(t, got, "e.g. too-big: replicas 2")
	assert.Contains(t, got, "3 pods, 1 ready")
	assert.Contains(t, got, "2 not scheduled (first: too-big-")
	assert.NotContains(t, got, " on : ", "an unscheduled pod has no node to name")
	assert.Contains(t, got, "Unschedulable 0/1 nodes are available: 1 Insufficient cpu.")
	assert.NotContains(t, got, "not started")
}

// The envelope's Running count follows a pod watch: a pod counts once Running and no longer when it
// is gone, and the moment all were first Running is kept.
func TestRunningCounterFollowsThePods(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a cluster")
	}
	ctx := t.Context()
	cfg := sim.FullCluster(1)
	cfg.Mode, cfg.Speed = sim.RealTime, 5
	c, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	defer c.Close()
	r, stop := countRunning(ctx, c, 2, time.Now())
	defer stop()
	_, err = c.Kubectl.Apply(ctx, []byte(benchDeploymentManifest("web", 2, "registry.k8s.io/pause:3.10", "1m", "1Mi")))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return r.count() == 2 }, time.Minute, 10*time.Millisecond, "both pods Running")
	r.mu.Lock()
	at := r.at
	r.mu.Unlock()
	assert.Positive(t, at, "the moment both were Running is noted")
	require.NoError(t, c.Kubectl.Scale(ctx, "deployment", "default", "web", 0)) // a merge patch: never 409
	require.Eventually(t, func() bool { return r.count() == 0 }, time.Minute, 10*time.Millisecond, "scaled to 0, none counts")
	assert.Equal(t, at, r.all(), "the first moment all were Running stays")
}
