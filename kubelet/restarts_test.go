package kubelet_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/sim"
)

// watchLine is one line of kubectl get pods -w for a one-container pod: STATUS (RESTARTS), and when.
type watchLine struct {
	line string
	at   time.Duration
}

// watchPod steps the cluster until cond holds, and returns each change of the pod's STATUS and
// RESTARTS as kubectl get pods -w prints them (the container's waiting or terminated reason, else its
// state).
func watchPod(t *testing.T, ctx context.Context, c *sim.Cluster, name string, until func(*api.Pod) bool) []watchLine {
	t.Helper()
	var seen []watchLine
	runUntil(t, ctx, c, name+" watched", func() bool {
		p := getPod(t, ctx, c, name)
		if len(p.Status.ContainerStatuses) == 0 {
			return false
		}
		cs := containerStatus(p)
		status := "Running"
		switch {
		case cs.State.Waiting != nil:
			status = cs.State.Waiting.Reason
		case cs.State.Terminated != nil:
			status = cs.State.Terminated.Reason
		}
		line := fmt.Sprintf("%s (%d)", status, cs.RestartCount)
		if len(seen) == 0 || seen[len(seen)-1].line != line {
			seen = append(seen, watchLine{line, since(c)})
		}
		return until(p)
	})
	return seen
}

func lines(seen []watchLine) []string {
	var out []string
	for _, s := range seen {
		out = append(out, s.line)
	}
	return out
}

// A crashing container reads Error after each exit, as kubectl get pods shows on a real cluster: the
// kubelet writes the status it computed from the runtime's report before its sync acts
// (pkg/kubelet/kubelet.go SyncPod), so the first exit shows Error even though that sync restarts it
// at once; the second exit comes within the 10s back-off, the sync fails with CrashLoopBackOff, and
// only the pod worker's retry of that sync, backOffPeriod (10s) later, writes CrashLoopBackOff
// (pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses reads it from the reason cache). That
// retry finds the back-off over and restarts the container.
func TestCrashingContainerShowsErrorBeforeCrashLoopBackOff(t *testing.T) {
	c, ctx := startCrashingPod(t, "sleep 2; exit 1")
	seen := watchPod(t, ctx, c, "crash", func(p *api.Pod) bool { return containerStatus(p).RestartCount == 2 })
	assert.Equal(t, []string{"ContainerCreating (0)", "Running (0)", "Error (0)", "Running (1)", "Error (1)",
		"CrashLoopBackOff (1)", "Running (2)"}, lines(seen))
	at := map[string]time.Duration{}
	for _, s := range seen {
		at[s.line] = s.at
	}
	assert.Equal(t, at["Error (0)"], at["Running (1)"], "the first exit is restarted at once")
	assertRetryGap(t, at["CrashLoopBackOff (1)"]-at["Error (1)"], "Error until the pod worker's retry")
	assert.Equal(t, at["CrashLoopBackOff (1)"], at["Running (2)"], "the retry finds the 10s back-off over")
	cs := containerStatus(getPod(t, ctx, c, "crash"))
	require.NotNil(t, cs.LastTerminationState.Terminated)
	assert.Equal(t, "Error", cs.LastTerminationState.Terminated.Reason)
}

// While a container waits out a longer back-off, the pod worker retries the failed sync every 10s,
// and each retry records the BackOff event again (the event recorder counts it up): 1 for the 10s
// back-off, 2 for 20s, 4 for 40s. The restart comes at the first retry that finds the back-off over.
func TestEveryRetryWithinTheBackOffRecordsBackOff(t *testing.T) {
	c, ctx := startCrashingPod(t, "exit 1")
	seen := watchPod(t, ctx, c, "crash", func(p *api.Pod) bool { return containerStatus(p).RestartCount == 4 })
	count := eventCount(t, ctx, c, "crash", "BackOff")
	// 10s: the failed sync only (the first retry, 10 to 15s later, finds it over); 20s: and the
	// first retry; 40s: and two or three retries, as the jitter falls.
	assert.Contains(t, []int32{1 + 2 + 3, 1 + 2 + 4}, count)
	at := map[string]time.Duration{}
	for _, s := range seen {
		at[s.line] = s.at
	}
	gap := at["Error (4)"] - at["Error (3)"]
	assert.GreaterOrEqual(t, gap, 40*time.Second, "not before the 40s back-off is over")
	assert.Less(t, gap, 40*time.Second+16*time.Second, "at the first retry after it, retries being at most 16s apart")
	assertRetryGap(t, at["CrashLoopBackOff (3)"]-at["Error (3)"], "Error until the pod worker's retry")
}

// A container killed for a failed liveness probe is started again in the sync that killed it
// (computePodActions lists it both to kill and to start), so the status never shows the kill's exit;
// its back-off is checked against the run before it, as doBackOff finds it in the status from before
// the kill, so the second kill, 20s after the first, restarts at once too.
func TestLivenessKillRestartsInTheSameSync(t *testing.T) {
	c, ctx := startPodFailingLiveness(t)
	seen := watchPod(t, ctx, c, "web", func(p *api.Pod) bool { return containerStatus(p).RestartCount == 2 })
	assert.Equal(t, []string{"ContainerCreating (0)", "Running (0)", "Running (1)", "Running (2)"}, lines(seen))
}

// startCrashingPod starts a cluster with one node and a pod crash (busybox) whose container runs
// sh -c script.
func startCrashingPod(t *testing.T, script string) (*sim.Cluster, context.Context) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("crash", "node-1", "busybox:1.36")
	p.Spec.Containers[0].Command = []string{"sh", "-c", script}
	createPod(t, ctx, c, p)
	return c, ctx
}

// startPodFailingLiveness starts a cluster with one node and a pod web (nginx) whose HTTP liveness
// probe (every 10s, failureThreshold 3) fails from 30s after the container starts.
func startPodFailingLiveness(t *testing.T) (*sim.Cluster, context.Context) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("web", "node-1", "nginx:1.25")
	p.Spec.Containers[0].LivenessProbe = httpProbe("/", 80)
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_FAIL_LIVENESS_AFTER", Value: "30s"}}
	createPod(t, ctx, c, p)
	return c, ctx
}

// assertRetryGap checks that gap is the pod worker's retry after a failed sync: backOffPeriod (10s)
// plus up to 50% of jitter, at the syncLoop's next 1s tick.
func assertRetryGap(t *testing.T, gap time.Duration, msg string) {
	t.Helper()
	assert.GreaterOrEqual(t, gap, 10*time.Second, msg)
	assert.Less(t, gap, 16*time.Second, msg)
}
