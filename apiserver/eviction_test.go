package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// The Eviction API asks the pod's PodDisruptionBudget (pkg/registry/core/pod/storage/eviction.go):
// with one disruption allowed it takes it (disruptionsAllowed 0, the pod in disruptedPods) and
// deletes the pod; with none left it answers 429 TooManyRequests, "Cannot evict pod as it would
// violate the pod's disruption budget.", with a DisruptionBudget cause, and the pod stays.
func TestEvictionHonoursTheDisruptionBudget(t *testing.T) {
	ts := newTestServer(t)
	for _, name := range []string{"web-1", "web-2"} {
		p := nginxPod(name)
		p.Status.Phase = api.PodRunning
		created := ts.create(t, p).(*api.Pod)
		created.Status.Phase = api.PodRunning
		_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Name: name, Body: created})
		require.NoError(t, err)
	}
	one := api.FromInt32(1)
	pdb := ts.create(t, &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web-pdb", Namespace: "default"},
		Spec: api.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}}}).(*api.PodDisruptionBudget)
	pdb.Status = api.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2}
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "poddisruptionbudgets", Subresource: "status", Namespace: "default", Name: "web-pdb", Body: pdb})
	require.NoError(t, err)
	evict := func(name string) error {
		_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Subresource: "eviction", Namespace: "default", Name: name,
			Body: &api.Eviction{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}})
		return err
	}

	require.NoError(t, evict("web-1"))
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "poddisruptionbudgets", Namespace: "default", Name: "web-pdb"})
	require.NoError(t, err)
	st := resp.Object.(*api.PodDisruptionBudget).Status
	assert.Equal(t, int32(0), st.DisruptionsAllowed)
	assert.Contains(t, st.DisruptedPods, "web-1")

	err = evict("web-2")
	require.Error(t, err)
	assert.Equal(t, 429, apierrors.CodeForError(err))
	assert.Equal(t, "Cannot evict pod as it would violate the pod's disruption budget.", err.Error())
	var se *apierrors.StatusError
	require.ErrorAs(t, err, &se)
	require.NotNil(t, se.ErrStatus.Details)
	assert.Equal(t, []apierrors.StatusCause{{Type: "DisruptionBudget", Message: "The disruption budget web-pdb needs 1 healthy pods and has 2 currently"}},
		se.ErrStatus.Details.Causes)
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: "web-2"})
	assert.NoError(t, err, "the refused pod stays")
}
