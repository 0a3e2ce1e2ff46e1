package apiserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
)

// An update (or status update) that changes nothing writes nothing: the resourceVersion stays, as
// in Kubernetes, where such a request returns the stored object. One that changes something is
// stored as its JSON without the resourceVersion, which etcd's revision stands for.
func TestUpdateThatChangesNothingWritesNothing(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	pod := ts.create(t, nginxPod("same")).(*api.Pod)
	before := mustRev(t, ts)

	for _, sub := range []string{"", "status"} {
		resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: sub, Namespace: "default", Body: api.DeepCopy(pod)})
		require.NoError(t, err, sub)
		assert.Equal(t, pod.ResourceVersion, resp.Object.GetObjectMeta().ResourceVersion, "update %q of nothing", sub)
		assert.Equal(t, before, mustRev(t, ts), "etcd saw no write for update %q", sub)
	}

	changed := api.DeepCopy(pod)
	changed.Status.Message = "changed"
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: changed})
	require.NoError(t, err)
	stored := resp.Object.(*api.Pod)
	assert.Greater(t, rvOf(t, stored), rvOf(t, pod))
	kv, err := ts.store.Get(ctx, "/registry/pods/default/same")
	require.NoError(t, err)
	want := api.DeepCopy(stored)
	want.ResourceVersion = ""
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(kv.Value))
	assert.Equal(t, stored.ResourceVersion, resp.Object.GetObjectMeta().ResourceVersion)
	assert.NotContains(t, string(kv.Value), `"resourceVersion"`)
}
