package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/client"
)

// kubectl get takes any name kubectl knows for a resource (plural, singular, short name), and a
// label selector; a delete removes the object, and the next get is 404 NotFound.
func TestGetListAndDelete(t *testing.T) {
	c := newCluster(t)
	c.applyNginx()

	obj, err := c.k.Get(c.ctx, "deploy", "default", "nginx")
	require.NoError(t, err)
	assert.Equal(t, "nginx", obj.GetObjectMeta().Name)
	nodes, err := c.k.List(c.ctx, "no", "", "")
	require.NoError(t, err)
	assert.Len(t, nodes, 2)
	none, err := c.k.List(c.ctx, "deployments", "default", "app=web")
	require.NoError(t, err)
	assert.Empty(t, none)

	_, err = c.k.Get(c.ctx, "widgets", "default", "w")
	assert.EqualError(t, err, `the server doesn't have a resource type "widgets"`)

	since := len(c.Trace.Events())
	require.NoError(t, c.k.Delete(c.ctx, "deployment", "default", "nginx", client.DeleteOptions{}))
	_, err = c.k.Get(c.ctx, "deployment", "default", "nginx")
	assert.EqualError(t, err, `deployments.apps "nginx" not found`)
	assert.Equal(t, []string{
		"kubernetes-admin: DELETE deployments.apps default/nginx",
		"kubernetes-admin: GET deployments.apps default/nginx",
		`kubernetes-admin: Error from server (NotFound): deployments.apps "nginx" not found`,
	}, c.said(since))
}
