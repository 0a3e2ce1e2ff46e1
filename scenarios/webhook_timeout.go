// webhook_timeout.go: webhook-timeout, a mutating admission webhook (a sidecar injector)
// that hangs. With failurePolicy Fail every pod create waits the webhook's timeoutSeconds, then fails
// with 500 "Internal error occurred: failed calling webhook ...: context deadline exceeded" and
// nothing is written: kubectl run fails, and a Deployment's ReplicaSet cannot create its pods
// ("creating resources hangs"). With failurePolicy Ignore the same wait ends in an admitted pod,
// without the sidecar.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
	"kubesim/trace"
	"kubesim/webhooks"
)

const (
	injectorService = "default/sidecar-injector"
	injectorHook    = "sidecar-injector.example.com"
)

// WebDeploymentYAML is a Deployment of 2 replicas whose pods the sidecar injector intercepts.
var WebDeploymentYAML = manifests.Read("web-deployment.yaml")

func init() {
	register(sim.Scenario{
		Name:    "webhook-timeout",
		Summary: "a mutating webhook (sidecar injector) that hangs: failurePolicy Fail refuses every pod after 10s, Ignore admits without it",
		Teaches: `Admission webhooks let anyone add a gate to kube-apiserver: a MutatingWebhookConfiguration names a
Service, and for every write its rules match the apiserver POSTs an AdmissionReview there and waits
for the answer, at most timeoutSeconds (default 10). A sidecar injector answers every pod create with
a patch that adds its container. When the webhook server hangs, every matching write waits the full
timeout. With failurePolicy Fail (the default) the request then fails with 500 and nothing is
written: kubectl run fails, and a ReplicaSet cannot create its pods, retrying with backoff: to users,
"creating resources hangs". With failurePolicy Ignore the request goes on without the webhook: the
pod is admitted, without its sidecar, after the same wait. Webhook configurations themselves never go
through webhooks, so the broken one can always be changed or deleted.

Signs to look for: the first pod admitted with the sidecar container injected; after the hang, 500
"Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call
webhook: Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline
exceeded" exactly 10 s of cluster time later, nothing written; FailedCreate events on the ReplicaSet
with that message and no pods; after failurePolicy Ignore, pods admitted without the sidecar and the
trace line "...; failurePolicy Ignore: skipped"; after healing, the sidecar again.`,
		SummaryZH: "一个挂住的变更型 webhook（sidecar 注入器）：failurePolicy Fail 在 10s 后拒绝每个 Pod，Ignore 则不带 sidecar 放行",
		TeachesZH: `准入 webhook 让任何人都能给 kube-apiserver 加一道关：MutatingWebhookConfiguration 指向一个 Service，
对于其 rules 匹配的每次写入，apiserver 向那里 POST 一个 AdmissionReview 并等待回答，最多等
timeoutSeconds（默认 10）。sidecar 注入器对每个 Pod 的创建回一个补丁，加上它的容器。webhook 服务器
挂住时，每次匹配的写入都要等满超时。failurePolicy 为 Fail（默认值）时，请求随后以 500 失败，什么也不
写入：kubectl run 失败，ReplicaSet 创建不出 Pod，只能带退避地重试：在用户看来就是“创建资源卡住了”。
failurePolicy 为 Ignore 时，请求跳过这个 webhook 继续：等待同样长的时间后，Pod 被准入，只是没有
sidecar。webhook 配置本身从不经过 webhook，所以坏掉的那个总能被修改或删除。

要看的信号：第一个 Pod 被准入，注入了 sidecar 容器；挂住之后，恰好 10 s 集群时间后得到 500
"Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call
webhook: Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline
exceeded"，什么也没写入；ReplicaSet 上带这条消息的 FailedCreate 事件，没有 Pod；改成 failurePolicy
Ignore 后，Pod 被准入但没有 sidecar，trace 行为 "...; failurePolicy Ignore: skipped"；恢复之后，
sidecar 又回来了。`,
		Cluster:  sim.FullCluster(2),
		StepOnly: true,
		ZH: catalog{
			"%d. Install a sidecar injector: its server behind Service default/sidecar-injector, and a MutatingWebhookConfiguration for pod CREATE (failurePolicy Fail, timeoutSeconds 10)": "%d. 安装 sidecar 注入器：它的服务器在 Service default/sidecar-injector 后面，再建一个拦截 Pod CREATE 的 MutatingWebhookConfiguration（failurePolicy Fail，timeoutSeconds 10）",
			"%d. kubectl run app-1: the apiserver calls the webhook, which injects the sidecar":                                                                                             "%d. kubectl run app-1：apiserver 调用 webhook，webhook 注入 sidecar",
			"%d. The webhook server hangs: it accepts calls and never answers":                                                                                                              "%d. webhook 服务器卡死：接受调用，却永不应答",
			"%d. kubectl run app-2: the apiserver waits the full 10s timeout, then refuses the pod (failurePolicy Fail)":                                                                    "%d. kubectl run app-2：apiserver 等满 10 秒超时，然后拒绝这个 Pod（failurePolicy Fail）",
			"%d. kubectl apply a Deployment web of 2 replicas: its ReplicaSet cannot create a single pod":                                                                                   "%d. kubectl apply 一个 2 副本的 Deployment web：它的 ReplicaSet 一个 Pod 也建不出来",
			"%d. kubectl edit mutatingwebhookconfiguration sidecar-injector: failurePolicy Ignore":                                                                                          "%d. kubectl edit mutatingwebhookconfiguration sidecar-injector：failurePolicy 改为 Ignore",
			"%d. kubectl run app-3: after the same 10s wait the pod is admitted, without the sidecar":                                                                                       "%d. kubectl run app-3：同样等 10 秒后 Pod 被准入，但没有 sidecar",
			"%d. Heal the webhook server: new pods get the sidecar again, at once":                                                                                                          "%d. 修好 webhook 服务器：新 Pod 立刻又有了 sidecar",
			"%s event FailedCreate on the ReplicaSet: Error creating: %s":                                                                                                                   "%s ReplicaSet 上的事件 FailedCreate：Error creating: %s",
			"%s kubectl get pod app-1: containers nginx and sidecar (%s) — injected at admission":                                                                                           "%s kubectl get pod app-1：容器 nginx 和 sidecar（%s）——在准入控制阶段注入",
			"%s kubectl get pod app-3: only container nginx, no sidecar":                                                                                                                    "%s kubectl get pod app-3：只有容器 nginx，没有 sidecar",
			"%s kubectl get pods -l app=web: 2 pods, neither with the sidecar":                                                                                                              "%s kubectl get pods -l app=web：2 个 Pod，都没有 sidecar",
			"%s kubectl get pods -l app=web: no pods (%d)":                                                                                                                                  "%s kubectl get pods -l app=web：没有 Pod（%d）",
			"%s nothing was written: pod app-2 does not exist":                                                                                                                              "%s 什么都没写入：Pod app-2 不存在",
			"%s pod app-1 is created":                  "%s Pod app-1 已创建",
			"%s pod app-3 is created":                  "%s Pod app-3 已创建",
			"%s pod app-4 is created with the sidecar": "%s Pod app-4 已创建，带着 sidecar",
			"%s the configuration is updated although its webhook hangs: webhook configurations never go through webhooks": "%s 尽管 webhook 卡死，配置仍被更新：webhook 配置本身从不经过 webhook",
			"%s the request still took %s: the webhook was called and timed out":                                           "%s 请求仍然用了 %s：webhook 被调用并且超时了",
			"%s the request took %s of cluster time: the webhook's timeoutSeconds":                                         "%s 请求用了 %s 的集群时间：正是 webhook 的 timeoutSeconds",
			"%s the request took %s": "%s 请求用了 %s",
			"%s the trace notes the skipped webhook: \"failed calling webhook ...: context deadline exceeded; failurePolicy Ignore: skipped\"": "%s 跟踪记录了被跳过的 webhook：\"failed calling webhook ...: context deadline exceeded; failurePolicy Ignore: skipped\"",
			"%s webhook %s: failurePolicy %s, timeoutSeconds %d":                                                                               "%s webhook %s：失败策略 failurePolicy %s，超时 timeoutSeconds %d",
		},
		Run: runWebhookTimeout,
	})
}

