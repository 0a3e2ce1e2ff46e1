package apiserver

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// `kubectl auth can-i list pods --as alice`: an admin asks what alice may do, and the answer is
// alice's, not the admin's; every later gate sees alice.
func TestImpersonationAnswersForTheUserAskedFor(t *testing.T) {
	ts := newTestServer(t)
	asAlice := &wire.Impersonation{User: "alice"}
	review := func(imp *wire.Impersonation) api.SubjectAccessReviewStatus {
		resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "selfsubjectaccessreviews", Impersonate: imp,
			Body: &api.SelfSubjectAccessReview{Spec: api.SelfSubjectAccessReviewSpec{ResourceAttributes: &api.ResourceAttributes{
				Namespace: "default", Verb: "list", Resource: "pods"}}}})
		require.NoError(t, err)
		return resp.Object.(*api.SelfSubjectAccessReview).Status
	}
	assert.True(t, review(nil).Allowed, "the admin may")
	assert.False(t, review(asAlice).Allowed, "alice, who has no binding, may not")
	assert.True(t, review(&wire.Impersonation{User: "alice", Groups: []string{GroupMasters}}).Allowed,
		"alice in the groups asked for")

	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default", Impersonate: asAlice})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.EqualError(t, err, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)
	assert.True(t, traceContains(ts.trace, `user "admin" (groups [system:masters system:authenticated]) acts as user "alice" (groups [system:authenticated])`),
		"the trace tells who acted as whom")

	// A create as alice, once alice may: the pod is created by alice (the trace's actor).
	ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-edit", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Impersonate: asAlice,
		Body: nginxPod("by-alice")})
	require.NoError(t, err)
	authorized, written := false, false
	for _, e := range ts.trace.Events() {
		authorized = authorized || e.Action == "authorize" && e.Actor == "alice" && strings.Contains(e.Message, "create pods -n default: RBAC: allowed")
		written = written || e.Action == "put" && e.Actor == "alice" && e.Object == "pods/default/by-alice"
	}
	assert.True(t, authorized, "the create is authorized as alice")
	assert.True(t, written, "and written as alice's")
}

