package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/sim"
)

// backoffs collects, in order, the back-off delays the kubelet announced in trace lines containing
// marker ("ErrImagePull, back-off 20s", "CrashLoopBackOff, back-off 20s"), without repeats.
func backoffs(c *sim.Cluster, marker string) []string {
	var out []string
	for _, e := range c.Trace.Events() {
		i := strings.Index(e.Message, marker)
		if i < 0 {
			continue
		}
		d := strings.Fields(strings.TrimPrefix(e.Message[i:], marker))[0]
		d = strings.TrimRight(d, ",;")
		if len(out) == 0 || out[len(out)-1] != d {
			out = append(out, d)
		}
	}
	return out
}

// A typo in the image name: the pull fails (Docker Hub refuses a token for the unknown repository),
// the container waits in ErrImagePull then ImagePullBackOff, and the kubelet retries with a back-off
// doubling from 10s to 5 minutes. As in pkg/kubelet/images/image_manager.go (EnsureImageExists), the
// back-off's waiting message carries the last pull error ("Back-off pulling image %q: ErrImagePull:
// <error>"), and while a retry pulls, the container keeps its last reason: the kubelet's reason cache
// is only replaced by the next sync's result, so it never goes back to ContainerCreating.
func TestImagePullBackOffDoublesUpToFiveMinutes(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("web", "node-1", "ngnix:1.25"))
	runUntil(t, ctx, c, "ImagePullBackOff", func() bool {
		w := containerStatus(getPod(t, ctx, c, "web")).State.Waiting
		return w != nil && w.Reason == "ImagePullBackOff"
	})
	p := getPod(t, ctx, c, "web")
	assert.Equal(t, api.PodPending, p.Status.Phase)
	pullErr := `rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ngnix:1.25": failed to resolve reference "docker.io/library/ngnix:1.25": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`
	assert.Equal(t, `Back-off pulling image "ngnix:1.25": ErrImagePull: `+pullErr, containerStatus(p).State.Waiting.Message)
	ev := events(t, ctx, c, "web")
	require.Len(t, ev, 5, "%q", ev)
	assert.Equal(t, `Pulling: Pulling image "ngnix:1.25"`, ev[0])
	assert.Equal(t, `Failed: Failed to pull image "ngnix:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ngnix:1.25": failed to resolve reference "docker.io/library/ngnix:1.25": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`, ev[1])
	assert.Equal(t, `Failed: Error: ErrImagePull`, ev[2])
	assert.Contains(t, ev, `BackOff: Back-off pulling image "ngnix:1.25"`)
	assert.Contains(t, ev, `Failed: Error: ImagePullBackOff`)

	reasons := map[string]bool{}
	for range 20 * 60 {
		require.NoError(t, c.Driver.Advance(ctx, time.Second))
		reasons[containerStatus(getPod(t, ctx, c, "web")).State.Waiting.Reason] = true
	}
	assert.False(t, reasons["ContainerCreating"], "never ContainerCreating again: %v", reasons)
	assert.Equal(t, []string{"10s", "20s", "40s", "1m20s", "2m40s", "5m0s"}, backoffs(c, "ErrImagePull, back-off "))
}

// What kubectl get pods shows after each failed pull follows the kubelet's reason cache
// (pkg/kubelet/images/image_manager.go, pkg/kubelet/kubelet.go SyncPod, pkg/kubelet/pod_workers.go
// completeWork): a sync writes the status before it acts, from the previous sync's result. After the
// first failed pull the next sync (the PLEG's, at once) shows ErrImagePull and finds the back-off;
// ImagePullBackOff shows only at the pod worker's retry, backOffPeriod (10 s plus jitter) later. After
// a later failed pull, ErrImagePull too shows only at that retry. Every retry within the back-off
// records BackOff again, so it is counted up more often than Pulling.
func TestImagePullStatusFollowsTheReasonCache(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	createPod(t, ctx, c, newPod("web", "node-1", "ngnix:1.25"))
	require.NoError(t, c.Driver.Advance(ctx, 3*time.Minute))

	type mark struct {
		at   time.Duration
		what string
	}
	var marks []mark // status writes (their waiting reason) and the ErrImagePull events, in order
	pulls, backoffs := 0, 0
	for _, e := range c.Trace.Events() {
		at := time.Duration(e.Time)
		switch {
		case strings.HasPrefix(e.Message, "status of default/web:"):
			i := strings.Index(e.Message, "web waiting: ")
			require.Positive(t, i, e.Message)
			marks = append(marks, mark{at, strings.Fields(e.Message[i+len("web waiting: "):])[0]})
		case strings.Contains(e.Message, "event Warning Failed: Error: ErrImagePull"):
			marks = append(marks, mark{at, "event"})
		case strings.Contains(e.Message, `event Normal Pulling: Pulling image "ngnix:1.25"`):
			pulls++
		case strings.Contains(e.Message, `event Normal BackOff: Back-off pulling image "ngnix:1.25"`):
			backoffs++
		}
	}
	var statuses []string
	var failedAt, errShownAt time.Duration
	failures := 0
	for _, m := range marks {
		if m.what == "event" {
			failures++
			failedAt = m.at
			continue
		}
		if n := len(statuses); n > 0 && statuses[n-1] == m.what {
			continue
		}
		statuses = append(statuses, m.what)
		switch m.what {
		case "ErrImagePull":
			errShownAt = m.at
			if failures > 1 {
				assert.GreaterOrEqual(t, m.at-failedAt, 10*time.Second, "pull %d failed at %s, ErrImagePull shown at %s", failures, failedAt, m.at)
			} else {
				assert.Less(t, m.at-failedAt, 2*time.Second, "the first ErrImagePull shows at the next sync")
			}
		case "ImagePullBackOff":
			assert.GreaterOrEqual(t, m.at-errShownAt, 10*time.Second, "ErrImagePull shown at %s, ImagePullBackOff at %s", errShownAt, m.at)
		}
	}
	require.GreaterOrEqual(t, len(statuses), 5, "%v", statuses)
	assert.Equal(t, []string{"ContainerCreating", "ErrImagePull", "ImagePullBackOff", "ErrImagePull", "ImagePullBackOff"}, statuses[:5])
	assert.Greater(t, backoffs, pulls, "each retry within the back-off records BackOff")
}

