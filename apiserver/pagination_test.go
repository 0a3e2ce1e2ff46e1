package apiserver

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// podChunk asks for one chunk of the pods in default, as `kubectl get pods --chunk-size=N` does.
func (ts *testServer) podChunk(t *testing.T, limit int64, cont string) (*wire.ListResult, error) {
	t.Helper()
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", Limit: limit, Continue: cont})
	if err != nil {
		return nil, err
	}
	return resp.List, nil
}

func names(items []api.Object) []string {
	var out []string
	for _, o := range items {
		out = append(out, o.GetObjectMeta().Name)
	}
	return out
}

// A list in chunks is one consistent list: every chunk is read at the first chunk's revision, so a
// pod created or deleted between two chunks changes nothing in what the client assembles, and the
// continue token is Kubernetes' (base64 JSON with the revision and the key to go on from).
// https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks
func TestListInChunksIsConsistentAtTheFirstChunksRevision(t *testing.T) {
	ts := newTestServer(t)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		ts.create(t, nginxPod(n))
	}
	first, err := ts.podChunk(t, 2, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, names(first.Items))
	require.NotNil(t, first.RemainingItemCount)
	assert.Equal(t, int64(3), *first.RemainingItemCount)
	token, err := base64.RawURLEncoding.DecodeString(first.Continue)
	require.NoError(t, err)
	assert.JSONEq(t, `{"v":"meta.k8s.io/v1","rv":`+first.ResourceVersion+`,"start":"b\u0000"}`, string(token))

	ts.create(t, nginxPod("bb"))
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "pods", Namespace: "default", Name: "d", GracePeriodSeconds: new(int64)})
	require.NoError(t, err)

	var all []string
	for chunk := first; ; {
		all = append(all, names(chunk.Items)...)
		assert.Equal(t, first.ResourceVersion, chunk.ResourceVersion, "every chunk is at the first chunk's revision")
		if chunk.Continue == "" {
			break
		}
		chunk, err = ts.podChunk(t, 2, chunk.Continue)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, all, "neither bb (created after) nor d's deletion shows")

	now, err := ts.podChunk(t, 0, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "bb", "c", "e"}, names(now.Items), "a fresh list sees both")
	assert.Empty(t, now.Continue, "without a limit the list is whole")
}

// Once etcd has compacted the first chunk's revision, its token has expired: 410 Gone in Kubernetes'
// words, with a token that goes on at the current revision.
func TestAnExpiredContinueIsGoneWithATokenForTheRest(t *testing.T) {
	ts := newTestServer(t)
	for _, n := range []string{"a", "b", "c"} {
		ts.create(t, nginxPod(n))
	}
	first, err := ts.podChunk(t, 1, "")
	require.NoError(t, err)
	ts.create(t, nginxPod("z"))
	require.NoError(t, ts.Compact(context.Background(), mustRev(t, ts)))

	_, err = ts.podChunk(t, 1, first.Continue)
	require.True(t, apierrors.IsResourceExpired(err), "%v", err)
	assert.Equal(t, 410, apierrors.CodeForError(err))
	assert.Contains(t, err.Error(), "The provided continue parameter is too old to display a consistent list result.")
	var gone *apierrors.StatusError
	require.ErrorAs(t, err, &gone)
	rest, err := ts.podChunk(t, 0, gone.ErrStatus.Continue)
	require.NoError(t, err, "the token in the 410 goes on at the current revision")
	assert.Equal(t, []string{"b", "c", "z"}, names(rest.Items))
}

// A chunked list of what a selector keeps reads on until the chunk is full, and gives no
// remainingItemCount (etcd's count includes what the selector drops); a token is checked.
func TestChunksWithASelectorAndBadTokens(t *testing.T) {
	ts := newTestServer(t)
	for i, n := range []string{"a", "b", "c", "d", "e", "f"} {
		p := nginxPod(n)
		if i%3 != 0 {
			p.Labels = map[string]string{"app": "other"}
		}
		ts.create(t, p)
	}
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", LabelSelector: "app=nginx", Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, names(resp.List.Items))
	assert.Nil(t, resp.List.RemainingItemCount)
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", LabelSelector: "app=nginx", Limit: 1, Continue: resp.List.Continue})
	require.NoError(t, err)
	assert.Equal(t, []string{"d"}, names(resp.List.Items), "b and c are read and dropped")

	for token, msg := range map[string]string{
		"%%%": "invalid continue token: continue key is not valid",
		base64.RawURLEncoding.EncodeToString([]byte(`{"v":"meta.k8s.io/v1","rv":5,"start":"../secrets/x"}`)): "invalid continue token: continue key is not valid: ../secrets/x",
		base64.RawURLEncoding.EncodeToString([]byte(`{"v":"meta.k8s.io/v1","rv":0,"start":"a"}`)):            "incorrect encoded start resourceVersion",
	} {
		_, err := ts.podChunk(t, 1, token)
		assert.True(t, apierrors.IsBadRequest(err), "%v", err)
		assert.ErrorContains(t, err, msg)
	}
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", Limit: 1, Continue: resp.List.Continue, ResourceVersion: "5"})
	assert.EqualError(t, err, "specifying resource version is not allowed when using continue")
}