// Who may impersonate whom is RBAC's verb impersonate: without it the request stops with the 403
// Kubernetes words for it, naming the first thing refused; a rule's resourceNames narrow it to some
// users.
func TestImpersonationNeedsTheVerbImpersonate(t *testing.T) {
	ts := newTestServer(t)
	list := func(imp *wire.Impersonation) error {
		_, err := ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "configmaps", Namespace: "default", Impersonate: imp})
		return err
	}
	err := list(&wire.Impersonation{User: "bob"})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.EqualError(t, err, `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	assert.True(t, traceContains(ts.trace, `impersonating user "bob" -> 403`), "the trace tells the refusal")

	ts.create(t, &api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "impersonate-bob"},
		Rules: []api.PolicyRule{{APIGroups: []string{""}, Resources: []string{"users"}, Verbs: []string{"impersonate"}, ResourceNames: []string{"bob"}}}})
	ts.create(t, &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-impersonates-bob"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "impersonate-bob"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	err = list(&wire.Impersonation{User: "bob"})
	assert.EqualError(t, err, `configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"`,
		"allowed to act as bob, alice gets bob's answer")
	err = list(&wire.Impersonation{User: "carol"})
	assert.EqualError(t, err, `users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	err = list(&wire.Impersonation{User: "bob", Groups: []string{"devs"}})
	assert.EqualError(t, err, `groups "devs" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope`,
		"each group is a check of its own")
	err = list(&wire.Impersonation{User: "bob", UID: "42"})
	assert.EqualError(t, err, `uids.authentication.k8s.io "42" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope`)
	err = list(&wire.Impersonation{User: "bob", Extra: map[string][]string{"scopes": {"view"}}})
	assert.EqualError(t, err, `userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope`)

	err = list(&wire.Impersonation{Groups: []string{"devs"}})
	assert.Equal(t, 500, apierrors.CodeForError(err), "%v", err)
	assert.Contains(t, err.Error(), `requested groups ["devs"] without impersonating a user`)
}

// The user acted as has the groups asked for and no others of its own, plus system:authenticated; a
// service account has its fixed groups unless groups are asked for; system:anonymous is
// unauthenticated. Acting as a service account is the verb impersonate on serviceaccounts in its
// namespace, which Kubernetes' edit role grants.
func TestImpersonatedUsersGroups(t *testing.T) {
	ts := newTestServer(t)
	admin := User{Name: "admin", Groups: []string{GroupMasters}}
	for _, tc := range []struct {
		imp  wire.Impersonation
		want User
	}{
		{wire.Impersonation{User: "alice"}, User{Name: "alice", Groups: []string{GroupAuthenticated}}},
		{wire.Impersonation{User: "alice", Groups: []string{"devs"}}, User{Name: "alice", Groups: []string{"devs", GroupAuthenticated}}},
		{wire.Impersonation{User: "alice", Groups: []string{GroupUnauthenticated}}, User{Name: "alice", Groups: []string{GroupUnauthenticated}}},
		{wire.Impersonation{User: "system:serviceaccount:team-a:builder"},
			User{Name: "system:serviceaccount:team-a:builder", Groups: []string{GroupServiceAccounts, "system:serviceaccounts:team-a", GroupAuthenticated}}},
		{wire.Impersonation{User: "system:serviceaccount:team-a:builder", Groups: []string{"devs"}},
			User{Name: "system:serviceaccount:team-a:builder", Groups: []string{"devs", GroupAuthenticated}}},
		{wire.Impersonation{User: "system:serviceaccount:not:an:account"},
			User{Name: "system:serviceaccount:not:an:account", Groups: []string{GroupAuthenticated}}},
		{wire.Impersonation{User: UserAnonymous}, User{Name: UserAnonymous, Groups: []string{GroupUnauthenticated}}},
	} {
		got, denied, err := ts.actAs(admin, &tc.imp, true)
		require.NoError(t, err, "%+v", tc.imp)
		assert.Nil(t, denied)
		assert.Equal(t, tc.want, got, "%+v", tc.imp)
	}

	ts.create(t, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-edit", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice"}}})
	_, err := ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "default",
		Impersonate: &wire.Impersonation{User: "system:serviceaccount:default:default"}})
	assert.EqualError(t, err, `pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"`,
		"edit lets alice act as the namespace's service accounts")
	_, err = ts.do(t, aliceToken, wire.Request{Verb: wire.VerbList, Resource: "pods", Namespace: "kube-system",
		Impersonate: &wire.Impersonation{User: "system:serviceaccount:kube-system:default"}})
	assert.EqualError(t, err, `serviceaccounts "default" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"`,
		"but only in the namespace it is bound in")
}

// The HTTP front asks Impersonate before it serves any path: a refusal is the same 403 and is told
// in the trace, naming the request; an allowed switch returns the user acted as.
func TestImpersonateForTheFront(t *testing.T) {
	ts := newTestServer(t)
	alice := User{Name: "alice", Groups: []string{GroupAuthenticated}}
	_, err := ts.Impersonate(context.Background(), alice, &wire.Impersonation{User: "bob"}, "GET /api")
	assert.EqualError(t, err, `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	assert.True(t, traceContains(ts.trace, `GET /api, impersonating user "bob" -> 403 users "bob" is forbidden`), "the refusal is told")
	u, err := ts.Impersonate(context.Background(), User{Name: "admin", Groups: []string{GroupMasters}}, &wire.Impersonation{User: "bob"}, "GET /metrics")
	require.NoError(t, err)
	assert.Equal(t, User{Name: "bob", Groups: []string{GroupAuthenticated}}, u)
}
