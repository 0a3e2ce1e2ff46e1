// api_gates.go: api-gates, the apiserver's gates one by one (article 1, section 2.1; article
// 2, section 6.1): one request that passes them all, then requests stopped at each gate with the
// status code and message a real cluster gives.
package scenarios

import (
	"context"
	"strconv"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "api-gates",
		Summary: "one request through every apiserver gate, then requests stopped at each: 401, 403, 422, 409, 404, 410",
		Teaches: `Every request, from kubectl or from a component, passes the same gates in kube-apiserver:
authenticate (who are you? 401 Unauthorized), authorize (may you? RBAC, 403 Forbidden), mutating
admission (defaults and injections), validation (422 Invalid, one cause per field), validating
admission, and finally the write to etcd, where optimistic concurrency answers a stale write with
409 Conflict. Watches resume from a resourceVersion; once etcd has compacted that history the answer
is 410 Gone and the client must list again.

Signs to look for: the defaults admission fills in; "Unauthorized" with nothing written; the exact
Forbidden sentence and "kubectl auth can-i" answering no, then yes after a RoleBinding; 422 causes
naming spec.replicas and the container image; "the object has been modified; please apply your
changes to the latest version and try again"; a dry run that passes every gate and writes nothing;
"too old resource version" and the informer's relist.`,
		SummaryZH: "一个请求穿过 apiserver 的每一道关卡，再看请求分别被各道关卡拦下：401、403、422、409、404、410",
		TeachesZH: `每个请求，无论来自 kubectl 还是来自某个组件，在 kube-apiserver 里都要过同样的几道关：认证（你是谁？
401 Unauthorized）、授权（你能做吗？RBAC，403 Forbidden）、变更型准入控制（填默认值、注入字段）、校
验（422 Invalid，每个字段一条原因）、验证型准入控制，最后是写入 etcd 持久化，这里的乐观并发控制会用
409 Conflict 拒绝基于旧版本的写。watch 从某个 resourceVersion 继续；一旦 etcd 已经压缩掉那段历史，回
答就是 410 Gone，客户端必须重新 list。

要看的信号：准入控制填上的默认值；"Unauthorized"，且什么都没写入；Forbidden 的原话，以及 "kubectl
auth can-i" 先答 no、建了 RoleBinding 之后答 yes；422 的原因里点名 spec.replicas 和容器镜像；"the
object has been modified; please apply your changes to the latest version and try again"；一次 dry
run 通过了所有关卡却什么也没写入；"too old resource version" 以及 informer 的重新 list。`,
		Verbose: true,
		ZH: catalog{
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
		},
		Run: runAPIGates,
	})
}