// injectorConfiguration is the sidecar injector's MutatingWebhookConfiguration: pod creates, in
// every namespace, to https://sidecar-injector.default.svc:443/inject.
func injectorConfiguration() *api.MutatingWebhookConfiguration {
	return &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "sidecar-injector"},
		Webhooks: []api.Webhook{{
			Name: injectorHook,
			ClientConfig: api.WebhookClientConfig{Service: &api.ServiceReference{
				Namespace: "default", Name: "sidecar-injector", Path: api.Ptr("/inject")}},
			Rules: []api.RuleWithOperations{{Operations: []api.OperationType{api.OperationCreate},
				APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}},
			FailurePolicy:           api.Ptr(api.FailurePolicyFail),
			TimeoutSeconds:          api.Ptr(int32(10)),
			SideEffects:             api.Ptr(api.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
		}}}
}

func runWebhookTimeout(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl
	skipped := s.Tap(func(e trace.Event) bool {
		return e.Action == "webhook" && strings.HasSuffix(e.Message, "failurePolicy Ignore: skipped")
	})
	hasSidecar := func(p *api.Pod) bool {
		return p != nil && len(p.Spec.Containers) == 2 && p.Spec.Containers[1].Name == webhooks.SidecarContainer.Name
	}
	timedOut := `Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call webhook: ` +
		`Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline exceeded`

	s.Step("Install a sidecar injector: its server behind Service default/sidecar-injector, and a MutatingWebhookConfiguration for pod CREATE (failurePolicy Fail, timeoutSeconds 10)")
	s.ServeWebhook(injectorService, webhooks.SidecarInjector())
	obj, err := k.Create(ctx, injectorConfiguration())
	if err != nil {
		s.Expect(false, "MutatingWebhookConfiguration sidecar-injector is created: %v", err)
		return s.Err()
	}
	hook := obj.(*api.MutatingWebhookConfiguration).Webhooks[0]
	s.Expect(*hook.FailurePolicy == api.FailurePolicyFail && *hook.TimeoutSeconds == 10,
		"webhook %s: failurePolicy %s, timeoutSeconds %d", hook.Name, *hook.FailurePolicy, *hook.TimeoutSeconds)

	s.Step("kubectl run app-1: the apiserver calls the webhook, which injects the sidecar")
	_, err = k.Create(ctx, nginxPod("app-1"))
	s.Expect(err == nil, "pod app-1 is created")
	p := objectNow[api.Pod](ctx, s, "default", "app-1")
	s.Expect(hasSidecar(p), "kubectl get pod app-1: containers nginx and sidecar (%s) — injected at admission", webhooks.SidecarContainer.Image)

	s.Step("The webhook server hangs: it accepts calls and never answers")
	s.WebhookFault(injectorService, webhooks.Hang)

	s.Step("kubectl run app-2: the apiserver waits the full 10s timeout, then refuses the pod (failurePolicy Fail)")
	before, start := currentRevision(ctx, s), s.Now()
	_, err = k.Create(ctx, nginxPod("app-2"))
	took := s.Now().Sub(start)
	s.ExpectError(err, 500, timedOut)
	s.Expect(took == 10*time.Second, "the request took %s of cluster time: the webhook's timeoutSeconds", took)
	s.Expect(currentRevision(ctx, s) == before && objectNow[api.Pod](ctx, s, "default", "app-2") == nil, "nothing was written: pod app-2 does not exist")

	s.Step("kubectl apply a Deployment web of 2 replicas: its ReplicaSet cannot create a single pod")
	if !apply(ctx, s, WebDeploymentYAML) {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedCreate context deadline exceeded") {
		return s.Err()
	}
	events := objectsNow[api.Event](ctx, s, "default", "")
	failed := sim.FindEvent(events, "FailedCreate", timedOut)
	s.Expect(failed != nil && failed.InvolvedObject.Kind == "ReplicaSet" && failed.Message == "Error creating: "+timedOut,
		"event FailedCreate on the ReplicaSet: Error creating: %s", timedOut)
	pods := objectsNow[api.Pod](ctx, s, "default", "app=web")
	s.Expect(len(pods) == 0, "kubectl get pods -l app=web: no pods (%d)", len(pods))

	s.Step("kubectl edit mutatingwebhookconfiguration sidecar-injector: failurePolicy Ignore")
	current, err := sim.Get[api.MutatingWebhookConfiguration](ctx, s.Cluster, "", "sidecar-injector")
	if err != nil {
		return err
	}
	ignore := api.DeepCopy(current)
	ignore.Webhooks[0].FailurePolicy = api.Ptr(api.FailurePolicyIgnore)
	_, err = k.Update(ctx, ignore)
	s.Expect(err == nil, "the configuration is updated although its webhook hangs: webhook configurations never go through webhooks")

	s.Step("kubectl run app-3: after the same 10s wait the pod is admitted, without the sidecar")
	start = s.Now()
	_, err = k.Create(ctx, nginxPod("app-3"))
	took = s.Now().Sub(start)
	s.Expect(err == nil, "pod app-3 is created")
	s.Expect(took == 10*time.Second, "the request still took %s: the webhook was called and timed out", took)
	p = objectNow[api.Pod](ctx, s, "default", "app-3")
	s.Expect(p != nil && len(p.Spec.Containers) == 1, "kubectl get pod app-3: only container nginx, no sidecar")
	_, noted := sim.FindLine(skipped.Lines(), "", timedOut[len("Internal error occurred: "):])
	s.Expect(noted, `the trace notes the skipped webhook: "failed calling webhook ...: context deadline exceeded; failurePolicy Ignore: skipped"`)
	if !until(ctx, s, 0, "pods -l app=web count 2") {
		return s.Err()
	}
	pods = objectsNow[api.Pod](ctx, s, "default", "app=web")
	s.Expect(len(pods) == 2 && !hasSidecar(pods[0]) && !hasSidecar(pods[1]), "kubectl get pods -l app=web: 2 pods, neither with the sidecar")

	s.Step("Heal the webhook server: new pods get the sidecar again, at once")
	s.WebhookFault(injectorService, webhooks.Healthy)
	start = s.Now()
	_, err = k.Create(ctx, nginxPod("app-4"))
	took = s.Now().Sub(start)
	s.Expect(err == nil && hasSidecar(objectNow[api.Pod](ctx, s, "default", "app-4")), "pod app-4 is created with the sidecar")
	s.Expect(took < time.Second, "the request took %s", took)
	return s.Err()
}
