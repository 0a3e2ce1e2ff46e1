package namespace_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/controllers/namespace"
	"kubesim/controllers/serviceaccount"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

func newCluster(t *testing.T) (*sim.Cluster, context.Context) {
	t.Helper()
	return testenv.Cluster(t, testenv.Step, addServiceAccountController, addNamespaceController)
}

// addNamespaceController adds the namespace controller as kube-controller-manager builds it.
func addNamespaceController(ctx context.Context, c *sim.Cluster) error {
	d := testenv.ForController(c, namespace.Name)
	return c.Add(ctx, namespace.New(d.Client, d.Informers, d.Clock, d.Trace))
}

// addServiceAccountController adds the serviceaccount controller, which gives a namespace its
// "default" ServiceAccount.
func addServiceAccountController(ctx context.Context, c *sim.Cluster) error {
	d := testenv.ForController(c, serviceaccount.Name)
	return c.Add(ctx, serviceaccount.New(d.Client, d.Informers, d.Clock, d.Trace))
}

func TestDeletingANamespaceDeletesItsContentThenTheNamespace(t *testing.T) {
	c, ctx := newCluster(t)
	admin := c.Kubectl.Client()
	_, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 20)) // the serviceaccount controller creates demo/default
	_, err = client.For[api.Pod](admin).Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "demo"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}})
	require.NoError(t, err)
	_, err = client.For[api.Service](admin).Create(ctx, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "demo"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}})
	require.NoError(t, err)

	require.NoError(t, c.Kubectl.Delete(ctx, "namespaces", "", "demo", client.DeleteOptions{}))
	ns, err := client.For[api.Namespace](admin).Get(ctx, "", "demo")
	require.NoError(t, err, "a deleted namespace lingers while it is emptied")
	assert.Equal(t, api.NamespaceTerminating, ns.Status.Phase)

	gone := func() (bool, error) {
		_, err := client.For[api.Namespace](admin).Get(ctx, "", "demo")
		return apierrors.IsNotFound(err), nil
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "namespace demo is gone", gone, 20))
	for _, resource := range []string{"pods", "services", "serviceaccounts"} {
		items, err := c.Kubectl.List(ctx, resource, "demo", "")
		require.NoError(t, err)
		assert.Empty(t, items, resource)
	}
	assert.Contains(t, testenv.Messages(c, namespace.Name), "namespace demo is Terminating: deleted 1 pods, 1 serviceaccounts, 1 services")
	assert.Contains(t, testenv.Messages(c, namespace.Name), `namespace demo is empty: remove the finalizer "kubernetes" (namespaces/finalize), so the apiserver deletes it`)
}

func TestANamespaceWaitsForPodsInTheirGracePeriod(t *testing.T) {
	c, ctx := newCluster(t)
	admin := c.Kubectl.Client()
	_, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	pods := client.For[api.Pod](admin)
	_, err = pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "demo"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}})
	require.NoError(t, err)
	err = c.Client("system:kube-scheduler", "kube-scheduler").Bind(ctx, "demo", "web", "node-1")
	require.NoError(t, err)

	require.NoError(t, c.Kubectl.Delete(ctx, "namespaces", "", "demo", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunUntil(ctx, "the pod is terminating", func() (bool, error) {
		p, err := pods.Get(ctx, "demo", "web")
		return err == nil && p.DeletionTimestamp != nil, err
	}, 20))
	_, err = client.For[api.Namespace](admin).Get(ctx, "", "demo")
	require.NoError(t, err, "still there: the bound pod waits for its kubelet")
	assert.Contains(t, testenv.Messages(c, namespace.Name), "namespace demo still holds 1 pods being deleted: check again in 30s")

	// The kubelet confirms the pod stopped (a delete with grace period 0); the namespace can go.
	_, _, err = pods.Delete(ctx, "demo", "web", client.DeleteOptions{GracePeriodSeconds: api.Ptr[int64](0)})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "namespace demo is gone", func() (bool, error) {
		_, err := client.For[api.Namespace](admin).Get(ctx, "", "demo")
		return apierrors.IsNotFound(err), nil
	}, 20))
}
