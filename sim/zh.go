// zh.go: the Chinese telling of the simulator's own lines (scenario steps, kubectl, checks). The
// narrator translates by format string; see sim/narrate/zh.go.
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		// kubectl
		"%s %s":                "%s %s",
		"kubectl apply -f: %v": "kubectl apply -f：%v",
		"GET %s %s (kubectl apply: does it exist yet?)": "GET %s %s（kubectl apply：对象已经存在吗？）",
		"LIST %s":                              "LIST %s",
		"kubectl auth can-i %s %s -n %s -> %s": "kubectl auth can-i %s %s -n %s -> %s",
		"The cluster starts: %s":               "集群启动：%s",
		// create-deployment steps
		"%d. kubectl apply -f nginx-deployment.yaml (3 replicas of nginx:1.25)":                       "%d. kubectl apply -f nginx-deployment.yaml（3 个 nginx:1.25 副本）",
		"%d. The control plane and the kubelets take it from here, until the Deployment is available": "%d. 接下来交给控制面和各节点的 kubelet，直到 Deployment 可用",
		"%d. What kubectl get and kubectl describe now show":                                          "%d. 现在 kubectl get 和 kubectl describe 能看到什么",
		// api-gates steps
		"%d. A request that passes every gate: kubectl apply -f nginx-deployment.yaml":                             "%d. 一个通过所有关卡的请求：kubectl apply -f nginx-deployment.yaml",
		"%d. Gate 1, authentication: a kubeconfig with a token the apiserver does not know":                        "%d. 第一关，认证：kubeconfig 里的 token 是 apiserver 不认识的",
		"%d. Gate 1 again: a kubelet whose client certificate has expired":                                         "%d. 还是第一关：kubelet 的客户端证书过期了",
		"%d. Gate 2, authorization: alice has no RoleBinding (RBAC denies by default)":                             "%d. 第二关，授权：alice 没有任何 RoleBinding（RBAC 默认拒绝）",
		"%d. Bind alice to the view ClusterRole in default: reading is allowed, deleting still is not":             "%d. 在 default 里把 alice 绑定到 view 这个 ClusterRole：可以读了，但仍然不能删",
		"%d. Gate 3, admission: NamespaceLifecycle refuses objects in a namespace that does not exist":             "%d. 第三关，准入控制：NamespaceLifecycle 拒绝在不存在的命名空间里创建对象",
		"%d. Gate 4, validation: a bad name, negative replicas and a container without an image":                   "%d. 第四关，校验：名字不合法、副本数为负、容器没有镜像",
		"%d. Strict decoding: a typo in a field name is an error, never silently dropped":                          "%d. 严格解码：字段名拼错是错误，绝不会被悄悄丢掉",
		"%d. Gate 6, persist: two writers update the Deployment from the same resourceVersion":                     "%d. 写入 etcd：两个写者基于同一个 resourceVersion 更新同一个 Deployment",
		"%d. Creating what exists, reading what does not":                                                          "%d. 创建已存在的对象，读取不存在的对象",
		"%d. Dry run: every gate runs, nothing is stored":                                                          "%d. Dry run：每道关卡都走一遍，但什么都不写入",
		"%d. Watch: an informer resumes from its last resourceVersion; after a compaction it gets 410 and relists": "%d. Watch：informer 从上次的 resourceVersion 续传；etcd 压缩之后得到 410，只能重新 list",
		"%d. Nothing else: the Deployment was stored, but no controller runs in this scenario, so no Pods exist":   "%d. 到此为止：Deployment 已经存进 etcd，但这个场景里没有控制器在运行，所以没有 Pod",
	} {
		narrate.ZH[en] = zh
	}
}
