package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
)

// `kubectl auth whoami`: a SelfSubjectReview answers with the user the request runs as (the one
// acted as, under impersonation), and is never stored.
func TestSelfSubjectReviewAnswersWhoTheRequestRunsAs(t *testing.T) {
	ts := newTestServer(t)
	before := mustRev(t, ts)
	whoami := func(token string, imp *wire.Impersonation) api.UserInfo {
		resp, err := ts.do(t, token, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectreviews", Impersonate: imp,
			Body: &api.SelfSubjectReview{}})
		require.NoError(t, err)
		review := resp.Object.(*api.SelfSubjectReview)
		assert.False(t, review.CreationTimestamp.IsZero(), "stamped with when it was answered")
		return review.Status.UserInfo
	}
	assert.Equal(t, api.UserInfo{Username: "alice", Groups: []string{GroupAuthenticated}}, whoami(aliceToken, nil),
		"any authenticated user may ask (system:basic-user)")
	assert.Equal(t, api.UserInfo{Username: "admin", Groups: []string{GroupMasters, GroupAuthenticated}}, whoami(adminToken, nil))
	assert.Equal(t, api.UserInfo{Username: "bob", Groups: []string{"devs", GroupAuthenticated}},
		whoami(adminToken, &wire.Impersonation{User: "bob", Groups: []string{"devs"}}))
	assert.Equal(t, before, mustRev(t, ts), "a review is answered, never stored")

	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "selfsubjectreviews"})
	assert.EqualError(t, err, `list is not supported on resources of kind "selfsubjectreviews.authentication.k8s.io"`)
}
