package serviceaccount_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/serviceaccount"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

func newCluster(t testing.TB) (*sim.Cluster, context.Context) {
	return testenv.Cluster(t, testenv.Step, addController)
}

// addController adds the serviceaccount controller, alone, as kube-controller-manager builds it.
func addController(ctx context.Context, c *sim.Cluster) error {
	d := testenv.ForController(c, serviceaccount.Name)
	return c.Add(ctx, serviceaccount.New(d.Client, d.Informers, d.Clock, d.Trace))
}

func TestANewNamespaceGetsADefaultServiceAccount(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "demo"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}
	pods := client.For[api.Pod](c.Kubectl.Client())
	_, err = pods.Create(ctx, pod)
	require.EqualError(t, err, `pods "web" is forbidden: error looking up service account demo/default: serviceaccount "default" not found`,
		"before the controller has run, admission refuses pods")

	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	sa, err := client.For[api.ServiceAccount](c.Kubectl.Client()).Get(ctx, "demo", "default")
	require.NoError(t, err)
	assert.Equal(t, "default", sa.Name)
	_, err = pods.Create(ctx, pod)
	assert.NoError(t, err)
}

func TestADeletedDefaultServiceAccountIsRecreated(t *testing.T) {
	c, ctx := newCluster(t)
	sas := client.For[api.ServiceAccount](c.Kubectl.Client())
	before, err := sas.Get(ctx, "default", "default")
	require.NoError(t, err)
	require.NoError(t, c.Kubectl.Delete(ctx, "serviceaccounts", "default", "default", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	after, err := sas.Get(ctx, "default", "default")
	require.NoError(t, err)
	assert.NotEqual(t, before.UID, after.UID, "a new object")
}

func TestATerminatingNamespaceIsLeftAlone(t *testing.T) {
	c, ctx := newCluster(t)
	_, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	require.NoError(t, c.Kubectl.Delete(ctx, "namespaces", "", "demo", client.DeleteOptions{}))
	require.NoError(t, c.Kubectl.Delete(ctx, "serviceaccounts", "demo", "default", client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	_, err = client.For[api.ServiceAccount](c.Kubectl.Client()).Get(ctx, "demo", "default")
	assert.Error(t, err, "not recreated in a Terminating namespace")
}

// A namespace is created; the serviceaccount controller notices it has no "default" ServiceAccount.
func Example() {
	c, ctx := testenv.Start(testenv.Step, addController)
	defer c.Close()
	if _, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}); err != nil {
		panic(err)
	}
	if err := c.Driver.RunIdle(ctx, 20); err != nil {
		panic(err)
	}
	for _, e := range testenv.StoryEvents(c, serviceaccount.Name) {
		fmt.Println(e.Object, e.Message)
	}
	// Output:
	// serviceaccounts/demo/default namespace demo has no ServiceAccount "default": create it
}
