// catalog_signs.go: the Chinese telling of the signs (the expect: lines) of the scenarios a learner
// meets first: create-deployment, api-gates, unauthenticated, forbidden, invalid-object,
// self-healing, scale, rolling-update and node-down. Each sign's format starts with "%s ", the ✓ or ✗
// mark (see Session.Expect). These move next to their scenarios with the rest of their translations;
// the signs of the other scenarios are still to be translated (see signsTranslated in
// catalog_test.go).
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
}
