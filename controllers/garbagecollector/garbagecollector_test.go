package garbagecollector_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/garbagecollector"
	"kubesim/internal/testenv"
	"kubesim/sim"
	"kubesim/trace"
	"kubesim/wire"
)

// fixture is a step-mode cluster with the garbage collector and a Deployment -> ReplicaSet -> 2 Pods
// chain created by hand (there is no deployment or replicaset controller here).
type fixture struct {
	c    *sim.Cluster
	ctx  context.Context
	deps client.Resource[api.Deployment, *api.Deployment]
	rss  client.Resource[api.ReplicaSet, *api.ReplicaSet]
	pods client.Resource[api.Pod, *api.Pod]
	rs   *api.ReplicaSet
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	c, ctx := testenv.Cluster(t, testenv.Step, startCollector)

	admin := c.Kubectl.Client()
	f := &fixture{c: c, ctx: ctx, deps: client.For[api.Deployment](admin), rss: client.For[api.ReplicaSet](admin), pods: client.For[api.Pod](admin)}
	labels := map[string]string{"app": "nginx"}
	tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	d, err := f.deps.Create(ctx, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr[int32](2), Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl}})
	require.NoError(t, err)
	rsLabels := map[string]string{"app": "nginx", api.DefaultDeploymentUniqueLabelKey: "6d4cf56db6"}
	rsTmpl := tmpl
	rsTmpl.Labels = rsLabels
	f.rs, err = f.rss.Create(ctx, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "nginx-6d4cf56db6", Namespace: "default",
		Labels: rsLabels, OwnerReferences: []api.OwnerReference{controllerRef("apps/v1", "Deployment", d.Name, d.UID)}},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](2), Selector: &api.LabelSelector{MatchLabels: rsLabels}, Template: rsTmpl}})
	require.NoError(t, err)
	for _, name := range []string{"nginx-6d4cf56db6-a", "nginx-6d4cf56db6-b"} {
		_, err := f.pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: rsLabels,
			OwnerReferences: []api.OwnerReference{controllerRef("apps/v1", "ReplicaSet", f.rs.Name, f.rs.UID)}}, Spec: rsTmpl.Spec})
		require.NoError(t, err)
	}
	require.NoError(t, c.Driver.RunIdle(ctx, 50))
	return f
}

func controllerRef(apiVersion, kind, name, uid string) api.OwnerReference {
	return api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid,
		Controller: api.Ptr(true), BlockOwnerDeletion: api.Ptr(true)}
}

// startCollector adds the garbage collector to c, alone, as kube-controller-manager builds it.
func startCollector(ctx context.Context, c *sim.Cluster) error {
	d := testenv.ForController(c, garbagecollector.Name)
	return c.Add(ctx, garbagecollector.New(d.Client, d.Informers, d.Clock, d.Trace))
}

// createReplicaSetWithPod creates the ReplicaSet default/web and a pod it controls, named pod, by
// hand: there is no replicaset controller here.
func createReplicaSetWithPod(pod string) testenv.Setup {
	return func(ctx context.Context, c *sim.Cluster) error {
		admin := c.Kubectl.Client()
		labels := map[string]string{"app": "web"}
		spec := api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}
		rs, err := client.For[api.ReplicaSet](admin).Create(ctx, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](1), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: spec}}})
		if err != nil {
			return err
		}
		_, err = client.For[api.Pod](admin).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: pod, Namespace: "default", Labels: labels,
			OwnerReferences: []api.OwnerReference{controllerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)}}, Spec: spec})
		return err
	}
}

func (f *fixture) podCount(t *testing.T) int {
	pods, _, err := f.pods.List(f.ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	return len(pods)
}

func (f *fixture) gone(t *testing.T) func() (bool, error) {
	return func() (bool, error) {
		rss, _, err := f.rss.List(f.ctx, "default", client.ListOptions{})
		return err == nil && len(rss) == 0 && f.podCount(t) == 0, err
	}
}

// indexOf is the position of the first event whose object and action match, or -1.
func indexOf(events []trace.Event, component, action, object string) int {
	for i, e := range events {
		if e.Component == component && e.Action == action && e.Object == object {
			return i
		}
	}
	return -1
}

func TestBackgroundPropagationDeletesReplicaSetsThenPods(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "deployments", "default", "nginx", client.DeleteOptions{}))
	require.NoError(t, f.c.Driver.RunUntil(f.ctx, "the ReplicaSet and its pods are gone", f.gone(t), 50))

	msgs := testenv.Messages(f.c, garbagecollector.Name)
	assert.Contains(t, msgs, "delete replicasets/default/nginx-6d4cf56db6: its owner deployments/default/nginx is gone (background propagation)")
	assert.Contains(t, msgs, "delete pods/default/nginx-6d4cf56db6-a: its owner replicasets/default/nginx-6d4cf56db6 is gone (background propagation)")
}

