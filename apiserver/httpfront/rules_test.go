package httpfront_test

import (
	"testing"
)

// `kubectl auth can-i --list` creates a SelfSubjectRulesReview for the namespace and prints the rules
// it gets back as its table, compacted. The admin (system:masters, bound to cluster-admin) holds
// everything; alice, bound to nothing, holds what every authenticated user holds, and then what a
// RoleBinding gives her in its namespace only.
func TestKubectlAuthCanIList(t *testing.T) {
	t.Parallel() // it mostly waits for kubectl processes, beside the other kubectl tests
	_, hs := newFront(t)
	admin, alice := newKubectl(t, hs, "admin-token"), newKubectl(t, hs, "alice-token")

	admin.expect("auth can-i --list", `(?m)^Resources Non-Resource URLs Resource Names Verbs$`,
		`(?m)^\*\.\* \[\] \[\] \[\*\]$`, `(?m)^ \[\*\] \[\] \[\*\]$`)
	alice.expect("auth can-i --list", `(?m)^Resources Non-Resource URLs Resource Names Verbs$`,
		`(?m)^selfsubjectaccessreviews.authorization.k8s.io \[\] \[\] \[create\]$`,
		`(?m)^selfsubjectrulesreviews.authorization.k8s.io \[\] \[\] \[create\]$`)
	if got := alice.run("", "auth", "can-i", "--list"); regexpMatch(`pods`, got) {
		t.Errorf("alice holds nothing on pods yet:\n%s", got)
	}

	admin.expect("create rolebinding alice-view --clusterrole=view --user=alice -n default", `rolebinding.rbac.authorization.k8s.io/alice-view created`)
	alice.expect("auth can-i --list -n default", `(?m)^pods \[\] \[\] \[get list watch\]$`,
		`(?m)^deployments.apps \[\] \[\] \[get list watch\]$`)
	if got := alice.run("", "auth", "can-i", "--list", "-n", "kube-system"); regexpMatch(`pods`, got) {
		t.Errorf("alice's RoleBinding is in default, yet in kube-system kubectl lists:\n%s", got)
	}
}
