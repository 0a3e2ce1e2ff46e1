package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// canI creates a SelfSubjectAccessReview as `kubectl auth can-i VERB RESOURCE -n NAMESPACE` does.
func (ts *testServer) canI(t *testing.T, token, verb, group, resource, namespace string) api.SubjectAccessReviewStatus {
	t.Helper()
	resp, err := ts.do(t, token, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectaccessreviews",
		Body: &api.SelfSubjectAccessReview{Spec: api.SelfSubjectAccessReviewSpec{ResourceAttributes: &api.ResourceAttributes{
			Namespace: namespace, Verb: verb, Group: group, Resource: resource}}}})
	require.NoError(t, err)
	return resp.Object.(*api.SelfSubjectAccessReview).Status
}

// A SelfSubjectAccessReview (authorization.k8s.io/v1) answers for the user who creates it, and any
// authenticated user may create one: the bootstrap ClusterRole system:basic-user allows it.
// https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access
func TestSelfSubjectAccessReviewAnswersForTheRequestingUser(t *testing.T) {
	ts := newTestServer(t)
	before := mustRev(t, ts)

	assert.Equal(t, api.SubjectAccessReviewStatus{}, ts.canI(t, aliceToken, "list", "", "pods", "default"),
		"alice has no binding: not allowed, and RBAC never denies explicitly")
	admin := ts.canI(t, adminToken, "delete", "apps", "deployments", "default")
	assert.True(t, admin.Allowed)
	assert.Contains(t, admin.Reason, `group "system:masters" is privileged`)
	assert.Equal(t, before, mustRev(t, ts), "a review is answered, never stored")

	ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-view", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	assert.Equal(t, api.SubjectAccessReviewStatus{Allowed: true,
		Reason: `RBAC: allowed by RoleBinding "default/alice-view" of ClusterRole "view" to User "alice"`},
		ts.canI(t, aliceToken, "list", "", "pods", "default"), "the answer reflects the RoleBinding just written")
	assert.False(t, ts.canI(t, aliceToken, "create", "", "pods", "default").Allowed, "view does not allow create")
	assert.False(t, ts.canI(t, aliceToken, "list", "", "pods", "kube-system").Allowed, "nor reach other namespaces")
}

func TestSelfSubjectAccessReviewIsCreateOnlyAndNeedsAttributes(t *testing.T) {
	ts := newTestServer(t)
	_, err := ts.do(t, aliceToken, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectaccessreviews", Body: &api.SelfSubjectAccessReview{}})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "selfsubjectaccessreviews"})
	assert.Equal(t, 405, apierrors.CodeForError(err), "%v", err)
	assert.EqualError(t, err, `list is not supported on resources of kind "selfsubjectaccessreviews.authorization.k8s.io"`)

	_, err = ts.do(t, "", wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectaccessreviews", Body: &api.SelfSubjectAccessReview{}})
	assert.True(t, apierrors.IsUnauthorized(err), "anonymous requests are stopped at authentication, as any other")
}
