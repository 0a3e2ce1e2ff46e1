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

// An update and a binding start from the watch cache's copy, as status writes do: no etcd read when
// the cache holds the version the request is based on. An update that changes nothing costs one etcd
// read (of the revision only) to confirm etcd still holds that version.
func TestUpdateAndBindingStartFromTheCachedVersion(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	pod := ts.createCached(t, nginxPod("cached"))

	reads := ts.store.Stats().Reads
	next := api.DeepCopy(pod)
	next.Labels = map[string]string{"tier": "web"}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: next})
	require.NoError(t, err)
	assert.Equal(t, reads, ts.store.Stats().Reads, "no etcd read")
	updated := resp.Object.(*api.Pod)
	assert.Equal(t, "web", updated.Labels["tier"])
	assert.Equal(t, pod.UID, updated.UID, "the server's fields come from the cached copy")
	require.NoError(t, ts.WaitForRevision(ctx, rvOf(t, updated)))

	reads = ts.store.Stats().Reads
	same, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: api.DeepCopy(updated)})
	require.NoError(t, err)
	assert.Equal(t, updated.ResourceVersion, same.Object.GetObjectMeta().ResourceVersion, "an update of nothing writes nothing")
	assert.Equal(t, reads+1, ts.store.Stats().Reads, "one read, to confirm etcd's version")

	reads = ts.store.Stats().Reads
	bound, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "cached",
		Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "cached", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}})
	require.NoError(t, err)
	assert.Equal(t, reads, ts.store.Stats().Reads, "no etcd read")
	assert.Equal(t, "node-1", bound.Object.(*api.Pod).Spec.NodeName)
	assert.Equal(t, "web", bound.Object.(*api.Pod).Labels["tier"])
}

// When the watch cache lags behind etcd (another apiserver wrote), an update or a binding started
// from the cache's copy fails its compare-and-swap and gets etcd's answer: 409 for an update based
// on the old version (changing something or nothing), and for a binding the pod as etcd holds it.
func TestUpdateAndBindingOnALaggingCacheGetEtcdsAnswer(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	pod := ts.create(t, nginxPod("lagging")).(*api.Pod)
	next := api.DeepCopy(pod)
	next.Labels = map[string]string{"tier": "newer"}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: next})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(ctx, rvOf(t, resp.Object)))

	// The cache as it was before the last write: it still holds the first version.
	ts.staleCache("default/lagging", pod)

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: api.DeepCopy(pod)})
	assert.True(t, apierrors.IsConflict(err), "an update of nothing on a stale version: %v", err)
	changed := api.DeepCopy(pod)
	changed.Labels = map[string]string{"tier": "stale"}
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: changed})
	assert.True(t, apierrors.IsConflict(err), "a change on a stale version: %v", err)

	bound, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "lagging",
		Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "lagging", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}})
	require.NoError(t, err)
	assert.Equal(t, "newer", bound.Object.(*api.Pod).Labels["tier"], "bound from etcd's copy, not the stale one")
	kv, err := ts.store.Get(ctx, "/registry/pods/default/lagging")
	require.NoError(t, err)
	assert.Contains(t, string(kv.Value), `"newer"`)
	assert.Contains(t, string(kv.Value), `"node-1"`)
}
