// zh_workloads.go: the Chinese telling of the workload, gate, watch and controller scenarios' step
// headings and of the lines they record themselves (see sim/zh.go and sim/narrate/zh.go).
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		// shared
		"%d. kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available": "%d. kubectl apply -f nginx-deployment.yaml，等到 3/3 个 Pod 可用",
		"%d. kubectl apply -f nginx-deployment.yaml":                                       "%d. kubectl apply -f nginx-deployment.yaml",

		// self-healing
		"%d. kubectl delete pod %s (it runs on %s)":                                                      "%d. kubectl delete pod %s（它运行在 %s 上）",
		"%d. The ReplicaSet controller counts 2 of 3 and creates a replacement; the scheduler places it": "%d. ReplicaSet 控制器数到 3 个里只剩 2 个，于是新建一个补上；调度器为它选节点",
		"%d. What kubectl get pods and the events now show":                                              "%d. 现在 kubectl get pods 和事件能看到什么",

		// scale
		"%d. kubectl cordon every node (a maintenance window): running pods stay, new ones cannot land":      "%d. kubectl cordon 所有节点（维护窗口）：已运行的 Pod 留着，新的 Pod 无处可去",
		"%d. kubectl scale deployment/nginx --replicas=5: the ReplicaSet creates 2 pods, which stay Pending": "%d. kubectl scale deployment/nginx --replicas=5：ReplicaSet 新建 2 个 Pod，它们一直 Pending",
		"%d. kubectl scale deployment/nginx --replicas=2: the ReplicaSet deletes 3, the least useful first":  "%d. kubectl scale deployment/nginx --replicas=2：ReplicaSet 删掉 3 个，最没用的先删",
		"%d. kubectl uncordon every node: nothing is Pending any more, the Deployment is 2/2":                "%d. kubectl uncordon 所有节点：没有 Pending 的 Pod 了，Deployment 为 2/2",

		// rolling-update
		"%d. kubectl apply -f nginx-deployment.yaml (nginx:1.25) and wait until 3/3 pods are available":           "%d. kubectl apply -f nginx-deployment.yaml（nginx:1.25），等到 3/3 个 Pod 可用",
		"%d. kubectl set image deployment/nginx nginx=nginx:1.27: a new ReplicaSet takes over, one pod at a time": "%d. kubectl set image deployment/nginx nginx=nginx:1.27：新的 ReplicaSet 一次一个 Pod 地接手",
		"%d. The rollout history: the old ReplicaSet is kept at 0 replicas, the revisions are annotations":        "%d. 发布历史：旧 ReplicaSet 保留为 0 副本，revision 记在注解里",
		"%d. kubectl rollout undo deployment/nginx: the nginx:1.25 template comes back, as revision 3":            "%d. kubectl rollout undo deployment/nginx：nginx:1.25 的模板回来了，成为 revision 3",

		// delete-cascade
		"%d. kubectl delete deployment nginx (propagationPolicy Background): only the Deployment is deleted": "%d. kubectl delete deployment nginx（propagationPolicy Background）：只删除了 Deployment 本身",
		"%d. The garbage collector finds owners gone: first the ReplicaSet goes, then its Pods":              "%d. 垃圾回收器发现属主不在了：先删 ReplicaSet，再删它的 Pod",
		"%d. Part 2: apply the Deployment again and wait until 3/3 pods are available":                       "%d. 第二部分：重新 apply 这个 Deployment，等到 3/3 个 Pod 可用",
		"%d. kubectl delete deployment nginx --cascade=orphan (propagationPolicy Orphan)":                    "%d. kubectl delete deployment nginx --cascade=orphan（propagationPolicy Orphan）",
		"%d. The garbage collector orphans the ReplicaSet, then removes the finalizer; the Deployment goes":  "%d. 垃圾回收器把 ReplicaSet 变成孤儿，再去掉 finalizer；Deployment 随之消失",

		// unauthenticated
		"%d. kubectl with kubeadm's admin.conf: the token is known, the request passes":                "%d. 用 kubeadm 的 admin.conf 执行 kubectl：token 是认识的，请求通过",
		"%d. A kubeconfig with a token the apiserver does not know tries to create a pod":              "%d. 一个带着 apiserver 不认识的 token 的 kubeconfig 试图创建 Pod",
		"%d. The admin's client certificate expires (kubeadm's admin.conf certificate lasts one year)": "%d. 管理员的客户端证书过期了（kubeadm 的 admin.conf 证书有效期一年）",

		// forbidden
		"%d. The admin creates a pod; alice (authenticated, no RoleBinding) tries to list pods":          "%d. 管理员创建一个 Pod；alice（已认证，但没有任何 RoleBinding）试图列出 Pod",
		"%d. kubectl auth can-i list pods --as alice":                                                    "%d. kubectl auth can-i list pods --as alice",
		"%d. The admin creates Role pod-reader (get, list, watch pods) and binds alice to it in default": "%d. 管理员创建 Role pod-reader（Pod 的 get、list、watch），并在 default 里把 alice 绑定上去",
		"%d. alice can now read pods in default, and nothing else":                                       "%d. alice 现在可以读 default 里的 Pod，除此之外什么都不行",

		// invalid-object
		"%d. kubectl create a Deployment named Nginx_Web with replicas -1 and a container without an image": "%d. kubectl create 一个名为 Nginx_Web、replicas 为 -1、容器没有镜像的 Deployment",
		"%d. kubectl apply -f of a manifest that misspells replicas as replica":                             "%d. kubectl apply -f 一个把 replicas 拼成 replica 的清单",
		"%d. The corrected manifest passes every gate":                                                      "%d. 改正后的清单通过了所有关卡",

		// conflict
		"%d. Two writers read the Deployment: both see the same resourceVersion":                      "%d. 两个写者读取 Deployment：看到同一个 resourceVersion",
		"%d. Writer 1 sets replicas to 4 and updates: the compare-and-swap succeeds":                  "%d. 写者 1 把 replicas 改成 4 并更新：compare-and-swap 成功",
		"%d. Writer 2 sets the image to nginx:1.27 and updates with resourceVersion %s: 409 Conflict": "%d. 写者 2 把镜像改成 nginx:1.27，带着 resourceVersion %s 更新：409 Conflict",
		"%d. Writer 2 reads again, reapplies its change to the fresh copy and retries":                "%d. 写者 2 重新读取，把修改应用到最新副本上再试一次",

		// watch-resume and watch-expired
		"%d. kubectl apply -f nginx-deployment.yaml; my-controller's informer lists and starts watching": "%d. kubectl apply -f nginx-deployment.yaml；my-controller 的 informer 先 list 再开始 watch",
		"%d. The watch connection breaks at resourceVersion %s":                                          "%d. watch 连接在 resourceVersion %s 处断开",
		"%d. While it is away: scale nginx to 4, create web, set nginx's image, delete web":              "%d. 它断开期间：把 nginx 扩到 4、创建 web、修改 nginx 的镜像、删除 web",
		"%d. The informer watches again from its last resourceVersion and catches up":                    "%d. informer 从上次的 resourceVersion 重新 watch，追上进度",
		"%d. The watch connection breaks at resourceVersion %s, and stays down a while":                  "%d. watch 连接在 resourceVersion %s 处断开，而且断了好一阵",
		"%d. Meanwhile kube-apiserver has etcd compact its history up to the current revision":           "%d. 与此同时 kube-apiserver 让 etcd 把历史压缩到当前 revision",
		"%d. The informer tries to resume: 410 Gone, so it lists everything again":                       "%d. informer 试图续传：410 Gone，只好重新全量 list",
		"%d. What the handlers saw: the present state, not the history":                                  "%d. 处理函数看到的是现状，而不是历史",
		"handler: %s %s (resourceVersion %s, replicas %d, image %s)":                                     "处理函数：%s %s（resourceVersion %s，replicas %d，镜像 %s）",
		"OnDelete %s (its final state, resourceVersion %s: the deletion's revision)":                     "OnDelete %s（最终状态，resourceVersion %s：删除发生时的 revision）",
		"%s %s (resourceVersion %s, replicas %d, image %s)":                                              "%s %s（resourceVersion %s，replicas %d，镜像 %s）",
		"%s: the watch connection is lost; last resourceVersion applied: %s":                             "%s：watch 连接断了；最后应用的 resourceVersion：%s",

		// etcd-slow
		"%d. A healthy etcd: kubectl apply -f nginx-deployment.yaml, timed until the pods are bound and available":                             "%d. etcd 健康时：kubectl apply -f nginx-deployment.yaml，计时到 Pod 全部绑定、全部可用",
		"%d. kubectl delete deployment nginx, and wait until its pods are gone":                                                                "%d. kubectl delete deployment nginx，等它的 Pod 全部消失",
		"%d. etcd's disk turns slow: every write now waits 200ms before etcd answers":                                                          "%d. etcd 的磁盘变慢了：现在每次写入都要等 200ms etcd 才应答",
		"%d. The same kubectl apply -f nginx-deployment.yaml, timed the same way":                                                              "%d. 同样的 kubectl apply -f nginx-deployment.yaml，同样计时",
		"kubectl apply: POST %s in the apiserver; every pod bound after %s (%d etcd writes, %d of them waited); Deployment available after %s": "kubectl apply：POST 在 apiserver 里耗时 %s；%s 后所有 Pod 绑定完毕（%d 次 etcd 写入，其中 %d 次在等待）；%s 后 Deployment 可用",

		// leader-election
		"%d. A second replica, kube-controller-manager-2, starts: the Lease is held, so it waits":   "%d. 第二个副本 kube-controller-manager-2 启动：Lease 被占着，它只能等",
		"%d. kube-controller-manager dies (its process is killed): nobody renews the Lease":         "%d. kube-controller-manager 挂了（进程被杀）：没人续约 Lease",
		"%d. While nobody leads: kubectl scale deployment/nginx --replicas=5":                       "%d. 群龙无首之时：kubectl scale deployment/nginx --replicas=5",
		"%d. The Lease expires (leaseDuration 15s): kube-controller-manager-2 takes it over":        "%d. Lease 过期（leaseDuration 15s）：kube-controller-manager-2 接管",
		"%d. The new leader's controllers reconcile what is pending: the scale to 5 is carried out": "%d. 新 leader 的控制器处理积压的工作：扩容到 5 得以完成",

		// split-brain
		"%d. kubectl apply -f nginx-deployment.yaml; a second replica, kube-controller-manager-2, stands by":                           "%d. kubectl apply -f nginx-deployment.yaml；第二个副本 kube-controller-manager-2 待命",
		"%d. kubectl scale deployment/nginx --replicas=5; the news reaches the leader just as its network fails and its elector hangs": "%d. kubectl scale deployment/nginx --replicas=5；消息刚传到 leader，它的网络就断了，选主协程也卡住了",
		"%d. The old leader keeps acting on what it saw, and its writes fail; after 15s kube-controller-manager-2 takes the Lease":     "%d. 旧 leader 按它看到的继续行动，写入全部失败；15 秒后 kube-controller-manager-2 拿到 Lease",
		"%d. Both act: the new leader scales the ReplicaSet, the old one keeps failing":                                                "%d. 两个都在行动：新 leader 扩容 ReplicaSet，旧 leader 继续失败",
		"%d. The network heals: the old leader's informers catch up and its controllers find nothing to do":                            "%d. 网络恢复：旧 leader 的 informer 追上进度，它的控制器发现无事可做",
		"%d. Its elector wakes up, finds the Lease taken, and steps down":                                                              "%d. 它的选主协程醒来，发现 Lease 已被别人拿走，于是退位",
		"%d. The cluster has converged: the desired 5 pods, no extra":                                                                  "%d. 集群收敛了：正好是期望的 5 个 Pod，一个不多",

		// stale-cache
		"%d. A ReplicaSet controller whose informers we pump by hand; kubectl create a ReplicaSet web of 3 pods": "%d. 一个由我们手动推进 informer 的 ReplicaSet 控制器；kubectl create 一个 3 副本的 ReplicaSet web",
		"%d. Reconcile default/web: the cache shows 0 of 3 pods, so it creates 3":                                "%d. Reconcile default/web：缓存里 3 个 Pod 一个都没有，于是创建 3 个",
		"%d. Its pod informer lags: the 3 pods have not reached its cache yet. Reconcile default/web again":      "%d. 它的 Pod informer 滞后：3 个 Pod 还没进缓存。再 Reconcile 一次 default/web",
		"%d. Its informers catch up: each pod ticks off one expected add; reconcile default/web once more":       "%d. 它的 informer 追上进度：每个 Pod 抵消一个预期的新增；再 reconcile 一次 default/web",
	} {
		narrate.ZH[en] = zh
	}
}