// A container that keeps crashing is restarted at once the first time, then after 10s, 20s, 40s ...
// up to 5 minutes, waiting in CrashLoopBackOff in between; lastState keeps the last exit.
func TestCrashLoopBackOffDoublesUpToFiveMinutes(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("crash", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_CRASH_AFTER", Value: "1s"}}
	created := createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "CrashLoopBackOff", func() bool {
		w := containerStatus(getPod(t, ctx, c, "crash")).State.Waiting
		return w != nil && w.Reason == "CrashLoopBackOff"
	})
	cs := containerStatus(getPod(t, ctx, c, "crash"))
	assert.Equal(t, "back-off 10s restarting failed container=crash pod=crash_default("+created.UID+")", cs.State.Waiting.Message)
	require.NotNil(t, cs.LastTerminationState.Terminated)
	assert.Equal(t, int32(1), cs.LastTerminationState.Terminated.ExitCode)
	assert.Equal(t, "Error", cs.LastTerminationState.Terminated.Reason)
	assert.Equal(t, int32(1), cs.RestartCount)
	assert.Equal(t, api.PodRunning, getPod(t, ctx, c, "crash").Status.Phase)
	assert.Contains(t, events(t, ctx, c, "crash"), "BackOff: Back-off restarting failed container crash in pod crash_default("+created.UID+")")

	require.NoError(t, c.Driver.Advance(ctx, 20*time.Minute))
	dumpTrace(t, c)
	assert.Equal(t, []string{"10s", "20s", "40s", "1m20s", "2m40s", "5m0s"}, backoffs(c, "CrashLoopBackOff, back-off "))
	assert.GreaterOrEqual(t, containerStatus(getPod(t, ctx, c, "crash")).RestartCount, int32(8))
}

// The crash-loop back-off forgets a container only when it ran for 10 minutes: the kubelet's
// crashLoopBackOff (pkg/kubelet/kubelet.go, NewMainKubelet) expires an entry when the container's
// FinishedAt is more than 600 s after the entry's last update, and flowcontrol.Backoff.Next
// (k8s.io/client-go/util/flowcontrol/backoff.go) stamps that update with the clock at the restart,
// not with the FinishedAt it is given. A container that runs 6 minutes between crashes therefore stays
// at the 5-minute back-off, even though 11 minutes pass from one crash to the next.
func TestCrashLoopBackOffResetsOnlyAfterTenMinutesOfRunning(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("crash", "node-1", "nginx:1.25")
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "KUBESIM_CRASH_AFTER", Value: "6m"}}
	createPod(t, ctx, c, p)
	require.NoError(t, c.Driver.Advance(ctx, 90*time.Minute))
	assert.Equal(t, []string{"10s", "20s", "40s", "1m20s", "2m40s", "5m0s"}, backoffs(c, "CrashLoopBackOff, back-off "))
}

// restartPolicy Never: a container that exits 0 leaves the pod Succeeded, its sandbox stopped.
func TestRestartPolicyNeverEndsInSucceeded(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("job", "node-1", "busybox:1.36")
	p.Spec.RestartPolicy = api.RestartPolicyNever
	p.Spec.Containers[0].Command = []string{"sh", "-c", "echo done"}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "job Succeeded", func() bool { return getPod(t, ctx, c, "job").Status.Phase == api.PodSucceeded })
	cs := containerStatus(getPod(t, ctx, c, "job"))
	require.NotNil(t, cs.State.Terminated)
	assert.Equal(t, "Completed", cs.State.Terminated.Reason)
	assert.Equal(t, int32(0), cs.RestartCount)
	assert.Equal(t, api.ConditionFalse, condition(getPod(t, ctx, c, "job"), api.PodReady))
}
