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

// A status write based on the version the watch cache holds starts from the cache's copy, as
// kube-apiserver's GuaranteedUpdate does: no etcd read. The cache's copy of the old version is left
// as it was, and one based on an older version is still 409 Conflict.
func TestStatusUpdateStartsFromTheCachedVersion(t *testing.T) {
	ts := newTestServer(t)
	pod := ts.createCached(t, nginxPod("cached"))
	cachedOld := ts.cache.get(podsResource(t), "default/cached").(*api.Pod)
	require.Equal(t, pod.ResourceVersion, cachedOld.ResourceVersion)

	reads := ts.store.Stats().Reads
	next := api.DeepCopy(pod)
	next.Status.Phase, next.Status.Message = api.PodRunning, "running"
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: next})
	require.NoError(t, err)
	assert.Equal(t, reads, ts.store.Stats().Reads, "no etcd read")
	written := resp.Object.(*api.Pod)
	assert.Equal(t, "running", written.Status.Message)
	assert.Greater(t, rvOf(t, written), rvOf(t, pod))

	assert.Equal(t, pod.ResourceVersion, cachedOld.ResourceVersion, "the old version in the cache is untouched")
	assert.Empty(t, cachedOld.Status.Message)
	written.Labels["mine"] = "the caller's to change" // the response belongs to the caller
	assert.NotContains(t, cachedOld.Labels, "mine")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: api.DeepCopy(pod)})
	assert.True(t, apierrors.IsConflict(err), "based on the old version: %v", err)
}

// When the watch cache lags behind etcd, a status write based on the version the cache still holds
// gets etcd's answer, 409 Conflict, whether it changes something (the compare-and-swap fails) or
// nothing (an update of nothing is only skipped once etcd's copy agrees).
func TestStatusUpdateOnALaggingCacheGetsEtcdsAnswer(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	pod := ts.create(t, nginxPod("lagging")).(*api.Pod)
	next := api.DeepCopy(pod)
	next.Status.Message = "newer"
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: next})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(ctx, rvOf(t, resp.Object)))

	// The cache as it was before the last write: it still holds the first version.
	ts.staleCache("default/lagging", pod)

	unchanged := api.DeepCopy(pod)
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: unchanged})
	assert.True(t, apierrors.IsConflict(err), "an update of nothing on a stale version: %v", err)

	changed := api.DeepCopy(pod)
	changed.Status.Message = "based on the stale version"
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: changed})
	assert.True(t, apierrors.IsConflict(err), "a change on a stale version: %v", err)
	kv, err := ts.store.Get(ctx, "/registry/pods/default/lagging")
	require.NoError(t, err)
	assert.Contains(t, string(kv.Value), `"newer"`, "etcd keeps the newer write")
}

// A status write without a resourceVersion (the kubelet's) starts from the cache's latest copy: no
// etcd read. When the cache lags behind etcd, the compare-and-swap on the cached copy's revision
// fails and the status lands on etcd's newer copy, whose other changes it keeps.
func TestUnconditionalStatusUpdateStartsFromTheCachedCopyAndLandsOnEtcds(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	pod := ts.createCached(t, nginxPod("kubelets"))

	reads := ts.store.Stats().Reads
	running := api.DeepCopy(pod)
	running.ResourceVersion, running.Status.Phase = "", api.PodRunning
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: running})
	require.NoError(t, err)
	assert.Equal(t, reads, ts.store.Stats().Reads, "no etcd read")
	assert.Equal(t, api.PodRunning, resp.Object.(*api.Pod).Status.Phase)
	require.NoError(t, ts.WaitForRevision(ctx, rvOf(t, resp.Object)))

	reads = ts.store.Stats().Reads
	same, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: api.DeepCopy(running)})
	require.NoError(t, err)
	assert.Equal(t, resp.Object.GetObjectMeta().ResourceVersion, same.Object.GetObjectMeta().ResourceVersion, "nothing to write")
	assert.Equal(t, reads+1, ts.store.Stats().Reads, "one read, to confirm etcd's version")

	// Another writer labels the pod; the cache is made to miss it.
	cachedBefore := ts.cache.get(podsResource(t), "default/kubelets")
	labelled := api.DeepCopy(resp.Object.(*api.Pod))
	labelled.Labels = map[string]string{"tier": "web"}
	lresp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: labelled})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(ctx, rvOf(t, lresp.Object)))
	ts.staleCache("default/kubelets", cachedBefore)

	failed := api.DeepCopy(running)
	failed.Status.Phase = api.PodFailed
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: failed})
	require.NoError(t, err)
	assert.Equal(t, api.PodFailed, resp.Object.(*api.Pod).Status.Phase)
	assert.Equal(t, "web", resp.Object.(*api.Pod).Labels["tier"], "written over etcd's copy, not the cache's stale one")
	kv, err := ts.store.Get(ctx, "/registry/pods/default/kubelets")
	require.NoError(t, err)
	assert.Contains(t, string(kv.Value), `"tier":"web"`)
	assert.Contains(t, string(kv.Value), `"Failed"`)
}

func podsResource(t *testing.T) *api.Resource {
	res, ok := api.ResourceFor("pods")
	require.True(t, ok)
	return res
}
