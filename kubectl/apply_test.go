package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
)

// kubectl apply creates what does not exist and replaces what does; a manifest with an unknown field
// is refused before anything is sent (kubectl's strict decoding).
func TestApplyCreatesThenUpdates(t *testing.T) {
	c := newCluster(t)
	since := len(c.Trace.Events())
	c.applyNginx()
	c.applyNginx()
	assert.Equal(t, []string{
		"kubernetes-admin: GET deployments.apps default/nginx (kubectl apply: does it exist yet?)",
		"kubernetes-admin: POST deployments.apps default/nginx (replicas 3, image nginx:1.25)",
		"kubernetes-admin: GET deployments.apps default/nginx (kubectl apply: does it exist yet?)",
		"kubernetes-admin: PUT deployments.apps default/nginx (replicas 3, image nginx:1.25)",
	}, c.said(since))

	_, err := c.k.Apply(c.ctx, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: typo}\nspec: {containers: [{name: web, image: nginx, imagePullPolcy: Always}]}\n"))
	require.True(t, apierrors.IsBadRequest(err), "%v", err)
	assert.Contains(t, err.Error(), `unknown field "spec.containers[0].imagePullPolcy"`)
}

// --dry-run=server: every gate runs, nothing is stored.
func TestCreateDryRunStoresNothing(t *testing.T) {
	c := newCluster(t)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "dry", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}
	got, err := c.k.CreateDryRun(c.ctx, pod)
	require.NoError(t, err)
	assert.Equal(t, "dry", got.GetObjectMeta().Name)
	_, err = client.For[api.Pod](c.k.Client()).Get(c.ctx, "default", "dry")
	assert.True(t, apierrors.IsNotFound(err))
}
