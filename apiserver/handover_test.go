package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
)

// Without HandOver the apiserver works on a private copy: the caller's object comes back as it was
// sent. With it, a create works on the body itself (the object returned is the body, filled in), a
// status write reads the body without copying it, and an update of the whole object still copies
// (it may start again from the body as sent).
func TestHandOverSparesTheBodysCopy(t *testing.T) {
	ts := newTestServer(t)

	kept := nginxPod("kept")
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: kept})
	require.NoError(t, err)
	assert.NotSame(t, kept, resp.Object)
	assert.Empty(t, kept.UID, "the caller's object is untouched")
	assert.Empty(t, kept.Spec.SchedulerName)

	given := nginxPod("given")
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: given, HandOver: true})
	require.NoError(t, err)
	assert.Same(t, given, resp.Object, "the created object is the body handed over")
	assert.NotEmpty(t, given.UID)
	assert.Equal(t, "default-scheduler", given.Spec.SchedulerName, "admission worked on the body")

	// The watch cache holds its own copy: changing the returned object does not reach it.
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, given)))
	given.Labels["mine"] = "changed after the create"
	cached := ts.cache.get(podsResource(t), "default/given").(*api.Pod)
	assert.NotContains(t, cached.Labels, "mine")

	status := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "given"}, Status: api.PodStatus{Phase: api.PodRunning, Message: "handed over", QOSClass: api.PodQOSBestEffort}}
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: status, HandOver: true})
	require.NoError(t, err)
	written := resp.Object.(*api.Pod)
	assert.Equal(t, "handed over", written.Status.Message)
	assert.Equal(t, "nginx:1.25", written.Spec.Containers[0].Image, "a status write keeps the spec it had, whatever the body says")
	assert.Equal(t, "Pod", status.Kind, "the body itself was worked on")

	whole := api.DeepCopy(written)
	whole.Labels["tier"] = "web"
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: whole, HandOver: true})
	require.NoError(t, err)
	assert.NotSame(t, whole, resp.Object, "an update of the whole object works on a copy")
	assert.Equal(t, written.ResourceVersion, whole.ResourceVersion, "the body is as it was sent")
}
