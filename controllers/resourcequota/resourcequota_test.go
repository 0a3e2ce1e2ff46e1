package resourcequota_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/controllers/resourcequota"
	"kubesim/sim"
)

func newCluster(t testing.TB) (*sim.Cluster, context.Context) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1, KeepTrace: true})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	cl := c.Client(resourcequota.Identity, resourcequota.Name)
	rq := resourcequota.New(cl, client.NewInformerFactory(cl, c.Clock, c.Trace), c.Clock, c.Trace)
	require.NoError(t, c.Add(ctx, rq))
	return c, ctx
}

func createQuota(t *testing.T, ctx context.Context, c *sim.Cluster, hard map[string]string) {
	t.Helper()
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "quota", Namespace: "default"},
		Spec: api.ResourceQuotaSpec{Hard: resource.ResourceList{}}}
	for k, v := range hard {
		q.Spec.Hard[resource.ResourceName(k)] = resource.MustParse(v)
	}
	_, err := c.Kubectl.Create(ctx, q)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunDue(ctx, 50))
}

// used is the quota's status.used as `kubectl describe quota` shows it, one "name=quantity" each.
func used(t *testing.T, ctx context.Context, c *sim.Cluster) string {
	t.Helper()
	q, err := client.For[api.ResourceQuota](c.Kubectl.Client()).Get(ctx, "default", "quota")
	require.NoError(t, err)
	return fmt.Sprint(q.Status.Used)
}

func pod(name, cpu string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25", Resources: api.ResourceRequirements{
			Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)},
			Limits:   resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}}}}}}
}

func TestANewQuotaGetsItsHardAndUsageCounted(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Create(ctx, pod("before", "250m"))
	require.NoError(t, err)
	createQuota(t, ctx, c, map[string]string{"pods": "5", "requests.cpu": "2", "limits.memory": "1Gi"})

	q, err := client.For[api.ResourceQuota](c.Kubectl.Client()).Get(ctx, "default", "quota")
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(q.Spec.Hard), fmt.Sprint(q.Status.Hard), "status.hard is spec.hard")
	assert.Equal(t, "map[limits.memory:0 pods:1 requests.cpu:250m]", used(t, ctx, c),
		"a pod created before the quota counts; a resource nobody uses is 0")
}

func TestDeletedAndFinishedPodsGiveTheirShareBack(t *testing.T) {
	c, ctx := newCluster(t)
	createQuota(t, ctx, c, map[string]string{"pods": "5", "requests.cpu": "2"})
	for _, name := range []string{"a", "b", "c"} {
		_, err := c.Kubectl.Create(ctx, pod(name, "500m"))
		require.NoError(t, err)
	}
	assert.Equal(t, "map[pods:3 requests.cpu:1500m]", used(t, ctx, c), "admission charged each create at once")

	require.NoError(t, c.Kubectl.Delete(ctx, "pods", "default", "a", client.DeleteOptions{GracePeriodSeconds: api.Ptr(int64(0))}))
	require.NoError(t, c.Driver.RunDue(ctx, 50))
	assert.Equal(t, "map[pods:2 requests.cpu:1]", used(t, ctx, c), "a deleted pod is given back")

	pods := client.For[api.Pod](c.Kubectl.Client())
	b, err := pods.Get(ctx, "default", "b")
	require.NoError(t, err)
	b.Status.Phase = api.PodSucceeded
	_, err = pods.UpdateStatus(ctx, b)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunDue(ctx, 50))
	assert.Equal(t, "map[pods:1 requests.cpu:500m]", used(t, ctx, c), "a Succeeded pod no longer counts")
}

func TestObjectCountsOfOtherKinds(t *testing.T) {
	c, ctx := newCluster(t)
	createQuota(t, ctx, c, map[string]string{"count/deployments.apps": "2", "services": "3", "count/resourcequotas": "1"})
	labels := map[string]string{"app": "web"}
	_, err := c.Kubectl.Create(ctx, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: pod("x", "100m").Spec}}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunDue(ctx, 50))
	assert.Equal(t, "map[count/deployments.apps:1 count/resourcequotas:1 services:1]", used(t, ctx, c))

	require.NoError(t, c.Kubectl.Delete(ctx, "deployments", "default", "web", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunDue(ctx, 50))
	assert.Equal(t, "map[count/deployments.apps:0 count/resourcequotas:1 services:1]", used(t, ctx, c))
}

// A status.used written wrong (by hand, or by admission for a create that then failed) is put right
// by the next full recount: on the resync every 5 minutes.
func TestTheResyncRecountsEveryQuota(t *testing.T) {
	c, ctx := newCluster(t)
	createQuota(t, ctx, c, map[string]string{"pods": "5"})
	quotas := client.For[api.ResourceQuota](c.Kubectl.Client())
	q, err := quotas.Get(ctx, "default", "quota")
	require.NoError(t, err)
	q.Status.Used[resource.ResourcePods] = resource.MustParse("4")
	_, err = quotas.UpdateStatus(ctx, q)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunDue(ctx, 50))
	assert.Equal(t, "map[pods:4]", used(t, ctx, c), "a status change alone queues nothing")

	require.NoError(t, c.Driver.Advance(ctx, resourcequota.ResyncPeriod+time.Second))
	assert.Equal(t, "map[pods:0]", used(t, ctx, c))
}

// A quota is created in an empty namespace; the controller fills in its status.
func Example() {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1, KeepTrace: true})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	cl := c.Client(resourcequota.Identity, resourcequota.Name)
	if err := c.Add(ctx, resourcequota.New(cl, client.NewInformerFactory(cl, c.Clock, c.Trace), c.Clock, c.Trace)); err != nil {
		panic(err)
	}
	if _, err := c.Kubectl.Create(ctx, &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "pods", Namespace: "default"},
		Spec: api.ResourceQuotaSpec{Hard: resource.ResourceList{resource.ResourcePods: resource.MustParse("10")}}}); err != nil {
		panic(err)
	}
	if err := c.Driver.RunDue(ctx, 50); err != nil {
		panic(err)
	}
	for _, e := range c.Trace.Events() {
		if e.Component == resourcequota.Name && e.Action == "update" {
			fmt.Println(e.Message)
		}
	}
	// Output:
	// recounted quota default/pods: used pods=0 of pods=10
}
