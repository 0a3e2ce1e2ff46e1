// zh_node.go: the Chinese telling of the node scenarios (section 6 of the catalogue: the kubelet and
// the node): their step headings and the one line they record themselves.
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		// shared by several node scenarios
		"%d. kubectl apply -f nginx-deployment.yaml: 3 replicas, one on each node": "%d. kubectl apply -f nginx-deployment.yaml：3 个副本，每个节点一个",
		"the client certificate of %s was renewed":                                 "%s 的客户端证书已经续期",
		// crash-loop
		`%d. kubectl apply: a pod whose only container runs sh -c "exit 1"`:                   `%d. kubectl apply：一个 Pod，它唯一的容器运行 sh -c "exit 1"`,
		"%d. It starts, exits 1, and is restarted at once: the first crash costs no back-off": "%d. 容器启动后立刻以 1 退出，马上被重启：第一次崩溃不需要退避等待",
		"%d. Each crash doubles the back-off before the next restart, up to the 5-minute cap": "%d. 每崩溃一次，下次重启前的退避时间翻倍，直到 5 分钟的上限",
		"%d. What kubectl get pods and kubectl describe pod show":                             "%d. 现在 kubectl get pods 和 kubectl describe pod 能看到什么",
		// image-pull-backoff
		"%d. kubectl apply: web (ngnix:1.25, a typo), private-app (no imagePullSecrets), legacy-app (amd64 only, for an arm64 node)": "%d. kubectl apply：web（ngnix:1.25，拼写错误）、private-app（没有 imagePullSecrets）、legacy-app（只有 amd64 镜像，却要跑在 arm64 节点上）",
		"%d. The kubelets pull, containerd fails, each pod goes from ErrImagePull to ImagePullBackOff":                               "%d. kubelet 拉取镜像，containerd 失败，每个 Pod 从 ErrImagePull 变成 ImagePullBackOff",
		"%d. Follow web: after each failed pull the kubelet waits twice as long before pulling again":                                "%d. 盯住 web：每次拉取失败后，kubelet 再次拉取前等待的时间翻倍",
		// oom-killed
		"%d. kubectl apply: a pod limited to 64Mi of memory whose working set grows 10Mi every second":           "%d. kubectl apply：一个内存上限 64Mi 的 Pod，它的工作集每秒增长 10Mi",
		"%d. The working set reaches the 64Mi limit: the OOM killer ends the container, the kubelet restarts it": "%d. 工作集达到 64Mi 上限：OOM killer 杀掉容器，kubelet 重启它",
		"%d. It leaks again and is killed again: now the restarts wait in CrashLoopBackOff":                      "%d. 它再次泄漏、再次被杀：现在重启要在 CrashLoopBackOff 里等待",
		// probes
		"%d. kubectl apply: liveness-http, readiness-exec, slow-start (with a startupProbe) and slow-unguarded (without)": "%d. kubectl apply：liveness-http、readiness-exec、slow-start（有 startupProbe）和 slow-unguarded（没有）",
		"%d. 30s on, /tmp/healthy is gone: readiness-exec's readiness probe fails and the pod leaves Ready":               "%d. 30 秒后 /tmp/healthy 被删除：readiness-exec 的就绪探针失败，Pod 不再 Ready",
		"%d. liveness-http answers 500 after 30s: three failed liveness probes, then the kubelet restarts it":             "%d. liveness-http 30 秒后开始返回 500：存活探针连续失败三次，kubelet 重启容器",
		"%d. The slow starters: slow-unguarded is killed before it listens; slow-start waits behind its startupProbe":     "%d. 启动慢的两个：slow-unguarded 还没开始监听就被杀；slow-start 有 startupProbe 护着，等到启动完成",
		"%d. What kubectl describe pod shows under Events":                                                                "%d. kubectl describe pod 的 Events 里能看到什么",
		// node-pressure-eviction
		"%d. kubectl apply: cache (BestEffort, growing), api (Burstable, growing past its request), db (Guaranteed), all on node-1": "%d. kubectl apply：cache（BestEffort，内存不断增长）、api（Burstable，增长超过 request）、db（Guaranteed），都在 node-1 上",
		"%d. memory.available on node-1 falls under 100Mi: the eviction manager evicts the BestEffort pod":                          "%d. node-1 的 memory.available 低于 100Mi：驱逐管理器驱逐 BestEffort 的 Pod",
		"%d. node-1 reports MemoryPressure and is tainted: no new pods go there":                                                    "%d. node-1 报告 MemoryPressure 并被打上污点：新 Pod 不再调度过来",
		"%d. api keeps growing past its 64Mi request: at the next shortage it is the one evicted; db never is":                      "%d. api 继续增长、超过 64Mi 的 request：下一次内存不足时被驱逐的是它；db 始终不会被驱逐",
		// node-down
		"%d. node-2's kubelet stops: no more Lease renewals, no more status":                              "%d. node-2 的 kubelet 停止：不再续约 Lease，不再上报状态",
		"%d. The node lifecycle controller waits out the grace period, then marks node-2 Unknown":         "%d. 节点生命周期控制器等过宽限期，把 node-2 标记为 Unknown",
		"%d. node-2 is tainted unreachable:NoExecute; its pod tolerates that for 300s":                    "%d. node-2 被打上 unreachable:NoExecute 污点；它上面的 Pod 能容忍 300 秒",
		"%d. 300s later the taint manager evicts the pod, and the ReplicaSet replaces it on a Ready node": "%d. 300 秒后污点管理器驱逐该 Pod，ReplicaSet 在 Ready 的节点上补一个新的",
		"%d. node-2's kubelet starts again":                                                               "%d. node-2 的 kubelet 重新启动",
		// runtime-hung
		"%d. containerd on node-2 stops answering":                                                               "%d. node-2 上的 containerd 不再响应",
		"%d. Three minutes without a completed relist: the kubelet reports PLEG is not healthy, node-2 NotReady": "%d. 三分钟没有完成一次 relist：kubelet 报告 PLEG is not healthy，node-2 变为 NotReady",
		"%d. containerd answers again: the next relist succeeds and node-2 is Ready":                             "%d. containerd 恢复响应：下一次 relist 成功，node-2 恢复 Ready",
		"%d. The container ran through it all: ask containerd on node-2 directly (crictl ps)":                    "%d. 容器一直在运行：直接问 node-2 上的 containerd（crictl ps）",
		// kubelet-cert-expired
		"%d. node-2's client certificate expires": "%d. node-2 的客户端证书过期",
		"%d. Every heartbeat is refused with 401; after the grace period the control plane marks node-2 Unknown": "%d. 每次心跳都被 401 拒绝；宽限期过后控制面把 node-2 标记为 Unknown",
		"%d. On node-2 itself nothing stopped: ask containerd (crictl ps)":                                       "%d. 在 node-2 本机上什么都没停：问问 containerd（crictl ps）",
		"%d. The certificate is renewed (kubeadm certs renew): the next heartbeat is accepted":                   "%d. 证书续期（kubeadm certs renew）：下一次心跳被接受",
		"%d. The other road to the same place: node-3's clock runs two years ahead":                              "%d. 殊途同归：node-3 的时钟快了两年",
		// node-join
		"%d. kubectl apply -f nginx-deployment.yaml on the 3-node cluster":                    "%d. 在 3 节点集群上 kubectl apply -f nginx-deployment.yaml",
		"%d. A new machine starts its kubelet: node-4 joins":                                  "%d. 一台新机器启动 kubelet：node-4 加入集群",
		"%d. kubectl scale deployment nginx --replicas=4: the new pod goes to the empty node": "%d. kubectl scale deployment nginx --replicas=4：新 Pod 被调度到空闲的新节点",
		// local-autonomy
		"%d. kubectl apply: nginx-deployment.yaml (one pod per node) and worker on node-1, which crashes every 60s": "%d. kubectl apply：nginx-deployment.yaml（每个节点一个 Pod），以及 node-1 上每 60 秒崩溃一次的 worker",
		"%d. A network partition: node-1's kubelet can no longer reach kube-apiserver":                              "%d. 网络分区：node-1 的 kubelet 再也连不上 kube-apiserver",
		"%d. Two minutes pass: the control plane marks node-1 Unknown; on node-1 life goes on":                      "%d. 两分钟过去：控制面把 node-1 标记为 Unknown；node-1 上一切照常",
		"%d. The network heals: node-1 is Ready again and the status catches up":                                    "%d. 网络恢复：node-1 重新 Ready，状态随之补报",
		// cordon-drain
		"%d. kubectl apply: the log-agent DaemonSet (one pod per node) and nginx-deployment.yaml":           "%d. kubectl apply：log-agent DaemonSet（每个节点一个 Pod）和 nginx-deployment.yaml",
		"%d. kubectl cordon node-1: no new pods there, running ones untouched":                              "%d. kubectl cordon node-1：不再调度新 Pod 过去，已在运行的不受影响",
		"%d. kubectl drain node-1 --ignore-daemonsets: every other pod is evicted through the Eviction API": "%d. kubectl drain node-1 --ignore-daemonsets：其余 Pod 都通过 Eviction API 被驱逐",
		"%d. The kubelet stops the evicted pod, the ReplicaSet replaces it, the scheduler avoids node-1":    "%d. kubelet 停掉被驱逐的 Pod，ReplicaSet 补上新的，调度器避开 node-1",
		"%d. Maintenance done: kubectl uncordon node-1":                                                     "%d. 维护完成：kubectl uncordon node-1",
	} {
		narrate.ZH[en] = zh
	}
}
