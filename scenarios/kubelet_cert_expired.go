// kubelet_cert_expired.go: kubelet-cert-expired, node-2's client certificate expires
// (article 2, section 6.3): every request the kubelet makes is refused with 401 Unauthorized, so
// its Lease stops moving and the control plane sees the node as Unknown, while on the node itself
// everything keeps running; the kubelet's log says why. A renewed certificate brings it back. Then
// the clock-skew variant: node-3's clock is two years ahead, its TLS checks fail, same silence.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "kubelet-cert-expired",
		StepOnly: true,
		Summary:  "node-2's client certificate expires (heartbeats get 401), node-3's clock is skewed (TLS fails): Unknown, containers keep running",
		Teaches: `A kubelet authenticates to the apiserver with a client certificate (system:node:<name>, group
system:nodes), valid for a year with kubeadm; certificate rotation normally renews it in time. When
it expires anyway, the apiserver's first gate refuses every request: 401 Unauthorized. The kubelet
does not stop: it keeps its containers running and keeps trying, and its log fills with "failed to
renew lease: Unauthorized". But nothing it says reaches the control plane: its Lease is not renewed,
so after the 50s grace period the node lifecycle controller marks the node Unknown, exactly as if the
node had died (compare node-down), and would evict its pods after 300s. The difference is only
visible on the node: kubelet running, containers running, requests refused. Renewing the certificate
(kubeadm certs renew, or a fixed rotation) ends it: the next renewal goes through and the node is
Ready again.

The same outage has a second cause: a node whose clock is wrong (NTP stopped). Certificates are valid
between two instants, and each side checks the other's with its own clock: node-3, two years ahead,
finds the apiserver's serving certificate expired and refuses the connection itself ("x509:
certificate has expired or is not yet valid: current time ... is after ..."), so its requests never
leave the node. kubesim keeps one cluster time and models the skew as that TLS check alone.

Signs to look for: the apiserver's authentication step "certificate has expired" and 401
Unauthorized; the kubelet's trace "failed to renew lease: Unauthorized"; node-2 Ready=Unknown,
NodeStatusUnknown; containerd on node-2 still running the pod's container; after the renewal, node-2
Ready again; then node-3 with its clock two years ahead: "x509: certificate has expired or is not yet
valid" in its kubelet's log, node-3 Unknown, and its Lease renewed again once its clock is fixed.`,
		SummaryZH: "node-2 的客户端证书过期（心跳得到 401），node-3 时钟偏差（TLS 失败）：Unknown，容器照常运行",
		TeachesZH: `kubelet 用客户端证书（system:node:<name>，组 system:nodes）向 apiserver 认证，kubeadm 签发的证书有效
期一年；证书轮换通常会及时续签。万一还是过期了，apiserver 的第一道关会拒绝它的每个请求：401
Unauthorized。kubelet 并不停止：它让容器继续运行，不断重试，日志里满是 "failed to renew lease:
Unauthorized"。但它说的话一句也到不了控制面：它的 Lease 不再续约，于是 50s 宽限期过后，节点生命周期
控制器把节点标为 Unknown，和节点死掉一模一样（对比 node-down），300s 后还会驱逐它的 Pod。区别只在节
点上看得到：kubelet 在运行，容器在运行，请求被拒绝。续签证书（kubeadm certs renew，或修好轮换）就能
结束这一切：下一次续约通过，节点重新 Ready。

同样的故障还有第二个原因：节点的时钟错了（NTP 停了）。证书在两个时刻之间有效，每一方都用自己的时钟检
查对方的证书：node-3 快了两年，认为 apiserver 的服务证书已过期，自己拒绝了连接（"x509: certificate
has expired or is not yet valid: current time ... is after ..."），所以它的请求根本出不了节点。
kubesim 只有一个集群时间，把时钟偏差仅仅模拟为这次 TLS 检查。

要看的信号：apiserver 认证步骤的 "certificate has expired" 和 401 Unauthorized；kubelet 的 trace
"failed to renew lease: Unauthorized"；node-2 Ready=Unknown，NodeStatusUnknown；node-2 上的
containerd 仍在运行 Pod 的容器；续签后 node-2 重新 Ready；然后是时钟快了两年的 node-3：kubelet 日志
里的 "x509: certificate has expired or is not yet valid"，node-3 Unknown，时钟修好后它的 Lease 又开
始续约。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. node-2's client certificate expires": "%d. node-2 的客户端证书过期",
			"%d. Every heartbeat is refused with 401; after the grace period the control plane marks node-2 Unknown":                    "%d. 每次心跳都被 401 拒绝；宽限期过后控制面把 node-2 标记为 Unknown",
			"%d. On node-2 itself nothing stopped: ask containerd (crictl ps)":                                                          "%d. 在 node-2 本机上什么都没停：问问 containerd（crictl ps）",
			"%d. The certificate is renewed (kubeadm certs renew): the next heartbeat is accepted":                                      "%d. 证书续期（kubeadm certs renew）：下一次心跳被接受",
			"%d. The other road to the same place: node-3's clock runs two years ahead":                                                 "%d. 殊途同归：node-3 的时钟快了两年",
			"%s Lease kube-node-lease/node-2 not renewed since the certificate expired":                                                 "%s 证书过期以来，Lease kube-node-lease/node-2 再没续约",
			"%s clock fixed: kubelet log on node-3: renewed the Lease again after failures (tls: failed to verify certificate: ...)":    "%s 时钟修好了：node-3 的 kubelet 日志：失败之后重新续约上了 Lease（tls: failed to verify certificate: ...）",
			"%s crictl ps on node-2: the container of %s is still running":                                                              "%s 在 node-2 上 crictl ps：%s 的容器仍在运行",
			"%s kubectl get node node-2: NotReady (Ready Unknown, NodeStatusUnknown: %s)":                                               "%s kubectl get node node-2：NotReady（Ready Unknown，NodeStatusUnknown：%s）：节点失联",
			"%s kubelet log on node-2: failed to renew lease: Unauthorized":                                                             "%s node-2 的 kubelet 日志：failed to renew lease: Unauthorized（认证失败）",
			"%s kubelet log on node-2: renewed the Lease again after failures (Unauthorized)":                                           "%s node-2 的 kubelet 日志：失败之后重新续约上了 Lease（Unauthorized）",
			"%s kubelet log on node-3: x509: certificate has expired or is not yet valid: current time 2027-... is after 2026-01-01...": "%s node-3 的 kubelet 日志：x509: certificate has expired or is not yet valid: current time 2027-... is after 2026-01-01...（时钟错了，证书看起来已过期）",
			"%s node-3 Unknown: to the control plane it is the same silence":                                                            "%s node-3 变为 Unknown：在控制面看来是同样的沉默",
			"%s pod %s: never restarted, never evicted":                                                                                 "%s Pod %s：从未重启，从未被驱逐",
			"%s the kubelet on node-2 is running too: only its requests are refused":                                                    "%s node-2 上的 kubelet 也在运行：只是它的请求被拒绝了",
		},
		Run: runKubeletCertExpired,
	})
}

func runKubeletCertExpired(ctx context.Context, s *sim.Session) error {
	logs := kubeletLogs(s)

	pod := nginxWithAPodOn(ctx, s, "node-2")
	if pod == nil {
		return s.Err()
	}

	s.Step("node-2's client certificate expires")
	const user = "system:node:node-2"
	if err := s.ExpireCredential(user); err != nil {
		return err
	}
	lease, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-2")
	if err != nil {
		return err
	}

	s.Step("Every heartbeat is refused with 401; after the grace period the control plane marks node-2 Unknown")
	if !until(ctx, s, 2*time.Minute, "node node-2 unknown") {
		return s.Err()
	}
	s.Expect(says(logs.Lines(), "kubelet/node-2", "failed to renew lease: Unauthorized"), "kubelet log on node-2: failed to renew lease: Unauthorized")
	now, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-2")
	if err != nil {
		return err
	}
	s.Expect(now.Spec.RenewTime.Equal(lease.Spec.RenewTime.Time), "Lease kube-node-lease/node-2 not renewed since the certificate expired")
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
	if err != nil {
		return err
	}
	ready := nodeCondition(node, api.NodeReady)
	s.Expect(ready.Status == api.ConditionUnknown && ready.Reason == "NodeStatusUnknown",
		"kubectl get node node-2: NotReady (Ready Unknown, NodeStatusUnknown: %s)", ready.Message)

	s.Step("On node-2 itself nothing stopped: ask containerd (crictl ps)")
	n, _ := s.Node("node-2")
	containers, err := n.Runtime.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: pod.UID}})
	if err != nil {
		return err
	}
	s.Expect(len(containers) == 1 && containers[0].State == fakeruntime.ContainerRunning,
		"crictl ps on node-2: the container of %s is still running", pod.Name)
	s.Expect(!n.Kubelet.Stopped(), "the kubelet on node-2 is running too: only its requests are refused")

	s.Step("The certificate is renewed (kubeadm certs renew): the next heartbeat is accepted")
	if err := s.RenewCredential(user); err != nil {
		return err
	}
	if !until(ctx, s, time.Minute, "node node-2 ready") {
		return s.Err()
	}
	s.Expect(says(logs.Lines(), "kubelet/node-2", "renewed the Lease again after failures (Unauthorized)"),
		"kubelet log on node-2: renewed the Lease again after failures (Unauthorized)")
	p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", pod.Name)
	s.Expect(err == nil && restarts(p) == 0 && p.DeletionTimestamp == nil, "pod %s: never restarted, never evicted", pod.Name)

	s.Step("The other road to the same place: node-3's clock runs two years ahead")
	if err := s.SkewClock("node-3", 2*365*24*time.Hour); err != nil {
		return err
	}
	if !until(ctx, s, 2*time.Minute, "node node-3 unknown") {
		return s.Err()
	}
	saysWhy := says(logs.Lines(), "kubelet/node-3", "x509: certificate has expired or is not yet valid: current time 2027-")
	s.Expect(saysWhy, "kubelet log on node-3: x509: certificate has expired or is not yet valid: current time 2027-... is after 2026-01-01...")
	s.Expect(true, "node-3 Unknown: to the control plane it is the same silence")
	if err := s.SkewClock("node-3", 0); err != nil {
		return err
	}
	if !s.Until(ctx, time.Minute, sim.Check("node-3's Lease renewed again", func() (bool, error) {
		return says(logs.Lines(), "kubelet/node-3", "renewed the Lease again after failures"), nil
	})) {
		return s.Err()
	}
	s.Expect(true, "clock fixed: kubelet log on node-3: renewed the Lease again after failures (tls: failed to verify certificate: ...)")
	return s.Err()
}
