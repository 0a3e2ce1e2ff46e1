// forbidden.go: forbidden (article 1, section 2.1): the second gate, authorization. alice is
// authenticated but nothing grants her anything, and RBAC denies by default: 403 Forbidden, in the
// sentence every Kubernetes user learns to read. A Role and a RoleBinding then grant her reading pods
// in one namespace, and nothing more.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "forbidden",
		Summary: "alice without a RoleBinding lists pods: 403 Forbidden and auth can-i says no; a Role grants exactly what it lists",
		Teaches: `Authentication said who alice is; authorization (--authorization-mode=Node,RBAC) decides what she
may do. RBAC denies whatever no Role or ClusterRole bound to her (or to one of her groups) allows, so a
new user may do nothing. The 403 names the user, the verb, the resource, its API group ("" for the core
group) and the namespace. kubectl auth can-i asks the same question without making the request, and
with --as alice an admin asks it on alice's behalf (impersonation, which the admin's cluster-admin
allows: RBAC's verb impersonate). A Role
is namespaced: binding it in default grants nothing in kube-system, and granting get/list/watch grants
no delete.

Signs to look for: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the
namespace "default"'; kubectl auth can-i list pods --as alice answering no, then yes after the
RoleBinding; the RBAC line naming the RoleBinding that allowed it; still 403 for delete and for the
kube-system namespace, and for alice acting --as bob ('users "bob" is forbidden: User "alice" cannot
impersonate resource "users"').`,
		SummaryZH: "没有 RoleBinding 的 alice 列出 Pod：403 Forbidden，auth can-i 答 no；Role 授予的恰好是它列出的权限",
		TeachesZH: `认证确定了 alice 是谁；授权（--authorization-mode=Node,RBAC）决定她能做什么。凡是没有任何绑定给她
（或她所在的某个组）的 Role 或 ClusterRole 允许的操作，RBAC 一律拒绝，所以新用户什么都做不了。403 里
会写明用户、动词、资源、它的 API 组（核心组为 ""）和命名空间。kubectl auth can-i 问的是同一个问题，
但不真的发出请求；加上 --as alice，管理员替 alice 提问（扮演 impersonation，管理员的 cluster-admin
允许它：RBAC 的 impersonate 动词）。Role 属于命名空间：在 default 里绑定它，在 kube-system 里什么也不授予；授予
get/list/watch 也不包括 delete。

要看的信号：'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the
namespace "default"'；kubectl auth can-i list pods --as alice 先答 no，建了 RoleBinding 后答 yes；
RBAC 日志行点出允许它的那个 RoleBinding；delete 和 kube-system 命名空间仍然是 403，alice 想 --as bob
也是 403（'users "bob" is forbidden: User "alice" cannot impersonate resource "users"'）。`,
		Verbose: true,
		ZH: catalog{
			"%d. The admin creates a pod; alice (authenticated, no RoleBinding) tries to list pods":          "%d. 管理员创建一个 Pod；alice（已认证，但没有任何 RoleBinding）试图列出 Pod",
			"%d. The admin creates Role pod-reader (get, list, watch pods) and binds alice to it in default": "%d. 管理员创建 Role pod-reader（Pod 的 get、list、watch），并在 default 里把 alice 绑定上去",
			"%d. alice can now read pods in default, and nothing else":                                       "%d. alice 现在可以读 default 里的 Pod，除此之外什么都不行",
			"%s kubectl auth can-i list pods --as alice: no":                                                 "%s kubectl auth can-i list pods --as alice：no（授权不通过）",
			"%s kubectl auth can-i list pods --as alice: yes":                                                "%s kubectl auth can-i list pods --as alice：yes（授权通过）",
			"%s kubectl auth can-i delete pods --as alice: no":                                               "%s kubectl auth can-i delete pods --as alice：no（授权不通过）",
			"%s Role pod-reader created":                                                                     "%s Role pod-reader 已创建",
			"%s RoleBinding alice-reads-pods created":                                                        "%s RoleBinding alice-reads-pods 已创建",
			"%s alice: kubectl get pods lists pod web":                                                       "%s alice：kubectl get pods 列出了 Pod web",
			"%s pod web is still there":                                                                      "%s Pod web 还在",
		},
		Run: runForbidden,
	})
}

func runForbidden(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	alice := k.As("alice")

	s.Step("The admin creates a pod; alice (authenticated, no RoleBinding) tries to list pods")
	if _, err := k.Create(ctx, nginxPod("web")); err != nil {
		s.Expect(false, "pod web is created: %v", err)
		return s.Err()
	}
	_, err := alice.List(ctx, "pods", "default", "")
	s.ExpectError(err, 403, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)

	// The admin asks on alice's behalf (--as: impersonation, which the admin may do): the same
	// question as alice's own request, answered for alice.
	s.Step("kubectl auth can-i list pods --as alice")
	asAlice := k.Impersonating("alice")
	s.Expect(!asAlice.CanI("list", "pods", "default"), "kubectl auth can-i list pods --as alice: no")

	s.Step("The admin creates Role pod-reader (get, list, watch pods) and binds alice to it in default")
	_, err = k.Create(ctx, &api.Role{ObjectMeta: api.ObjectMeta{Name: "pod-reader", Namespace: "default"},
		Rules: []api.PolicyRule{{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"pods"}}}})
	s.Expect(err == nil, "Role pod-reader created")
	_, err = k.Create(ctx, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-reads-pods", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "Role", Name: "pod-reader"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice", APIGroup: api.RBACGroupName}}})
	s.Expect(err == nil, "RoleBinding alice-reads-pods created")
	// kubectl auth can-i is answered from the apiserver's RBAC cache: let it take in the new binding.
	if err := s.APIServer.WaitForRevision(ctx, currentRevision(ctx, s)); err != nil {
		return err
	}

	s.Step("alice can now read pods in default, and nothing else")
	s.Expect(asAlice.CanI("list", "pods", "default"), "kubectl auth can-i list pods --as alice: yes")
	pods, err := alice.List(ctx, "pods", "default", "")
	s.Expect(err == nil && len(pods) == 1, "alice: kubectl get pods lists pod web")
	s.Expect(!asAlice.CanI("delete", "pods", "default"), "kubectl auth can-i delete pods --as alice: no")
	err = alice.Delete(ctx, "pods", "default", "web", client.DeleteOptions{})
	s.ExpectError(err, 403, `pods "web" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"`)
	_, err = alice.List(ctx, "pods", "kube-system", "")
	s.ExpectError(err, 403, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "kube-system"`)
	// Nor may alice ask as someone else: impersonating is a verb RBAC grants like any other.
	_, err = alice.Impersonating("bob").List(ctx, "pods", "default", "")
	s.ExpectError(err, 403, `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`)
	_, err = k.Get(ctx, "pods", "default", "web")
	s.Expect(err == nil, "pod web is still there")
	return s.Err()
}
