// catalog_signs.go: the Chinese telling of every built-in scenario's signs (the expect: lines). Each
// sign's format starts with "%s ", the ✓ or ✗ mark (see Session.Expect). Kubernetes' own text
// quoted in a sign (event messages, kubectl columns, log lines) stays in English. These move next to
// their scenarios with the rest of their translations.
package sim

import "kubesim/trace"

var zhSigns = trace.Catalog{
	// shared
	"%s event %s: %s...": "%s 事件 %s：%s...",

	// create-deployment
	"%s the Deployment is created: %v":                                      "%s Deployment 创建成功：%v",
	"%s deployment nginx becomes available: %v":                             "%s Deployment nginx 变为可用：%v",
	"%s kubectl get deployment nginx: READY 3/3, UP-TO-DATE 3, AVAILABLE 3": "%s kubectl get deployment nginx：READY 3/3，UP-TO-DATE 3，AVAILABLE 3（达到期望状态）",
	"%s condition Available=True (MinimumReplicasAvailable)":                "%s 状况 Available=True（MinimumReplicasAvailable：可用副本数达到下限）",
	"%s kubectl get pods -l app=nginx: 3 pods, all Running":                 "%s kubectl get pods -l app=nginx：3 个 Pod，全部 Running",
	"%s the scheduler spread them over %d nodes":                            "%s 调度器把它们分散到了 %d 个节点上",

	// api-gates
	"%s the Deployment is created":                                                          "%s Deployment 创建成功",
	"%s admission defaulted the strategy to RollingUpdate":                                  "%s 准入控制把策略默认设为 RollingUpdate",
	"%s its resourceVersion %s is the etcd revision of /registry/deployments/default/nginx": "%s 它的 resourceVersion %s 就是 /registry/deployments/default/nginx 在 etcd 中的 revision（持久化）",
	"%s kubectl auth can-i list pods --as alice answers no":                                 "%s kubectl auth can-i list pods --as alice 回答 no（授权不通过）",
	"%s kubectl auth can-i list pods --as alice answers yes":                                "%s kubectl auth can-i list pods --as alice 回答 yes（授权通过）",
	"%s RoleBinding alice-view created":                                                     "%s RoleBinding alice-view 已创建",
	"%s alice can now list pods in default":                                                 "%s alice 现在可以在 default 中 list Pod 了",
	"%s a cause names %s":                                                                   "%s 有一条 cause 指出了 %s",
	"%s nothing was written to etcd":                                                        "%s 没有任何内容写入 etcd",
	"%s the first writer's update succeeds":                                                 "%s 第一个写者的更新成功",
	"%s the second writer reads again, reapplies its change and succeeds":                   "%s 第二个写者重新读取，再次应用它的修改，成功",
	"%s kubectl apply of an existing object updates it":                                     "%s 对已存在的对象 kubectl apply 会更新它",
	"%s kubectl get pods: No resources found in default namespace.":                         "%s kubectl get pods：No resources found in default namespace.（没有任何 Pod）",
	"%s the dry run passes every gate":                                                      "%s dry run 通过了每一道关卡",
	"%s the informer listed 1 Deployment":                                                   "%s informer list 到 1 个 Deployment",
	"%s the informer's watch got 410 Gone and it relisted once":                             "%s informer 的 watch 得到 410 Gone，于是重新 list 了一次",
	"%s after the relist its cache shows replicas 1, as etcd does":                          "%s 重新 list 之后，它的缓存显示 replicas 1，与 etcd 一致",

	// unauthenticated
	"%s kubectl get pod sneaky: pods \"sneaky\" not found":                   "%s kubectl get pod sneaky：pods \"sneaky\" not found（请求被认证拒绝，什么也没创建）",
	"%s kubectl get pods answers (No resources found in default namespace.)": "%s kubectl get pods 的回答（No resources found in default namespace.）：没有任何 Pod",
	"%s namespace team-a does not exist":                                     "%s 命名空间 team-a 不存在",

	// forbidden
	"%s kubectl auth can-i list pods --as alice: no":   "%s kubectl auth can-i list pods --as alice：no（授权不通过）",
	"%s kubectl auth can-i list pods --as alice: yes":  "%s kubectl auth can-i list pods --as alice：yes（授权通过）",
	"%s kubectl auth can-i delete pods --as alice: no": "%s kubectl auth can-i delete pods --as alice：no（授权不通过）",
	"%s Role pod-reader created":                       "%s Role pod-reader 已创建",
	"%s RoleBinding alice-reads-pods created":          "%s RoleBinding alice-reads-pods 已创建",
	"%s alice: kubectl get pods lists pod web":         "%s alice：kubectl get pods 列出了 Pod web",
	"%s pod web is still there":                        "%s Pod web 还在",

	// invalid-object
	"%s one cause per field path: %s":                     "%s 每个字段路径一条 cause：%s",
	"%s etcd's revision is still %d: nothing was written": "%s etcd 的 revision 仍是 %d：什么都没写入",
	"%s deployment.apps/nginx created":                    "%s deployment.apps/nginx 已创建",
	"%s it is written to etcd (revision %d)":              "%s 它被写入 etcd（持久化，revision %d）",

	// self-healing
	"%s 3 nginx pods run: %s":                                        "%s 3 个 nginx Pod 在运行：%s",
	"%s kubectl get pods -l app=nginx: 3 pods again: %s":             "%s kubectl get pods -l app=nginx：又是 3 个 Pod 了（回到期望状态）：%s",
	"%s one of them is new: %s, a new name (the deleted pod was %s)": "%s 其中一个是新的：%s，一个新名字（被删的 Pod 是 %s）",
	"%s event SuccessfulCreate: Created pod: %s":                     "%s 事件 SuccessfulCreate：Created pod: %s",
	"%s event Scheduled: Successfully assigned default/%s to %s":     "%s 事件 Scheduled：Successfully assigned default/%s to %s",
	"%s the scheduler bound %s to %s and it is Running":              "%s 调度器把 %s 绑定到 %s，它已 Running",

	// scale
	"%s event ScalingReplicaSet: Scaled up replica set nginx-... from 3 to 5":                            "%s 事件 ScalingReplicaSet：Scaled up replica set nginx-... from 3 to 5",
	"%s 2 more SuccessfulCreate events (5 in all)":                                                       "%s 又多了 2 个 SuccessfulCreate 事件（共 5 个）",
	"%s kubectl get pods: 5 pods, 2 of them Pending with no node: %v":                                    "%s kubectl get pods：5 个 Pod，其中 2 个 Pending、没有节点：%v",
	"%s event FailedScheduling: 0/3 nodes are available: 3 node(s) were unschedulable.":                  "%s 事件 FailedScheduling：0/3 nodes are available: 3 node(s) were unschedulable.（调度器找不到可用节点）",
	"%s event ScalingReplicaSet: Scaled down replica set nginx-... from 5 to 2":                          "%s 事件 ScalingReplicaSet：Scaled down replica set nginx-... from 5 to 2",
	"%s 3 SuccessfulDelete events: the 2 Pending pods and one Running pod":                               "%s 3 个 SuccessfulDelete 事件：2 个 Pending 的 Pod 和 1 个 Running 的 Pod",
	"%s the unscheduled pod %s was deleted":                                                              "%s 未调度的 Pod %s 被删除",
	"%s the Running pod deleted, %s, ties with the others on ready time and age and comes first by name": "%s 被删除的 Running Pod %s 与其他 Pod 的就绪时间和存活时间都相同，按名字排在最前",
	"%s the 2 pods kept are original, Running ones: %s":                                                  "%s 保留下来的 2 个 Pod 都是原来 Running 的：%s",
	"%s kubectl get deployment nginx: READY 2/2, AVAILABLE 2":                                            "%s kubectl get deployment nginx：READY 2/2，AVAILABLE 2（达到期望状态）",

	// rolling-update
	"%s ReplicaSet %s has deployment.kubernetes.io/revision: 1":                                                                                                    "%s ReplicaSet %s 带有 deployment.kubernetes.io/revision: 1",
	"%s event ScalingReplicaSet: Scaled up replica set %s from 0 to 1":                                                                                             "%s 事件 ScalingReplicaSet：Scaled up replica set %s from 0 to 1",
	"%s event ScalingReplicaSet: Scaled down replica set %s from 3 to 2":                                                                                           "%s 事件 ScalingReplicaSet：Scaled down replica set %s from 3 to 2",
	"%s after each of %d units of work: at most %d pods wanted (3 + maxSurge 1; at most %d seen) and at least %d ready (3 - maxUnavailable 0; at least %d seen)%s": "%s %d 个工作单元中的每一个之后：期望的 Pod 最多 %d 个（3 + maxSurge 1；实际最多 %d 个），就绪的至少 %d 个（3 - maxUnavailable 0；实际至少 %d 个）%s",
	"%s ReplicaSet %s (nginx:1.27): replicas 3, deployment.kubernetes.io/revision: 2":                                                                              "%s 新 ReplicaSet %s（nginx:1.27）：副本数 3，deployment.kubernetes.io/revision: 2",
	"%s ReplicaSet %s (nginx:1.25): replicas 0, deployment.kubernetes.io/revision: 1":                                                                              "%s 旧 ReplicaSet %s（nginx:1.25）：副本数 0，deployment.kubernetes.io/revision: 1",
	"%s the Deployment carries deployment.kubernetes.io/revision: 2":                                                                                               "%s Deployment 带有 deployment.kubernetes.io/revision: 2",
	"%s the Deployment carries deployment.kubernetes.io/revision: 3":                                                                                               "%s Deployment 带有 deployment.kubernetes.io/revision: 3",
	"%s kubectl get pods -l app=nginx: 3 pods, every one Running %s":                                                                                               "%s kubectl get pods -l app=nginx：3 个 Pod，全部 Running %s",
	"%s ReplicaSet %s is the new one again: replicas 3, revision 3, revision-history 1 (no third ReplicaSet)":                                                      "%s ReplicaSet %s 重新成为新的那个：replicas 3，revision 3，revision-history 1（没有第三个 ReplicaSet）",
	"%s ReplicaSet %s (nginx:1.27) is scaled to 0 and kept as revision 2":                                                                                          "%s ReplicaSet %s（nginx:1.27）缩到 0，作为 revision 2 保留",

	// node-down
	"%s pod %s runs on node-2": "%s Pod %s 运行在 node-2 上",
	"%s it tolerates node.kubernetes.io/unreachable:NoExecute for 300s (DefaultTolerationSeconds admission)":                               "%s 它容忍 node.kubernetes.io/unreachable:NoExecute 300 秒（DefaultTolerationSeconds 准入控制插件加上的）",
	"%s Lease kube-node-lease/node-2: renewTime still %s":                                                                                  "%s Lease kube-node-lease/node-2：renewTime 仍是 %s（心跳停了）",
	"%s node-2 went Unknown %s after its last renewal: the 50s grace period counts from the monitor pass (every 5s) that saw that renewal": "%s node-2 在最后一次续约 %s 后变为 Unknown：50 秒的宽限期从看到那次续约的那一轮检查（每 5 秒一轮）算起",
	"%s kubectl describe node node-2: Ready Unknown, NodeStatusUnknown, Kubelet stopped posting node status.":                              "%s kubectl describe node node-2：Ready Unknown，NodeStatusUnknown，Kubelet stopped posting node status.（kubelet 不再上报）",
	"%s event NodeNotReady: Node node-2 status is now: NodeNotReady":                                                                       "%s 事件 NodeNotReady：Node node-2 status is now: NodeNotReady",
	"%s pod %s: Ready=False (set by the controller), but still Running as far as the API knows":                                            "%s Pod %s：Ready=False（由控制器设置），但在 API 看来仍是 Running",
	"%s evicted %s after the taint: tolerationSeconds 300":                                                                                 "%s 加污点后驱逐了 %s：tolerationSeconds 300",
	"%s kubectl get pods: %s is Terminating: only node-2's kubelet can confirm its container stopped":                                      "%s kubectl get pods：%s 处于 Terminating：只有 node-2 的 kubelet 能确认它的容器已停止",
	"%s replacement %s runs on %s; the Deployment is back at 3/3 available":                                                                "%s 替补 %s 运行在 %s 上；Deployment 回到 3/3 可用（期望状态）",
	"%s node-2 is Ready again (after a first report of NotReady: a restarted kubelet's PLEG has not relisted yet)":                         "%s node-2 重新 Ready（之前先报了一次 NotReady：重启后的 kubelet 的 PLEG 还没 relist）",
	"%s node-2's kubelet stopped the old container and deleted %s":                                                                         "%s node-2 的 kubelet 停掉旧容器并删除了 %s",
	"%s the node lifecycle controller removed the NoExecute taint":                                                                         "%s 节点生命周期控制器去掉了 NoExecute 污点",

	// conflict
	"%s both hold resourceVersion %s": "%s 两者手里都是 resourceVersion %s",
	"%s kubectl get deployment nginx: replicas 4 and image nginx:1.27: neither writer's change was lost": "%s kubectl get deployment nginx：replicas 4，镜像 nginx:1.27：两个写者的修改都没有丢",
	"%s the Deployment's resourceVersion moves from %s to %s":                                            "%s Deployment 的 resourceVersion 从 %s 变为 %s",
	"%s writer 1's update succeeds":                                                                      "%s 写者 1 的更新成功",
	"%s writer 2's retry from resourceVersion %s succeeds":                                               "%s 写者 2 基于 resourceVersion %s 重试，成功",

	// cordon-drain
	"%s %s still Running on node-1 (--ignore-daemonsets)":                                               "%s %s 仍在 node-1 上 Running（--ignore-daemonsets）",
	"%s %s still Running on node-1: cordon evicts nothing":                                              "%s %s 仍在 node-1 上 Running：cordon 不驱逐任何 Pod",
	"%s evicted: %s; left: the DaemonSet's %s":                                                          "%s 被驱逐：%s；留下：DaemonSet 的 %s",
	"%s kubectl get deployment nginx: 3/3 again, none on node-1":                                        "%s kubectl get deployment nginx：又是 3/3，没有一个在 node-1 上",
	"%s kubectl get node node-1: Ready,SchedulingDisabled (spec.unschedulable true)":                    "%s kubectl get node node-1：Ready,SchedulingDisabled（spec.unschedulable 为 true）",
	"%s node-1 runs %s and %s":                                                                          "%s node-1 上运行着 %s 和 %s",
	"%s node-1 schedulable again, taint removed; nginx stays where it is: nothing moves back by itself": "%s node-1 重新可调度，污点已去掉；nginx 留在原处：不会自己搬回来",
	"%s replacement %s runs on %s":                                                                      "%s 替补 %s 运行在 %s 上",
	"%s the node lifecycle controller added the taint node.kubernetes.io/unschedulable:NoSchedule":      "%s 节点生命周期控制器加上了污点 node.kubernetes.io/unschedulable:NoSchedule",

	// crash-loop
	"%s event Warning BackOff: Back-off restarting failed container app in pod crasher_default(...) (x%d)": "%s 事件 Warning BackOff：Back-off restarting failed container app in pod crasher_default(...)（x%d）",
	"%s kubectl describe pod crasher: Last State Terminated, Reason Error, Exit Code 1":                    "%s kubectl describe pod crasher：Last State Terminated，Reason Error，Exit Code 1（上一次退出的状态）",
	"%s kubectl get pod crasher: READY 0/1, STATUS CrashLoopBackOff, RESTARTS %d":                          "%s kubectl get pod crasher：READY 0/1，STATUS CrashLoopBackOff，重启 %d 次",
	"%s restartCount %d, STATUS CrashLoopBackOff: %s":                                                      "%s 重启次数 %d，STATUS CrashLoopBackOff：%s",
	"%s the back-offs were %s: doubling from 10s, and 2m40s doubled is 5m20s, so the cap of 5m0s holds it": "%s 退避时间依次为 %s：从 10s 开始翻倍，2m40s 翻倍是 5m20s，所以被 5m0s 的上限卡住",

	// custom-scheduler
	"%s and no PodScheduled condition": "%s 也没有 PodScheduled 状况",
	"%s event Normal Scheduled from my-scheduler: Successfully assigned default/special to %s": "%s 来自 my-scheduler 的事件 Normal Scheduled：Successfully assigned default/special to %s",
	"%s kubectl describe pod special: no FailedScheduling event, nobody has tried":             "%s kubectl describe pod special：没有 FailedScheduling 事件，还没有调度器尝试过",
	"%s kubectl get pod special: Pending, no node":                                             "%s kubectl get pod special：Pending，没有节点",
	"%s still no FailedScheduling event: my-scheduler found a node at once":                    "%s 仍然没有 FailedScheduling 事件：my-scheduler 立刻找到了节点",

	// delete-cascade
	"%s ReplicaSet %s has an ownerReference to Deployment nginx (controller: true)":          "%s ReplicaSet %s 有一个指向 Deployment nginx 的 ownerReference（controller: true）",
	"%s each of its 3 Pods has an ownerReference to ReplicaSet %s":                           "%s 它的 3 个 Pod 都有指向 ReplicaSet %s 的 ownerReference",
	"%s its ReplicaSet and 3 Pods are still there: nobody has acted yet":                     "%s 它的 ReplicaSet 和 3 个 Pod 还在：还没有谁动手",
	"%s kubectl get pods: the same 3 Pods keep running, still owned by their ReplicaSet: %s": "%s kubectl get pods：同样的 3 个 Pod 继续运行，仍属于它们的 ReplicaSet：%s",
	"%s kubectl get rs,pods -l app=nginx: No resources found in default namespace.":          "%s kubectl get rs,pods -l app=nginx：No resources found in default namespace.（全部删除了）",
	"%s kubectl get rs: the ReplicaSet %s stays, with no ownerReferences (an orphan)":        "%s kubectl get rs：ReplicaSet %s 留了下来，没有 ownerReferences（成了孤儿）",
	"%s the Deployment is gone at once":                                                      "%s Deployment 立刻消失",
	"%s the Deployment is not gone yet: it has a deletionTimestamp and the finalizer orphan": "%s Deployment 还没消失：它有 deletionTimestamp 和 finalizer orphan",
	"%s the kubelets stopped the 3 containers (event Killing)":                               "%s kubelet 停掉了 3 个容器（事件 Killing）",

	// etcd-slow
	"%s all %d etcd writes until every pod was bound say \"(the write waited 200ms in etcd)\"":    "%s 直到所有 Pod 绑定为止的全部 %d 次 etcd 写入都写着“这次写入在 etcd 里等了 200ms”",
	"%s the POST took %s in the apiserver: exactly the 200ms it waited for etcd":                  "%s 这个 POST 在 apiserver 里用了 %s：正好是等 etcd 持久化的 200ms",
	"%s the POST took %s in the apiserver; %d etcd writes until every pod was bound, none waited": "%s 这个 POST 在 apiserver 里用了 %s；直到所有 Pod 绑定共 %d 次 etcd 写入，没有一次需要等待",
	"%s the pods were bound %s after the apply instead of %s: the same work, waiting in etcd":     "%s Pod 在 apply 之后 %s 才绑定，而不是 %s：同样的工作，时间花在等 etcd 上",

	// explain
	"%s %s passes every Filter plugin (or is skipped by those with nothing to check)":                                     "%s %s 通过了每个 Filter 插件（或被无需检查的插件跳过）",
	"%s Score NodeAffinity on node-2 (SSD): raw 50, normalised 100, weight 2":                                             "%s node-2（SSD）上的 Score NodeAffinity：原始分 50，归一化 100，权重 2",
	"%s Score NodeResourcesFit (LeastAllocated) prefers the emptier node-3: %d against %d on node-2, where frontend runs": "%s Score NodeResourcesFit（LeastAllocated）偏向更空的 node-3：%d 对 node-2 的 %d（frontend 运行在 node-2 上）",
	"%s control-plane: Filter TaintToleration %s":                                                                         "%s control-plane 节点：Filter TaintToleration %s",
	"%s each total is Σ normalised × weight: node-2 %d, node-3 %d":                                                        "%s 每个总分 = Σ 归一化分 × 权重：node-2 %d，node-3 %d",
	"%s every node has a verdict from each of the %d Filter plugins, not just the first rejection":                        "%s 每个节点都有全部 %d 个 Filter 插件的结论，而不只是第一个拒绝",
	"%s it counts the 4 nodes": "%s 它统计了 4 个节点",
	"%s no node passes Filter, so nothing is scored and there is no winner":        "%s 没有节点通过 Filter，所以不打分，也没有胜者",
	"%s node-1: Filter NodeResourcesFit Insufficient cpu (400m left, 1 CPU asked)": "%s node-1：Filter NodeResourcesFit Insufficient cpu（剩 400m，要 1 个 CPU）",
	"%s pod web is bound to %s, the explanation's winner":                          "%s Pod web 绑定到 %s，正是解释中的胜者",
	"%s the explanation's message is the FailedScheduling event's: %s":             "%s 解释中的消息就是 FailedScheduling 事件的消息：%s",
	"%s the winner: node-2": "%s 胜者：node-2",

	// host-port
	"%s %s fails Filter NodePorts: %s":                         "%s %s 没有通过 Filter NodePorts：%s",
	"%s one proxy per node (%s)":                               "%s 每个节点一个 proxy（%s）",
	"%s proxy-a is bound to %s, which now has port 8080 taken": "%s proxy-a 绑定到 %s，该节点的 8080 端口从此被占用",
	"%s proxy-b is bound to %s, not %s":                        "%s proxy-b 绑定到 %s，而不是 %s",
	"%s proxy-d is Pending: FailedScheduling %s":               "%s proxy-d 处于 Pending：FailedScheduling %s",
	"%s the other 2 nodes pass":                                "%s 另外 2 个节点通过",

	// image-pull-backoff
	"%s kubectl describe pod %s: %s: %s":                                                                  "%s kubectl describe pod %s 显示：%s：%s",
	"%s kubectl describe pod %s: Warning Failed: Failed to pull image %q: ... %s":                         "%s kubectl describe pod %s 显示拉取失败：Warning Failed：Failed to pull image %q: ... %s",
	"%s kubectl get pod %s: STATUS ImagePullBackOff, phase Pending":                                       "%s kubectl get pod %s：STATUS ImagePullBackOff，阶段 Pending",
	"%s legacy-app was scheduled to %s, the arm64 node":                                                   "%s legacy-app 被调度到 %s，那个 arm64 节点",
	"%s pull %d failed; %s later the kubelet pulls again (event Pulling x%d)":                             "%s 第 %d 次拉取失败；%s 后 kubelet 再次拉取（事件 Pulling x%d）",
	"%s the back-off doubled after each failed pull: %s; it goes on to 2m40s, then stays at 5m0s":         "%s 每次拉取失败后退避时间翻倍：%s；一直到 2m40s，之后停在 5m0s",
	"%s web is still Pending with no container ever started: fix the image (kubectl set image) to end it": "%s web 仍是 Pending，没有任何容器启动过：修正镜像（kubectl set image）才能结束",

	// insufficient-resources
	"%s batch runs one pod per node (%s): each node has 900m CPU left":                  "%s batch 每个节点运行一个 Pod（%s）：每个节点还剩 900m CPU",
	"%s event Normal Scheduled: Successfully assigned default/big to %s":                "%s 事件 Normal Scheduled：Successfully assigned default/big to %s",
	"%s event Warning FailedScheduling: %s":                                             "%s 事件 Warning FailedScheduling：%s",
	"%s it was scheduled as soon as the room freed (%s after the batch pod was gone)":   "%s 一腾出空间它就被调度了（batch Pod 消失后 %s）",
	"%s kubectl get pod big: Pending, condition PodScheduled=False (Unschedulable): %s": "%s kubectl get pod big：Pending，状况 PodScheduled=False（Unschedulable）：%s",
	"%s kubectl get pod big: Running":                                                   "%s kubectl get pod big：Running（运行中）",
	"%s pod big is bound to %s, the node the deleted batch pod left":                    "%s Pod big 绑定到 %s，即被删的 batch Pod 腾出的节点",
	"%s pod big is still Pending, bound to no node":                                     "%s Pod big 仍是 Pending，没有绑定到任何节点",

	// kubelet-cert-expired
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

	// leader-election
	"%s 8s later the Deployment wants 5 but its ReplicaSet still says 3: no controller is running":               "%s 8 秒后 Deployment 期望 5 个，它的 ReplicaSet 却仍是 3：没有控制器在运行",
	"%s Lease kube-system/kube-controller-manager: holderIdentity kube-controller-manager, leaseTransitions 0":   "%s Lease kube-system/kube-controller-manager：holderIdentity 为 kube-controller-manager，leaseTransitions 0",
	"%s Lease kube-system/kube-controller-manager: holderIdentity kube-controller-manager-2, leaseTransitions 1": "%s Lease kube-system/kube-controller-manager：holderIdentity 为 kube-controller-manager-2，leaseTransitions 1",
	"%s ReplicaSet %s: replicas 5": "%s ReplicaSet %s：副本数 5",
	"%s it was acquired %s after the last renewal: leaseDuration 15s, then at most a retryPeriod or two": "%s 在最后一次续约 %s 后被接手：leaseDuration 15s，再加至多一两个 retryPeriod",
	"%s kube-controller-manager-2 is a standby: it reads the Lease every 2s and does not lead":           "%s kube-controller-manager-2 是备用的：每 2 秒读一次 Lease，不当 leader",

	// local-autonomy
	"%s crictl ps on node-1: nginx still running in the same container (%s)":                                        "%s 在 node-1 上 crictl ps：nginx 仍在同一个容器里运行（%s）",
	"%s crictl ps on node-1: worker running again after crashing: the kubelet restarted it on its own (attempt %s)": "%s 在 node-1 上 crictl ps：worker 崩溃后又在运行：kubelet 自己重启了它（attempt %s）",
	"%s kubectl get node node-1: NotReady (Ready Unknown), tainted node.kubernetes.io/unreachable:NoExecute":        "%s kubectl get node node-1：NotReady（Ready Unknown），加了污点 node.kubernetes.io/unreachable:NoExecute",
	"%s kubectl get pod worker: RESTARTS %d, what node-1 did while it was cut off":                                  "%s kubectl get pod worker：重启 %d 次，这是 node-1 断网期间做的事",
	"%s kubelet log on node-1: failed to renew lease: ... connection refused":                                       "%s node-1 的 kubelet 日志：failed to renew lease: ... connection refused（连不上 apiserver）",
	"%s node.kubernetes.io/unreachable removed, within the 300s toleration: no pod was evicted":                     "%s node.kubernetes.io/unreachable 已去掉，仍在 300 秒容忍期内：没有 Pod 被驱逐",
	"%s the apiserver shows %s Ready=False":                                                                         "%s apiserver 显示 %s Ready=False",
	"%s the apiserver shows worker with RESTARTS 0":                                                                 "%s apiserver 显示 worker 重启 0 次",

	// no-requests
	"%s %d pods on one node: had each asked for the %dm CPU the scheduler assumes when scoring, at most %d would fit in 900m": "%s 一个节点上 %d 个 Pod：假如每个都申请调度器打分时假定的 %dm CPU，900m 里最多只放得下 %d 个",
	"%s %s, using %dMi, holds %d pods (leaky included) and %s, using %dMi, %d: balanced by count, blind to use":               "%s %s 用了 %dMi，有 %d 个 Pod（包括 leaky），%s 用了 %dMi，有 %d 个：按数量均衡，看不见实际用量",
	"%s all 20 crowd pods are Running (pods per node: %s)":                                                                    "%s 全部 20 个 crowd Pod 都在 Running（每个节点的 Pod 数：%s）",
	"%s kubectl describe node %s: %d pods, Allocated resources: cpu 0 (0%%), memory 0 (0%%); in use %dMi":                     "%s kubectl describe node %s：%d 个 Pod，Allocated resources：cpu 0 (0%%)，memory 0 (0%%)；实际使用 %dMi",
	"%s kubectl get pod -o jsonpath={.status.qosClass}: BestEffort":                                                           "%s kubectl get pod -o jsonpath={.status.qosClass}：BestEffort（没有 requests 和 limits）",
	"%s the container runtime on %s reports %dMi in use":                                                                      "%s %s 上的容器运行时报告使用了 %dMi",

	// node-join
	"%s Lease kube-node-lease/node-4 created: the node's heartbeat, renewed every 10s from now on":                        "%s Lease kube-node-lease/node-4 已创建：这是节点的心跳，此后每 10 秒续约一次",
	"%s a pod of nginx runs on node-4 and is Ready":                                                                       "%s 有一个 nginx Pod 运行在 node-4 上并且已就绪",
	"%s allocatable cpu %s, memory %s: capacity 4 and 8Gi minus 100m and 256Mi reserved and the 100Mi eviction threshold": "%s 可分配 cpu %s、内存 %s：容量 4 和 8Gi，减去预留的 100m 和 256Mi，再减去 100Mi 的驱逐阈值",
	"%s event Scheduled: Successfully assigned default/%s to node-4":                                                      "%s 事件 Scheduled：Successfully assigned default/%s to node-4",
	"%s kubectl describe node node-4: %s: %s":                                                                             "%s kubectl describe node node-4 显示：%s：%s",
	"%s kubectl get nodes: %d nodes":                                                                                      "%s kubectl get nodes：%d 个节点",
	"%s kubectl get nodes: node-4 Ready, joined %s ago":                                                                   "%s kubectl get nodes：node-4 Ready，%s 前加入",
	"%s no pod moved to node-4: Kubernetes does not rebalance running pods":                                               "%s 没有 Pod 挪到 node-4：Kubernetes 不会重新平衡正在运行的 Pod",
	"%s node-4 registered itself: labels kubernetes.io/hostname=node-4, kubernetes.io/arch=amd64; podCIDR %s":             "%s node-4 自己注册了：标签 kubernetes.io/hostname=node-4、kubernetes.io/arch=amd64；podCIDR %s",

	// node-pressure-eviction
	"%s %s still Running":            "%s %s 仍在 Running",
	"%s %s: QoS class %s, on node-1": "%s %s：QoS 类别 %s，在 node-1 上",
	"%s db (Guaranteed, within its request) still Running: evicted %s":                            "%s db（Guaranteed，用量在 requests 之内）仍在 Running：被驱逐的是 %s",
	"%s kubectl describe node node-1: MemoryPressure True, %s, %s":                                "%s kubectl describe node node-1 显示：MemoryPressure True，%s，%s",
	"%s kubectl describe node node-1: Warning EvictionThresholdMet: Attempting to reclaim memory": "%s kubectl describe node node-1：Warning EvictionThresholdMet: Attempting to reclaim memory（达到驱逐阈值）",
	"%s kubectl describe pod cache: Warning Evicted: The node was low on resource: memory. ...":   "%s kubectl describe pod cache：Warning Evicted: The node was low on resource: memory. ...（被驱逐）",
	"%s kubectl get pod api: STATUS Evicted: %s":                                                  "%s kubectl get pod api：STATUS Evicted（已驱逐）：%s",
	"%s kubectl get pod cache: STATUS Evicted: %s":                                                "%s kubectl get pod cache：STATUS Evicted（已驱逐）：%s",
	"%s node-1 tainted node.kubernetes.io/memory-pressure:NoSchedule":                             "%s node-1 加上了污点 node.kubernetes.io/memory-pressure:NoSchedule",

	// node-selector-affinity
	"%s NodeAffinity scores 0 on every node: nobody matches, so the preference decides nothing": "%s NodeAffinity 在每个节点上都是 0 分：没有节点匹配，这个偏好什么也决定不了",
	"%s Score NodeAffinity: node-2 (zone-b) %d→%d, node-1 %d→%d, each times weight %d":          "%s Score NodeAffinity：node-2（zone-b）%d→%d，node-1 %d→%d，各乘以权重 %d",
	"%s all 3 nodes pass Filter: preferences are never filters":                                 "%s 3 个节点都通过 Filter：偏好从来不是过滤条件",
	"%s node-1 and node-2 (disktype=ssd) pass Filter: %d of 3 nodes feasible":                   "%s node-1 和 node-2（disktype=ssd）通过 Filter：3 个节点中 %d 个可行",
	"%s node-3 (disktype=hdd) fails Filter NodeAffinity: %s":                                    "%s node-3（disktype=hdd）没有通过 Filter NodeAffinity：%s",
	"%s pod db is bound to %s, an SSD node":                                                     "%s Pod db 绑定到 %s，一个 SSD 节点",
	"%s pod report is scheduled and Running on %s":                                              "%s Pod report 已调度，在 %s 上 Running",
	"%s the explanation's winner is node-2 (totals: node-1 %d, node-2 %d)":                      "%s 解释中的胜者是 node-2（总分：node-1 %d，node-2 %d）",
	"%s the required affinity filters node-3 out":                                               "%s 必需的亲和性把 node-3 过滤掉了",
	"%s the scheduler binds cache to node-2, as explained":                                      "%s 调度器如解释所说，把 cache 绑定到 node-2",

	// oom-killed
	"%s QoS class Burstable: requests below limits":                                                   "%s QoS 类别 Burstable：requests 低于 limits",
	"%s it ran %s by kubectl's whole seconds: nginx's 8Mi plus 10Mi/s passes 64Mi after 5.6s":         "%s 按 kubectl 的整秒计它运行了 %s：nginx 的 8Mi 加上每秒 10Mi，5.6 秒后超过 64Mi",
	"%s kubectl describe pod memory-hog: Last State: Terminated, Reason: OOMKilled, Exit Code: 137":   "%s kubectl describe pod memory-hog：Last State: Terminated，Reason: OOMKilled，Exit Code: 137（内存超限被杀）",
	"%s kubectl get pod memory-hog: STATUS CrashLoopBackOff, RESTARTS %d, last state OOMKilled (137)": "%s kubectl get pod memory-hog：STATUS CrashLoopBackOff，重启 %d 次，上次状态 OOMKilled（137）",
	"%s node %s: MemoryPressure False: the limit kept the leak inside the container":                  "%s 节点 %s：MemoryPressure False：limit 把泄漏关在了容器之内",

	// pod-anti-affinity
	"%s 3 replicas are bound, one per node (%s)":                                        "%s 3 个副本已绑定，每个节点一个（%s）",
	"%s 30s later, still one web-ha replica Pending":                                    "%s 30 秒后，仍有一个 web-ha 副本 Pending",
	"%s all 4 web-soft replicas are scheduled, spread over all 3 nodes (%s)":            "%s web-soft 的 4 个副本全部调度完毕，分布在 3 个节点上（%s）",
	"%s no FailedScheduling event for web-soft: a preference never keeps a pod Pending": "%s web-soft 没有 FailedScheduling 事件：偏好从不会让 Pod 一直 Pending",
	"%s the fourth, %s, stays Pending: FailedScheduling %s":                             "%s 第四个 %s 保持 Pending：FailedScheduling %s",

	// preemption
	"%s admission set spec.priority to 1000000 from the PriorityClass":                    "%s 准入控制根据 PriorityClass 把 spec.priority 设为 1000000",
	"%s event Normal Preempted on %s: Preempted by pod %s on node %s":                     "%s %s 上的事件 Normal Preempted：Preempted by pod %s on node %s",
	"%s its first attempt: FailedScheduling 0/3 nodes are available: 3 Insufficient cpu.": "%s 它的第一次尝试：FailedScheduling 0/3 nodes are available: 3 Insufficient cpu.（CPU 不足）",
	"%s kubectl get pod urgent: not yet bound, status.nominatedNodeName %s":               "%s kubectl get pod urgent：尚未绑定，status.nominatedNodeName 为 %s",
	"%s pod urgent is bound to %s, its nominated node":                                    "%s Pod urgent 绑定到 %s，即它的提名节点",
	"%s the cluster is full: one low pod per node (%s)":                                   "%s 集群满了：每个节点一个 low Pod（%s）",
	"%s the replacement is Pending: %s":                                                   "%s 替补处于 Pending：%s",
	"%s the victim %s is gone":                                                            "%s 牺牲者 %s 已消失",

	// probes
	"%s kubectl describe pod %s: %s %s: %s": "%s kubectl describe pod %s 显示：%s %s：%s",
	"%s kubectl get pod liveness-http: RESTARTS 1; the new container answers 200 again, for its first 30s":             "%s kubectl get pod liveness-http：重启 1 次；新容器又回答 200 了，在它的前 30 秒里",
	"%s kubectl get pod readiness-exec: READY 0/1, STATUS Running, RESTARTS 0: not ready is not restarted":             "%s kubectl get pod readiness-exec：READY 0/1，STATUS Running，重启 0 次：未就绪不会被重启",
	"%s readiness-exec is Ready: cat /tmp/healthy succeeds":                                                            "%s readiness-exec 已就绪：cat /tmp/healthy 成功",
	"%s slow-start: Ready once its server listened (60s), RESTARTS 0: the startup probe kept the liveness probe away":  "%s slow-start：服务开始监听（60 秒）后就绪，重启 0 次：启动探针挡住了存活探针",
	"%s slow-unguarded: RESTARTS %d: its liveness probe kills it about 30s into each 60s start-up, so it never serves": "%s slow-unguarded：重启 %d 次：每次 60 秒的启动进行到约 30 秒时，存活探针就杀掉它，所以它从未提供服务",

	// quota
	"%s 3 SuccessfulCreate events on the ReplicaSet":                                                "%s ReplicaSet 上有 3 个 SuccessfulCreate 事件",
	"%s 5 SuccessfulCreate events in all":                                                           "%s 一共 5 个 SuccessfulCreate 事件",
	"%s event FailedCreate on the ReplicaSet: Error creating: pods \"web-...\" %s":                  "%s ReplicaSet 上的事件 FailedCreate：Error creating: pods \"web-...\" %s",
	"%s kubectl describe rs: condition ReplicaFailure=True (FailedCreate) with the quota's message": "%s kubectl describe rs：状况 ReplicaFailure=True（FailedCreate），带着配额的消息",
	"%s kubectl get deployment web -n team: READY 3/5":                                              "%s kubectl get deployment web -n team：READY 3/5（未达期望状态）",
	"%s kubectl get pods -n team: 5 pods: %s":                                                       "%s kubectl get pods -n team：5 个 Pod：%s",
	"%s kubectl get pods -n team: still 3 pods: %s":                                                 "%s kubectl get pods -n team：仍是 3 个 Pod：%s",
	"%s the refusals repeat: %d FailedCreate events":                                                "%s 拒绝一再发生：%d 个 FailedCreate 事件",

	// runtime-hung
	"%s %s after the runtime hung": "%s 在运行时卡住 %s 之后",
	"%s Lease kube-node-lease/node-2 renewed %s ago: the kubelet is alive, so the node is NotReady, not Unknown":           "%s Lease kube-node-lease/node-2 在 %s 前续约过：kubelet 还活着，所以节点是 NotReady 而不是 Unknown",
	"%s crictl ps on node-2: the same container, running since before the hang (%d running)":                               "%s 在 node-2 上 crictl ps：还是同一个容器，从卡住之前一直运行至今（%d 个在运行）",
	"%s event NodeNotReady: Node node-2 status is now: NodeNotReady, from the kubelet itself":                              "%s 事件 NodeNotReady：Node node-2 status is now: NodeNotReady，来自 kubelet 自己",
	"%s kubectl describe node node-2: Ready False, KubeletNotReady, %s":                                                    "%s kubectl describe node node-2 显示：Ready False，KubeletNotReady，%s",
	"%s kubectl get pod %s: RESTARTS 0, same container ID":                                                                 "%s kubectl get pod %s：重启 0 次，容器 ID 不变",
	"%s kubelet log on node-2: PLEG relist failed ... rpc error: code = DeadlineExceeded desc = context deadline exceeded": "%s node-2 的 kubelet 日志：PLEG relist failed ... rpc error: code = DeadlineExceeded desc = context deadline exceeded（运行时不应答）",
	"%s node-2 Ready, and the not-ready taints removed":                                                                    "%s node-2 Ready，not-ready 污点已去掉",
	"%s pod %s runs on node-2: container %s":                                                                               "%s Pod %s 运行在 node-2 上：容器 %s",
	"%s pod %s: still Running, not evicted":                                                                                "%s Pod %s：仍在 Running，没有被驱逐",
	"%s the node lifecycle controller tainted node-2 node.kubernetes.io/not-ready:NoExecute (pods tolerate it for 300s)":   "%s 节点生命周期控制器给 node-2 加上污点 node.kubernetes.io/not-ready:NoExecute（Pod 容忍它 300 秒）",

	// split-brain
	"%s both think they lead: kube-controller-manager IsLeader %t, kube-controller-manager-2 IsLeader %t":                                   "%s 两个都以为自己是 leader：kube-controller-manager IsLeader %t，kube-controller-manager-2 IsLeader %t",
	"%s exactly one event: Scaled up replica set nginx-... from 3 to 5":                                                                     "%s 恰好一个事件：Scaled up replica set nginx-... from 3 to 5",
	"%s kube-controller-manager leads; kube-controller-manager-2 waits":                                                                     "%s kube-controller-manager 是 leader；kube-controller-manager-2 等待",
	"%s kubectl get pods -l app=nginx: 5 pods (3 + exactly 2 created), not 7":                                                               "%s kubectl get pods -l app=nginx：5 个 Pod（3 个 + 恰好新建 2 个），不是 7 个",
	"%s one ReplicaSet, replicas 5":                                                                                                         "%s 一个 ReplicaSet，副本数 5",
	"%s one leader again: kube-controller-manager-2 holds the Lease":                                                                        "%s 又只有一个 leader 了：kube-controller-manager-2 持有 Lease",
	"%s the Lease says holderIdentity kube-controller-manager-2, leaseTransitions 1":                                                        "%s Lease 上写着 holderIdentity 为 kube-controller-manager-2，leaseTransitions 1",
	"%s the old leader still believes it leads":                                                                                             "%s 旧 leader 仍以为自己是 leader",
	"%s the old leader's deployment-controller tried the scale %d times; each write failed: connection refused (network partition)":         "%s 旧 leader 的 deployment 控制器尝试扩容 %d 次；每次写入都失败：connection refused（网络分区）",
	"%s while both still lead, the caught-up ReplicaSet controllers reconcile the nginx ReplicaSet %d times: wants 5, has 5: nothing to do": "%s 两个都还是 leader 时，追上进度的 ReplicaSet 控制器调谐 nginx ReplicaSet %d 次：期望 5 个，现有 5 个：无需操作",

	// stale-cache
	"%s kubectl get pods -l app=web: 3 pods":                                                "%s kubectl get pods -l app=web：3 个 Pod",
	"%s kubectl get pods -l app=web: 3 pods, the ReplicaSet's replicas":                     "%s kubectl get pods -l app=web：3 个 Pod，正是 ReplicaSet 的副本数",
	"%s kubectl get pods -l app=web: still 3 pods, not 6":                                   "%s kubectl get pods -l app=web：仍是 3 个 Pod，不是 6 个",
	"%s reconcile default/web: wants 3, has 3: nothing to do":                               "%s 调谐 default/web：期望 3 个，现有 3 个：无需操作",
	"%s the controller waits: 3 adds it made are not in its cache yet (expectations)":       "%s 控制器在等：它发出的 3 个创建还没进缓存（expectations）",
	"%s the pod handler saw the third pod: 0 more adds expected":                            "%s Pod 处理函数看到了第三个 Pod：不再等待新增",
	"%s the pod informer holds %d events it has not applied: its cache still shows no pods": "%s Pod informer 积压着 %d 个尚未应用的事件：它的缓存里仍然没有 Pod",

	// taints
	"%s and the two workers are rejected by its nodeSelector":                                  "%s 两个 worker 节点被它的 nodeSelector 排除",
	"%s kubectl describe pod trainer: Pending, FailedScheduling names both taints: %s":         "%s kubectl describe pod trainer：Pending，FailedScheduling 点名了两个污点：%s",
	"%s kubectl get pods -o wide: the web pods run on the untainted nodes only (%s)":           "%s kubectl get pods -o wide：web Pod 只运行在没有污点的节点上（%s）",
	"%s no log agent on gpu-1: they do not tolerate its taint (%s)":                            "%s gpu-1 上没有日志代理：它们不容忍它的污点（%s）",
	"%s pod trainer runs on gpu-1: the toleration lets it in, the nodeSelector sends it there": "%s Pod trainer 运行在 gpu-1 上：容忍让它进得去，nodeSelector 把它送过去",
	"%s the toleration lets %d of them land on control-plane, whose taint they tolerate":       "%s 容忍让其中 %d 个落在 control-plane 上，它们容忍该节点的污点",

	// topology-spread
	"%s %s is bound to node-2: zones now 3/3/2":                                                          "%s %s 绑定到 node-2：各可用区现在是 3/3/2",
	"%s %s: FailedScheduling %s (zone-a would hold 4 against 2)":                                         "%s %s：FailedScheduling %s（zone-a 会有 4 个，而别处是 2 个）",
	"%s 2 replicas per zone (%s), although node-1 has twice the CPU":                                     "%s 每个可用区 2 个副本（%s），尽管 node-1 的 CPU 是别人的两倍",
	"%s the seventh replica went to node-1 (zone-a 3, the others 2: skew 1), the eighth is Pending (%s)": "%s 第七个副本去了 node-1（zone-a 3 个，其他 2 个：偏差 1），第八个 Pending（%s）",

	// watch-expired
	"%s apiserver_request_total{verb=\"LIST\", resource=\"deployments\", code=\"200\"}: %d -> %d, the relist": "%s apiserver_request_total{verb=\"LIST\", resource=\"deployments\", code=\"200\"}：%d -> %d，这就是重新 list",
	"%s apiserver_request_total{verb=\"WATCH\", resource=\"deployments\", code=\"410\"}: %d -> %d":            "%s apiserver_request_total{verb=\"WATCH\", resource=\"deployments\", code=\"410\"}：%d -> %d（多了一次 410 Gone）",
	"%s its cache equals etcd: nginx with 4 replicas of nginx:1.27":                                           "%s 它的缓存与 etcd 一致：nginx，4 个 nginx:1.27 副本",
	"%s one call, for nginx as it is now (resourceVersion %s): %s":                                            "%s 只调用一次，针对 nginx 的当前状态（resourceVersion %s）：%s",
	"%s the handlers saw: %s":                                       "%s 处理函数看到了：%s",
	"%s the informer relisted once (Relists() = 1)":                 "%s informer 重新 list 了一次（Relists() = 1）",
	"%s web, created and deleted while it was away, never appeared": "%s web 在它离开期间被创建又删除，从未出现",

	// watch-resume
	"%s exactly the missed events, in etcd's order, none twice: %s (expected %s)": "%s 恰好是错过的那些事件，按 etcd 的顺序，没有重复：%s（期望 %s）",
	"%s it did not list again: the watch cache still had the history":             "%s 它没有重新 list：watch 缓存里还有这段历史",
	"%s its cache equals etcd: nginx with 4 replicas of nginx:1.27, no web":       "%s 它的缓存与 etcd 一致：nginx，4 个 nginx:1.27 副本，没有 web",
	"%s its resourceVersion is etcd's revision, %d":                               "%s 它的 resourceVersion 就是 etcd 的 revision，%d",
	"%s the disconnected informer's handlers saw nothing":                         "%s 断开连接的 informer 的处理函数什么也没看到",

	// webhook-timeout
	"%s event FailedCreate on the ReplicaSet: Error creating: %s":                                                  "%s ReplicaSet 上的事件 FailedCreate：Error creating: %s",
	"%s kubectl get pod app-1: containers nginx and sidecar (%s) — injected at admission":                          "%s kubectl get pod app-1：容器 nginx 和 sidecar（%s）——在准入控制阶段注入",
	"%s kubectl get pod app-3: only container nginx, no sidecar":                                                   "%s kubectl get pod app-3：只有容器 nginx，没有 sidecar",
	"%s kubectl get pods -l app=web: 2 pods, neither with the sidecar":                                             "%s kubectl get pods -l app=web：2 个 Pod，都没有 sidecar",
	"%s kubectl get pods -l app=web: no pods (%d)":                                                                 "%s kubectl get pods -l app=web：没有 Pod（%d）",
	"%s nothing was written: pod app-2 does not exist":                                                             "%s 什么都没写入：Pod app-2 不存在",
	"%s pod app-1 is created":                                                                                      "%s Pod app-1 已创建",
	"%s pod app-3 is created":                                                                                      "%s Pod app-3 已创建",
	"%s pod app-4 is created with the sidecar":                                                                     "%s Pod app-4 已创建，带着 sidecar",
	"%s the configuration is updated although its webhook hangs: webhook configurations never go through webhooks": "%s 尽管 webhook 卡死，配置仍被更新：webhook 配置本身从不经过 webhook",
	"%s the request still took %s: the webhook was called and timed out":                                           "%s 请求仍然用了 %s：webhook 被调用并且超时了",
	"%s the request took %s of cluster time: the webhook's timeoutSeconds":                                         "%s 请求用了 %s 的集群时间：正是 webhook 的 timeoutSeconds",
	"%s the request took %s":                                                                                       "%s 请求用了 %s",
	"%s the trace notes the skipped webhook: \"failed calling webhook ...: context deadline exceeded; failurePolicy Ignore: skipped\"": "%s 跟踪记录了被跳过的 webhook：\"failed calling webhook ...: context deadline exceeded; failurePolicy Ignore: skipped\"",
	"%s webhook %s: failurePolicy %s, timeoutSeconds %d":                                                                               "%s webhook %s：失败策略 failurePolicy %s，超时 timeoutSeconds %d",
}
