package podgc_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/podgc"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

func newCluster(t testing.TB, opts podgc.Options) (*sim.Cluster, context.Context) {
	return testenv.Cluster(t, testenv.Step, withPodGC(opts))
}

// withPodGC adds the pod garbage collector with opts, alone, as kube-controller-manager builds it.
func withPodGC(opts podgc.Options) testenv.Setup {
	return func(ctx context.Context, c *sim.Cluster) error {
		d := testenv.ForController(c, podgc.Name)
		return c.Add(ctx, podgc.New(d.Client, d.Informers, d.Clock, d.Trace, opts))
	}
}

func createPod(t testing.TB, ctx context.Context, c *sim.Cluster, name string) *api.Pod {
	p, err := client.For[api.Pod](c.Kubectl.Client()).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "job", Image: "busybox"}}, RestartPolicy: api.RestartPolicyNever}})
	require.NoError(t, err)
	return p
}

func podNames(t testing.TB, ctx context.Context, c *sim.Cluster) []string {
	pods, _, err := client.For[api.Pod](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

func TestTerminatedPodsBeyondTheThresholdAreDeletedOldestFirst(t *testing.T) {
	c, ctx := newCluster(t, podgc.Options{TerminatedPodThreshold: 2})
	pods := client.For[api.Pod](c.Kubectl.Client())
	for i := 1; i <= 4; i++ {
		p := createPod(t, ctx, c, fmt.Sprintf("job-%d", i))
		p.Status.Phase = api.PodSucceeded
		_, err := pods.UpdateStatus(ctx, p)
		require.NoError(t, err)
		c.Clock.Sleep(time.Second) // distinct creation times
	}
	createPod(t, ctx, c, "running")
	require.NoError(t, c.Driver.Advance(ctx, podgc.GCCheckPeriod))

	assert.Equal(t, []string{"job-3", "job-4", "running"}, podNames(t, ctx, c))
	assert.Contains(t, testenv.Messages(c, podgc.Name), "4 terminated pods exceed --terminated-pod-gc-threshold=2: garbage collecting the 2 oldest")
}

func TestPodsOfANodeThatNoLongerExistsAreDeletedAfterQuarantine(t *testing.T) {
	c, ctx := newCluster(t, podgc.Options{})
	_, err := c.Kubectl.Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	require.NoError(t, err)
	createPod(t, ctx, c, "web")
	createPod(t, ctx, c, "ghost")
	scheduler := c.Client("system:kube-scheduler", "kube-scheduler")
	err = scheduler.Bind(ctx, "default", "web", "node-1")
	require.NoError(t, err)
	err = scheduler.Bind(ctx, "default", "ghost", "node-9")
	require.NoError(t, err)

	require.NoError(t, c.Driver.Advance(ctx, podgc.GCCheckPeriod))
	assert.Equal(t, []string{"ghost", "web"}, podNames(t, ctx, c), "node-9 is only quarantined at first")
	require.NoError(t, c.Driver.Advance(ctx, podgc.QuarantineTime+podgc.GCCheckPeriod))
	assert.Equal(t, []string{"web"}, podNames(t, ctx, c))
	assert.Contains(t, testenv.Messages(c, podgc.Name), "found orphaned Pod default/ghost assigned to the Node node-9, which no longer exists: "+
		"mark it Failed (DisruptionTarget, DeletionByPodGC) and delete it")
}

func TestAPodWhoseNodeAppearsDuringQuarantineIsKept(t *testing.T) {
	c, ctx := newCluster(t, podgc.Options{})
	createPod(t, ctx, c, "early")
	err := c.Client("system:kube-scheduler", "kube-scheduler").Bind(ctx, "default", "early", "node-2")
	require.NoError(t, err)
	require.NoError(t, c.Driver.Advance(ctx, podgc.GCCheckPeriod))
	_, err = c.Kubectl.Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-2"}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.Advance(ctx, podgc.QuarantineTime+podgc.GCCheckPeriod))
	_, err = client.For[api.Pod](c.Kubectl.Client()).Get(ctx, "default", "early")
	assert.False(t, apierrors.IsNotFound(err))
}

// A pod bound to node-9, which does not exist, is deleted once the node has been missing for the
// 40-second quarantine: first missed at the 20 s pass, deleted at the 60 s one.
func Example() {
	c, ctx := testenv.Start(testenv.Step, withPodGC(podgc.Options{}))
	defer c.Close()
	if _, err := client.For[api.Pod](c.Kubectl.Client()).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "ghost", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}); err != nil {
		panic(err)
	}
	if err := c.Client("system:kube-scheduler", "kube-scheduler").Bind(ctx, "default", "ghost", "node-9"); err != nil {
		panic(err)
	}
	if err := c.Driver.Advance(ctx, 2*time.Minute); err != nil {
		panic(err)
	}
	for _, e := range testenv.StoryEvents(c, podgc.Name) {
		fmt.Println(e.Time, e.Message)
	}
	// Output:
	// 1m0s found orphaned Pod default/ghost assigned to the Node node-9, which no longer exists: mark it Failed (DisruptionTarget, DeletionByPodGC) and delete it
}
