package kubectl_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/internal/testenv"
)

// kubectl auth can-i --as alice: a SelfSubjectAccessReview sent with alice's credentials, answered
// for alice. A RoleBinding to the view ClusterRole changes the answer for list, not for delete.
func ExampleKubectl_CanI() {
	c, ctx := testenv.Start(testenv.Step)
	defer c.Close()
	alice := c.Kubectl.As("alice")
	alice.CanI("list", "pods", "default")

	_, err := c.Kubectl.Create(ctx, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-view", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []api.Subject{{Kind: "User", APIGroup: api.RBACGroupName, Name: "alice"}}})
	if err != nil {
		panic(err)
	}
	alice.CanI("list", "pods", "default")
	alice.CanI("delete", "pods", "default")
	alice.CanI("list", "pods", "kube-system")
	for _, e := range c.Trace.Events() {
		if e.Action == "auth can-i" {
			fmt.Println(e.Message)
		}
	}
	// Output:
	// kubectl auth can-i list pods -n default -> no
	// kubectl auth can-i list pods -n default -> yes (RBAC: allowed by RoleBinding "default/alice-view" of ClusterRole "view" to User "alice")
	// kubectl auth can-i delete pods -n default -> no
	// kubectl auth can-i list pods -n kube-system -> no
}
