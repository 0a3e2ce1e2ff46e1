package httpfront_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/apiserver/httpfront"
)

// The real kubectl's --as and --as-group reach the apiserver as impersonation headers: an admin's
// `auth can-i --as alice` answers for alice, a user without the verb impersonate gets Kubernetes'
// 403, and the audit trail names both the user and the one it acted as.
func TestKubectlAsAnotherUser(t *testing.T) {
	var (
		mu    sync.Mutex
		trail []httpfront.AuditEvent
	)
	_, hs := newFrontWith(t, httpfront.Config{Audit: func(ev httpfront.AuditEvent) {
		mu.Lock()
		defer mu.Unlock()
		trail = append(trail, ev)
	}})
	admin := newKubectl(t, hs, "admin-token")
	admin.expect("auth can-i create pods", `^yes\n$`)
	admin.expect("auth can-i create pods --as alice", `^no\n$`)
	admin.expect("auth can-i create pods --as alice --as-group system:masters", `^yes\n$`)
	admin.expect("get pods --as alice",
		`Error from server \(Forbidden\): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)

	// Without the verb impersonate even discovery is refused (as in Kubernetes, where kubectl get then
	// fails to read the API's resources): a request that needs none shows the 403 itself.
	alice := newKubectl(t, hs, "alice-token")
	alice.expect("get --raw /api/v1/namespaces/default/pods --as bob",
		`Error from server \(Forbidden\): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	alice.expect("get pods --as bob", `Forbidden`)
	alice.expect("get --raw /metrics --as admin --as-group system:masters",
		`users "admin" is forbidden: User "alice" cannot impersonate resource "users"`)

	mu.Lock()
	defer mu.Unlock()
	var acted *httpfront.AuditEvent
	for i, ev := range trail {
		if ev.ImpersonatedUser != nil && ev.ImpersonatedUser.Username == "alice" && ev.Verb == "get" {
			acted = &trail[i]
		}
	}
	require.NotNil(t, acted, "an audit event of the list as alice")
	assert.Equal(t, "admin", acted.User.Username, "the user who sent it")
	assert.Equal(t, []string{"system:authenticated"}, acted.ImpersonatedUser.Groups)
	for _, ev := range trail {
		if ev.User.Username == "alice" {
			assert.Nil(t, ev.ImpersonatedUser, "a refused impersonation acted as no one: %s", ev.RequestURI)
		}
	}
}

// `kubectl auth whoami` shows the user the apiserver sees, impersonated or not.
func TestKubectlAuthWhoami(t *testing.T) {
	_, hs := newFront(t)
	admin := newKubectl(t, hs, "admin-token")
	admin.expect("auth whoami", `ATTRIBUTE VALUE`, `Username admin\n`, `Groups \[system:masters system:authenticated\]`)
	admin.expect("auth whoami --as alice --as-group devs", `Username alice\n`, `Groups \[devs system:authenticated\]`)
	newKubectl(t, hs, "alice-token").expect("auth whoami -o jsonpath={.status.userInfo.username}", `^alice$`)
}
