// unauthenticated.go: unauthenticated (article 1, section 2.1): the first gate of every request
// is authentication. A token the apiserver does not know, and then a client certificate past its
// expiry (kubeadm's admin.conf certificate lasts one year), both get 401 Unauthorized, and nothing
// behind the gate runs: no authorization, no admission, no write to etcd.
package scenarios

import (
	"context"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "unauthenticated",
		Summary: "a token the apiserver does not know, then an expired client certificate: 401 Unauthorized, nothing written",
		Teaches: `kube-apiserver first asks "who are you?". Each authenticator (client certificates, bearer tokens,
service account tokens, OIDC) looks at the request's credential; if none recognises it, the answer is
401 Unauthorized. The client learns nothing more (not even whether the user exists): the reason stays in
the apiserver's log. A certificate is recognised only between its NotBefore and NotAfter; kubeadm's
admin.conf certificate expires a year after "kubeadm init", and kubectl then fails the same way.

Signs to look for: "Error from server (Unauthorized): Unauthorized" for the unknown token and for the
expired certificate; the apiserver's reason in the trace ("invalid bearer token", "x509: certificate has
expired or is not yet valid: ..."); etcd's revision unchanged; no authorize or admit line for those
requests.`,
		SummaryZH: "一个 apiserver 不认识的 token，再来一张过期的客户端证书：401 Unauthorized，什么都没写入",
		TeachesZH: `kube-apiserver 首先问“你是谁？”。每个认证器（客户端证书、bearer token、ServiceAccount token、OIDC）
查看请求带的凭据；如果谁都不认识，回答就是 401 Unauthorized。客户端得不到更多信息（连用户是否存在都
不知道）：原因只留在 apiserver 的日志里。证书只在 NotBefore 和 NotAfter 之间被认可；kubeadm 的
admin.conf 证书在 "kubeadm init" 一年后过期，届时 kubectl 也会这样失败。

要看的信号：未知 token 和过期证书都得到 "Error from server (Unauthorized): Unauthorized"；trace 里
apiserver 给出的原因（"invalid bearer token"、"x509: certificate has expired or is not yet valid:
..."）；etcd 的 revision 不变；这些请求没有 authorize 或 admit 的日志行。`,
		Verbose: true,
		ZH: catalog{
			"%d. kubectl with kubeadm's admin.conf: the token is known, the request passes":                "%d. 用 kubeadm 的 admin.conf 执行 kubectl：token 是认识的，请求通过",
			"%d. A kubeconfig with a token the apiserver does not know tries to create a pod":              "%d. 一个带着 apiserver 不认识的 token 的 kubeconfig 试图创建 Pod",
			"%d. The admin's client certificate expires (kubeadm's admin.conf certificate lasts one year)": "%d. 管理员的客户端证书过期了（kubeadm 的 admin.conf 证书有效期一年）",
			"%s kubectl get pod sneaky: pods \"sneaky\" not found":                                         "%s kubectl get pod sneaky：pods \"sneaky\" not found（请求被认证拒绝，什么也没创建）",
			"%s kubectl get pods answers (No resources found in default namespace.)":                       "%s kubectl get pods 的回答（No resources found in default namespace.）：没有任何 Pod",
			"%s namespace team-a does not exist":                                                           "%s 命名空间 team-a 不存在",
		},
		Run: runUnauthenticated,
	})
}

func runUnauthenticated(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	s.Step("kubectl with kubeadm's admin.conf: the token is known, the request passes")
	_, err := k.List(ctx, "pods", "default", "")
	s.Expect(err == nil, "kubectl get pods answers (No resources found in default namespace.)")

	s.Step("A kubeconfig with a token the apiserver does not know tries to create a pod")
	before := currentRevision(ctx, s)
	_, err = k.WithToken("not-a-real-token", "mallory").Create(ctx, nginxPod("sneaky"))
	s.ExpectError(err, 401, "Unauthorized")
	s.Expect(currentRevision(ctx, s) == before, "etcd's revision is still %d: nothing was written", before)
	_, err = k.Get(ctx, "pods", "default", "sneaky")
	s.Expect(apierrors.IsNotFound(err), `kubectl get pod sneaky: pods "sneaky" not found`)

	s.Step("The admin's client certificate expires (kubeadm's admin.conf certificate lasts one year)")
	if err := s.ExpireCredential("kubernetes-admin"); err != nil {
		return err
	}
	before = currentRevision(ctx, s)
	_, err = k.List(ctx, "pods", "default", "")
	s.ExpectError(err, 401, "Unauthorized")
	_, err = k.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}})
	s.ExpectError(err, 401, "Unauthorized")
	s.Expect(currentRevision(ctx, s) == before, "etcd's revision is still %d: nothing was written", before)
	found, err := sim.List[api.Namespace](ctx, s.Cluster, "", "", "team-a")
	s.Expect(err == nil && len(found) == 0, "namespace team-a does not exist")
	return s.Err()
}
