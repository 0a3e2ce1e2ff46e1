package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// rulesIn creates a SelfSubjectRulesReview as `kubectl auth can-i --list -n NAMESPACE` does.
func (ts *testServer) rulesIn(t *testing.T, token, namespace string) api.SubjectRulesReviewStatus {
	t.Helper()
	resp, err := ts.do(t, token, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectrulesreviews",
		Body: &api.SelfSubjectRulesReview{Spec: api.SelfSubjectRulesReviewSpec{Namespace: namespace}}})
	require.NoError(t, err)
	return resp.Object.(*api.SelfSubjectRulesReview).Status
}

// A SelfSubjectRulesReview lists the rules RBAC grants the requesting user in a namespace: those of
// its ClusterRoleBindings, then those of the namespace's RoleBindings. Nothing is stored.
// https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access
func TestSelfSubjectRulesReviewListsTheUsersRules(t *testing.T) {
	ts := newTestServer(t)
	before := mustRev(t, ts)

	basic := []api.ResourceRule{{Verbs: []string{"create"}, APIGroups: []string{api.AuthorizationGroupName},
		Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}},
		{Verbs: []string{"create"}, APIGroups: []string{api.AuthenticationGroupName}, Resources: []string{"selfsubjectreviews"}}}
	assert.Equal(t, api.SubjectRulesReviewStatus{ResourceRules: basic, NonResourceRules: []api.NonResourceRule{}},
		ts.rulesIn(t, aliceToken, "default"), "alice, bound to nothing, holds only what every authenticated user holds")

	admin := ts.rulesIn(t, adminToken, "default")
	assert.Contains(t, admin.ResourceRules, api.ResourceRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}})
	assert.Equal(t, []api.NonResourceRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}, admin.NonResourceRules,
		"system:masters is bound to cluster-admin, which also holds every path")
	assert.Equal(t, before, mustRev(t, ts), "a review is answered, never stored")

	ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-view", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	inDefault := ts.rulesIn(t, aliceToken, "default")
	require.Len(t, inDefault.ResourceRules, 4, "system:basic-user's two rules, then view's two")
	assert.Equal(t, []string{"get", "list", "watch"}, inDefault.ResourceRules[2].Verbs)
	assert.Contains(t, inDefault.ResourceRules[2].Resources, "pods")
	assert.Len(t, ts.rulesIn(t, aliceToken, "kube-system").ResourceRules, 2, "a RoleBinding grants only in its namespace")

	node := ts.rulesIn(t, node1Token, "default")
	assert.True(t, node.Incomplete, "the Node authorizer cannot enumerate a kubelet's rights")
	assert.Equal(t, "node authorizer does not support user rule resolution", node.EvaluationError)
}

func TestSelfSubjectRulesReviewNeedsANamespaceAndIsCreateOnly(t *testing.T) {
	ts := newTestServer(t)
	_, err := ts.do(t, aliceToken, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectrulesreviews", Body: &api.SelfSubjectRulesReview{}})
	assert.True(t, apierrors.IsBadRequest(err), "%v", err)
	assert.EqualError(t, err, "no namespace on request")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "selfsubjectrulesreviews", Name: "x"})
	assert.Equal(t, 405, apierrors.CodeForError(err), "%v", err)
}