func TestForegroundDeletionRemovesDependentsBeforeTheOwner(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "deployments", "default", "nginx",
		client.DeleteOptions{PropagationPolicy: wire.PropagationForeground}))

	d, err := f.deps.Get(f.ctx, "default", "nginx")
	require.NoError(t, err, "the owner stays while its dependents exist")
	assert.NotNil(t, d.DeletionTimestamp)
	assert.Contains(t, d.Finalizers, garbagecollector.FinalizerDeleteDependents)

	deploymentGone := func() (bool, error) {
		_, err := f.deps.Get(f.ctx, "default", "nginx")
		return err != nil, nil
	}
	require.NoError(t, f.c.Driver.RunUntil(f.ctx, "the Deployment is gone", deploymentGone, 50))
	assert.Zero(t, f.podCount(t))

	events := f.c.Trace.Events()
	podGone := indexOf(events, "etcd", "delete", "pods/default/nginx-6d4cf56db6-a")
	rsGone := indexOf(events, "etcd", "delete", "replicasets/default/nginx-6d4cf56db6")
	dGone := indexOf(events, "etcd", "delete", "deployments/default/nginx")
	require.True(t, podGone >= 0 && rsGone >= 0 && dGone >= 0)
	assert.Less(t, podGone, rsGone, "pods go before their ReplicaSet")
	assert.Less(t, rsGone, dGone, "the ReplicaSet goes before its Deployment")
	assert.Contains(t, testenv.Messages(f.c, garbagecollector.Name),
		"delete replicasets/default/nginx-6d4cf56db6: its owner deployments/default/nginx is being deleted in the foreground (propagationPolicy Foreground)")
}

func TestOrphanDeletionKeepsDependentsWithoutOwnerReference(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "replicasets", "default", "nginx-6d4cf56db6",
		client.DeleteOptions{PropagationPolicy: wire.PropagationOrphan}))
	rsGone := func() (bool, error) {
		_, err := f.rss.Get(f.ctx, "default", "nginx-6d4cf56db6")
		return err != nil, nil
	}
	require.NoError(t, f.c.Driver.RunUntil(f.ctx, "the ReplicaSet is gone", rsGone, 50))
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 50))

	pods, _, err := f.pods.List(f.ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, pods, 2, "orphaned pods stay")
	for _, p := range pods {
		assert.Empty(t, p.OwnerReferences, "%s no longer points at the ReplicaSet", p.Name)
	}
}

func TestAnObjectWithAnotherLiveOwnerOnlyLosesTheDeadReference(t *testing.T) {
	f := newFixture(t)
	other, err := f.rss.Create(f.ctx, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "other", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](0), Selector: &api.LabelSelector{MatchLabels: map[string]string{"x": "y"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"x": "y"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}}})
	require.NoError(t, err)
	p, err := f.pods.Get(f.ctx, "default", "nginx-6d4cf56db6-a")
	require.NoError(t, err)
	p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: other.Name, UID: other.UID})
	_, err = f.pods.Update(f.ctx, p)
	require.NoError(t, err)

	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "replicasets", "default", "nginx-6d4cf56db6", client.DeleteOptions{}))
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 50))

	pods, _, err := f.pods.List(f.ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, pods, 1)
	assert.Equal(t, "nginx-6d4cf56db6-a", pods[0].Name)
	require.Len(t, pods[0].OwnerReferences, 1)
	assert.Equal(t, "other", pods[0].OwnerReferences[0].Name)
}

func TestObjectsWithLiveOwnersAreLeftAlone(t *testing.T) {
	f := newFixture(t)
	for _, m := range testenv.Messages(f.c, garbagecollector.Name) {
		assert.False(t, strings.HasPrefix(m, "delete"), "nothing deleted: %s", m)
	}
	assert.Equal(t, 2, f.podCount(t))
}

func TestDeletingADaemonSetDeletesItsPods(t *testing.T) {
	f := newFixture(t)
	labels := map[string]string{"app": "fluentd"}
	spec := api.PodSpec{Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v1.16"}}}
	ds, err := client.For[api.DaemonSet](f.c.Kubectl.Client()).Create(f.ctx, &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "fluentd", Namespace: "default"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: labels}, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: spec}}})
	require.NoError(t, err)
	_, err = f.pods.Create(f.ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "fluentd-x", Namespace: "default", Labels: labels,
		OwnerReferences: []api.OwnerReference{controllerRef("apps/v1", "DaemonSet", ds.Name, ds.UID)}}, Spec: spec})
	require.NoError(t, err)
	require.NoError(t, f.c.Driver.RunIdle(f.ctx, 20))

	require.NoError(t, f.c.Kubectl.Delete(f.ctx, "daemonsets", "default", "fluentd", client.DeleteOptions{}))
	require.NoError(t, f.c.Driver.RunUntil(f.ctx, "the daemon pod is gone", func() (bool, error) {
		_, err := f.pods.Get(f.ctx, "default", "fluentd-x")
		return err != nil, nil
	}, 20))
	assert.Equal(t, 2, f.podCount(t), "the ReplicaSet's pods are not touched")
}