func runAPIGates(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	s.Step("A request that passes every gate: kubectl apply -f nginx-deployment.yaml")
	objs, err := k.Apply(ctx, []byte(manifests.NginxDeployment))
	s.Expect(err == nil && len(objs) == 1, "the Deployment is created")
	if err != nil {
		return s.Err()
	}
	d := objs[0].(*api.Deployment)
	s.Expect(d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType, "admission defaulted the strategy to RollingUpdate")
	kv, err := s.Store.Get(ctx, "/registry/deployments/default/nginx")
	s.Expect(err == nil && strconv.FormatInt(kv.ModRevision, 10) == d.ResourceVersion,
		"its resourceVersion %s is the etcd revision of /registry/deployments/default/nginx", d.ResourceVersion)

	s.Step("Gate 1, authentication: a kubeconfig with a token the apiserver does not know")
	before := currentRevision(ctx, s)
	_, err = k.WithToken("not-a-real-token", "unknown").Create(ctx, nginxPod("sneaky"))
	s.ExpectError(err, 401, "Unauthorized")
	s.Expect(currentRevision(ctx, s) == before, "nothing was written to etcd")

	s.Step("Gate 1 again: a kubelet whose client certificate has expired")
	s.APIServer.AddCredential(apiserver.Credential{Token: "expired-kubelet-cert",
		User:     apiserver.User{Name: "system:node:node-9", Groups: []string{apiserver.GroupNodes}},
		NotAfter: s.Now().Add(-1)})
	_, err = k.WithToken("expired-kubelet-cert", "system:node:node-9").Get(ctx, "nodes", "", "node-9")
	s.ExpectError(err, 401, "Unauthorized")

	s.Step("Gate 2, authorization: alice has no RoleBinding (RBAC denies by default)")
	alice := k.As("alice")
	_, err = alice.List(ctx, "pods", "default", "")
	s.ExpectError(err, 403, `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"`)
	// The admin asks on alice's behalf: the same question, answered for alice (impersonation).
	asAlice := k.Impersonating("alice")
	s.Expect(!asAlice.CanI("list", "pods", "default"), `kubectl auth can-i list pods --as alice answers no`)

	s.Step("Bind alice to the view ClusterRole in default: reading is allowed, deleting still is not")
	_, err = k.Create(ctx, &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "alice-view", Namespace: "default"},
		RoleRef:  api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []api.Subject{{Kind: "User", Name: "alice", APIGroup: api.RBACGroupName}}})
	s.Expect(err == nil, "RoleBinding alice-view created")
	_, err = alice.List(ctx, "pods", "default", "")
	s.Expect(err == nil, "alice can now list pods in default")
	s.Expect(asAlice.CanI("list", "pods", "default"), "kubectl auth can-i list pods --as alice answers yes")
	err = alice.Delete(ctx, "deployments", "default", "nginx", client.DeleteOptions{})
	s.ExpectError(err, 403, `deployments.apps "nginx" is forbidden: User "alice" cannot delete resource "deployments" in API group "apps" in the namespace "default"`)

	s.Step("Gate 3, admission: NamespaceLifecycle refuses objects in a namespace that does not exist")
	homeless := nginxPod("web")
	homeless.Namespace = "nowhere"
	_, err = k.Create(ctx, homeless)
	s.ExpectError(err, 404, `namespaces "nowhere" not found`)

	s.Step("Gate 4, validation: a bad name, negative replicas and a container without an image")
	before = currentRevision(ctx, s)
	bad := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "Nginx_Web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Ptr(int32(-1)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web"}}}}}}
	_, err = k.Create(ctx, bad)
	s.ExpectError(err, 422, `Deployment.apps "Nginx_Web" is invalid`)
	for _, f := range []string{"metadata.name", "spec.replicas", "spec.template.spec.containers[0].image"} {
		s.Expect(hasCause(err, f), "a cause names %s", f)
	}
	s.Expect(currentRevision(ctx, s) == before, "nothing was written to etcd")

	s.Step("Strict decoding: a typo in a field name is an error, never silently dropped")
	typo := []byte(manifests.Read("typo-pod.yaml"))
	_, err = k.Apply(ctx, typo)
	s.ExpectError(err, 400, `strict decoding error: unknown field "spec.containers[0].imagePullPolcy"`)

	s.Step("Gate 6, persist: two writers update the Deployment from the same resourceVersion")
	first, err1 := k.Get(ctx, "deployments", "default", "nginx")
	second, err2 := k.Get(ctx, "deployments", "default", "nginx")
	if err1 != nil || err2 != nil {
		s.Expect(false, "both writers read the Deployment")
		return s.Err()
	}
	first.(*api.Deployment).Spec.Replicas = api.Ptr(int32(4))
	second.(*api.Deployment).Spec.Replicas = api.Ptr(int32(5))
	_, err = k.Update(ctx, first)
	s.Expect(err == nil, "the first writer's update succeeds")
	_, err = k.Update(ctx, second)
	s.ExpectError(err, 409, `Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again`)
	fresh, err := k.Get(ctx, "deployments", "default", "nginx")
	if err == nil {
		fresh.(*api.Deployment).Spec.Replicas = api.Ptr(int32(5))
		_, err = k.Update(ctx, fresh)
	}
	s.Expect(err == nil, "the second writer reads again, reapplies its change and succeeds")

	s.Step("Creating what exists, reading what does not")
	_, err = k.Apply(ctx, []byte(manifests.NginxDeployment))
	s.Expect(err == nil, "kubectl apply of an existing object updates it")
	_, err = k.Create(ctx, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: d.Spec})
	s.ExpectError(err, 409, `deployments.apps "nginx" already exists`)
	_, err = k.Get(ctx, "pods", "default", "ghost")
	s.ExpectError(err, 404, `pods "ghost" not found`)

	s.Step("Dry run: every gate runs, nothing is stored")
	before = currentRevision(ctx, s)
	_, err = k.CreateDryRun(ctx, nginxPod("dry"))
	s.Expect(err == nil, "the dry run passes every gate")
	s.Expect(currentRevision(ctx, s) == before, "nothing was written to etcd")

	s.Step("Watch: an informer resumes from its last resourceVersion; after a compaction it gets 410 and relists")
	watcher := client.NewInformer[api.Deployment](k.Client(), client.InformerOptions{Namespace: "default", Clock: s.Clock, Trace: s.Trace,
		Name: "kubectl get deployments --watch"})
	if err := watcher.Sync(ctx); err != nil {
		return err
	}
	s.Expect(watcher.Len() == 1, "the informer listed 1 Deployment")
	watcher.Disconnect()
	for _, replicas := range []int32{2, 1} {
		if err := k.Scale(ctx, "deployments", "default", "nginx", replicas); err != nil {
			s.Expect(false, "kubectl scale --replicas=%d: %v", replicas, err)
		}
	}
	now := currentRevision(ctx, s)
	if err := s.APIServer.WaitForRevision(ctx, now); err != nil {
		return err
	}
	if err := s.APIServer.Compact(ctx, now); err != nil {
		return err
	}
	if _, err := watcher.Pump(ctx); err != nil {
		return err
	}
	s.Expect(watcher.Relists() == 1, "the informer's watch got 410 Gone and it relisted once")
	cached, _ := watcher.Get("default/nginx")
	s.Expect(cached != nil && *cached.Spec.Replicas == 1, "after the relist its cache shows replicas 1, as etcd does")
	watcher.Stop()

	s.Step("Nothing else: the Deployment was stored, but no controller runs in this scenario, so no Pods exist")
	pods, err := k.List(ctx, "pods", "default", "")
	s.Expect(err == nil && len(pods) == 0, "kubectl get pods: No resources found in default namespace.")
	return s.Err()
}

func nginxPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "nginx"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
}

func hasCause(err error, field string) bool {
	se, ok := err.(*apierrors.StatusError)
	if !ok || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Field == field {
			return true
		}
	}
	return false
}
