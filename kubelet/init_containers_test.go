package kubelet_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
)

// Init containers run in order, each to a successful exit, before the app container; meanwhile the
// app container waits with PodInitializing and Initialized is False (ContainersNotInitialized).
func TestInitContainersRunInOrderBeforeTheAppContainer(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("web", "node-1", "nginx:1.25")
	p.Spec.InitContainers = []api.Container{
		{Name: "first", Image: "busybox:1.36", Command: []string{"sh", "-c", "sleep 5"}, ImagePullPolicy: api.PullIfNotPresent},
		{Name: "second", Image: "busybox:1.36", Command: []string{"sh", "-c", "sleep 5"}, ImagePullPolicy: api.PullIfNotPresent},
	}
	createPod(t, ctx, c, p)
	runUntil(t, ctx, c, "first running", func() bool {
		got := getPod(t, ctx, c, "web")
		return len(got.Status.InitContainerStatuses) == 2 && got.Status.InitContainerStatuses[0].State.Running != nil
	})
	got := getPod(t, ctx, c, "web")
	status, initializing := api.InitStatus(got)
	assert.Equal(t, "Init:0/2", status)
	assert.True(t, initializing)
	assert.Equal(t, "PodInitializing", containerStatus(got).State.Waiting.Reason)
	assert.Equal(t, api.ConditionFalse, condition(got, api.PodInitialized))

	runUntil(t, ctx, c, "second running", func() bool {
		return getPod(t, ctx, c, "web").Status.InitContainerStatuses[1].State.Running != nil
	})
	got = getPod(t, ctx, c, "web")
	assert.Equal(t, "Completed", got.Status.InitContainerStatuses[0].State.Terminated.Reason)
	status, _ = api.InitStatus(got)
	assert.Equal(t, "Init:1/2", status)

	runUntil(t, ctx, c, "web running", func() bool { return containerStatus(getPod(t, ctx, c, "web")).State.Running != nil })
	got = getPod(t, ctx, c, "web")
	assert.Equal(t, api.ConditionTrue, condition(got, api.PodInitialized))
	assert.Equal(t, api.PodRunning, got.Status.Phase)
}

// An init container that exits 1 is restarted with CrashLoopBackOff under restartPolicy Always, and
// fails the pod under Never; the app container is never created either way.
func TestFailingInitContainerBacksOffOrFailsThePod(t *testing.T) {
	for _, policy := range []api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyNever} {
		t.Run(string(policy), func(t *testing.T) {
			c, ctx := newCluster(t)
			addNode(t, ctx, c, 1, nil)
			p := newPod("web", "node-1", "nginx:1.25")
			p.Spec.RestartPolicy = policy
			p.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "busybox:1.36",
				Command: []string{"sh", "-c", "sleep 1; exit 1"}, ImagePullPolicy: api.PullIfNotPresent}}
			createPod(t, ctx, c, p)
			require.NoError(t, c.Driver.Advance(ctx, time.Minute))
			got := getPod(t, ctx, c, "web")
			status, _ := api.InitStatus(got)
			if policy == api.RestartPolicyNever {
				assert.Equal(t, api.PodFailed, got.Status.Phase)
				assert.Equal(t, "Init:Error", status)
			} else {
				assert.Equal(t, api.PodPending, got.Status.Phase)
				assert.Equal(t, "Init:CrashLoopBackOff", status)
				assert.GreaterOrEqual(t, got.Status.InitContainerStatuses[0].RestartCount, int32(2))
			}
			assert.Nil(t, containerStatus(got).State.Running, "the app container never started")
		})
	}
}

// Under restartPolicy Always a failed init container reads Init:Error before Init:CrashLoopBackOff,
// as kubectl shows on a real cluster: the status the kubelet writes after an exit comes from what
// the runtime reported (terminated, Error), even for the first exit, restarted at once; after the
// second, CrashLoopBackOff shows only once the pod worker retries the sync that failed,
// backOffPeriod (10s) later (restarts_test.go has the same for an app container).
func TestFailedInitContainerShowsInitErrorBeforeCrashLoopBackOff(t *testing.T) {
	c, ctx := newCluster(t)
	addNode(t, ctx, c, 1, nil)
	p := newPod("web", "node-1", "nginx:1.25")
	p.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "busybox:1.36",
		Command: []string{"sh", "-c", "sleep 2; exit 1"}, ImagePullPolicy: api.PullIfNotPresent}}
	createPod(t, ctx, c, p)
	status := func() string { s, _ := api.InitStatus(getPod(t, ctx, c, "web")); return s }
	var seen []string
	var errorAt, backOffAt time.Time
	runUntil(t, ctx, c, "Init:CrashLoopBackOff", func() bool {
		s := status()
		if s != "" && (len(seen) == 0 || seen[len(seen)-1] != s) {
			seen = append(seen, s)
			switch s {
			case "Init:Error":
				errorAt = c.Clock.Now()
			case "Init:CrashLoopBackOff":
				backOffAt = c.Clock.Now()
			}
		}
		return s == "Init:CrashLoopBackOff"
	})
	assert.Equal(t, []string{"Init:0/1", "Init:Error", "Init:0/1", "Init:Error", "Init:CrashLoopBackOff"}, seen,
		"Init:Error after each exit, the first restarted at once, the second waiting for the pod worker's retry")
	assertRetryGap(t, backOffAt.Sub(errorAt), "Init:Error until the pod worker's retry")
	assert.Equal(t, "Error", getPod(t, ctx, c, "web").Status.InitContainerStatuses[0].LastTerminationState.Terminated.Reason)
}
