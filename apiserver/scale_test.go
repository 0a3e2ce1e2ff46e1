package apiserver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// A scale write without a resourceVersion (kubectl scale's merge patch) that loses its
// compare-and-swap to another writer reads again and succeeds, as kube-apiserver's GuaranteedUpdate
// does; with a resourceVersion the same race is the caller's 409 Conflict.
func TestUnconditionalScaleRetriesALostCompareAndSwap(t *testing.T) {
	ts := newTestServer(t)
	ts.create(t, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr(int32(3)), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}}}}})

	// Each scale write's first attempt meets a controller that has just written the Deployment.
	var raced int
	ts.beforeWrite = func(key string) {
		if key != "/registry/deployments/default/web" || raced%2 == 1 {
			raced = 0
			return
		}
		raced++
		cur, err := ts.store.Get(context.Background(), key)
		require.NoError(t, err)
		_, err = ts.store.Update(context.Background(), key, cur.Value, cur.ModRevision)
		require.NoError(t, err)
	}
	defer func() { ts.beforeWrite = nil }()

	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbPatch, Resource: "deployments", Subresource: "scale",
		Namespace: "default", Name: "web", Body: &api.Scale{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ScaleSpec{Replicas: 5}}})
	require.NoError(t, err, "the patch is applied again to the Deployment as the other writer left it")
	assert.Equal(t, int32(5), resp.Object.(*api.Scale).Spec.Replicas)

	cur, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "deployments", Subresource: "scale", Namespace: "default", Name: "web"})
	require.NoError(t, err)
	sc := cur.Object.(*api.Scale)
	sc.Spec.Replicas = 2
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "deployments", Subresource: "scale",
		Namespace: "default", Name: "web", Body: sc})
	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err), "a resourceVersion makes the write conditional: %v", err)
	assert.Equal(t, `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`, err.Error())
}
