package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
)

// Without HandOver the apiserver works on a private copy and the watch cache keeps a copy of its own:
// the caller's object comes back as it was sent, and the object answered is the caller's to change.
// With it, a create works on the body itself and the cache keeps that very object; a status write
// and a binding store a pod that shares every part but the ones they change with the one before; the
// answer is a shallow copy sharing its parts with the cache's object. An update of the whole object
// still copies (it may start again from the body as sent).
func TestHandOverSparesTheCopies(t *testing.T) {
	ts := newTestServer(t)
	pods := podsResource(t)
	cached := func(name string) *api.Pod { return ts.cache.get(pods, "default/"+name).(*api.Pod) }

	kept := nginxPod("kept")
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: kept})
	require.NoError(t, err)
	answer := resp.Object.(*api.Pod)
	assert.NotSame(t, kept, answer)
	assert.Empty(t, kept.UID, "the caller's object is untouched")
	assert.Empty(t, kept.Spec.SchedulerName)
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, answer)))
	answer.Labels["mine"] = "changed-after-the-create"
	assert.NotContains(t, cached("kept").Labels, "mine", "the answer is the caller's own: the cache keeps a copy")
	assert.NotSame(t, &answer.Spec.Containers[0], &cached("kept").Spec.Containers[0])

	given := nginxPod("given")
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: given, HandOver: true})
	require.NoError(t, err)
	answer = resp.Object.(*api.Pod)
	assert.NotEmpty(t, answer.UID)
	assert.Equal(t, "default-scheduler", given.Spec.SchedulerName, "admission worked on the body")
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, answer)))
	stored := cached("given")
	assert.Same(t, given, stored, "the cache keeps the body handed over, not a copy")
	assert.Equal(t, answer.ResourceVersion, stored.ResourceVersion)
	assert.Same(t, &stored.Spec.Containers[0], &answer.Spec.Containers[0], "the answer shares its parts with the cache's object")

	status := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "given"}, Status: api.PodStatus{Phase: api.PodRunning, Message: "handed over", QOSClass: api.PodQOSBestEffort,
		Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}, PodIP: "10.244.1.7", PodIPs: []api.PodIP{{IP: "10.244.1.7"}},
		ContainerStatuses: []api.ContainerStatus{{Name: "nginx", Image: "nginx:1.25", Started: api.Ptr(true), State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}}}
	sent := api.DeepCopy(status)
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Body: status, HandOver: true})
	require.NoError(t, err)
	written := resp.Object.(*api.Pod)
	assert.Equal(t, "handed over", written.Status.Message)
	assert.Equal(t, "nginx:1.25", written.Spec.Containers[0].Image, "a status write keeps the spec it had, whatever the body says")
	assert.Equal(t, "Pod", status.Kind, "the body itself was worked on")
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, written)))
	after := cached("given")
	assert.Equal(t, written.ResourceVersion, after.ResourceVersion)
	assert.Same(t, &stored.Spec.Containers[0], &after.Spec.Containers[0], "the new version shares the spec with the one before")
	assert.Same(t, &status.Status.Conditions[0], &after.Status.Conditions[0], "and takes the body's status as it is")
	assert.Same(t, status.Status.ContainerStatuses[0].State.Running, after.Status.ContainerStatuses[0].State.Running)
	assert.Equal(t, sent.Status, status.Status, "a status write changes nothing under the body's status (a kubelet keeps sharing its parts)")

	before := cached("given")
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "given",
		Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "given", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}, HandOver: true})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, resp.Object)))
	bound := cached("given")
	assert.Equal(t, "node-1", bound.Spec.NodeName)
	assert.Empty(t, before.Spec.NodeName, "the version before is unchanged")
	assert.Same(t, &before.Spec.Containers[0], &bound.Spec.Containers[0], "a binding shares the spec's parts with the version before")
	assert.Len(t, bound.Status.Conditions, 2, "PodScheduled added")
	assert.Len(t, before.Status.Conditions, 1, "to a conditions list of the bound pod's own")

	whole := api.DeepCopy(bound)
	whole.Labels["tier"] = "web"
	whole.ResourceVersion = ""
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Body: whole, HandOver: true})
	require.NoError(t, err)
	assert.NotSame(t, whole, resp.Object, "an update of the whole object works on a copy")
	assert.Empty(t, whole.ResourceVersion, "the body is as it was sent")
}

// Binding without HandOver stores a deep copy: the answer is the caller's own.
func TestBindingWithoutHandOverAnswersACopy(t *testing.T) {
	ts := newTestServer(t)
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web")})
	require.NoError(t, err)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "default", Name: "web",
		Body: &api.Binding{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}})
	require.NoError(t, err)
	answer := resp.Object.(*api.Pod)
	require.NoError(t, ts.WaitForRevision(t.Context(), rvOf(t, answer)))
	stored := ts.cache.get(podsResource(t), "default/web").(*api.Pod)
	assert.Equal(t, "node-1", stored.Spec.NodeName)
	assert.NotSame(t, &stored.Spec.Containers[0], &answer.Spec.Containers[0])
}
