// zh_webhook.go: the Chinese telling of the webhook-timeout scenario's step headings, the webhook
// faults and the apiserver's webhook trace lines (see sim/zh.go and sim/narrate/zh.go). Kubernetes'
// own terms and messages stay in English.
package sim

import "kubesim/sim/narrate"

func init() {
	for en, zh := range map[string]string{
		"%d. Install a sidecar injector: its server behind Service default/sidecar-injector, and a MutatingWebhookConfiguration for pod CREATE (failurePolicy Fail, timeoutSeconds 10)": "%d. 安装 sidecar 注入器：它的服务器在 Service default/sidecar-injector 后面，再建一个拦截 Pod CREATE 的 MutatingWebhookConfiguration（failurePolicy Fail，timeoutSeconds 10）",
		"%d. kubectl run app-1: the apiserver calls the webhook, which injects the sidecar":                                                                                             "%d. kubectl run app-1：apiserver 调用 webhook，webhook 注入 sidecar",
		"%d. The webhook server hangs: it accepts calls and never answers":                                                                                                              "%d. webhook 服务器卡死：接受调用，却永不应答",
		"%d. kubectl run app-2: the apiserver waits the full 10s timeout, then refuses the pod (failurePolicy Fail)":                                                                    "%d. kubectl run app-2：apiserver 等满 10 秒超时，然后拒绝这个 Pod（failurePolicy Fail）",
		"%d. kubectl apply a Deployment web of 2 replicas: its ReplicaSet cannot create a single pod":                                                                                   "%d. kubectl apply 一个 2 副本的 Deployment web：它的 ReplicaSet 一个 Pod 也建不出来",
		"%d. kubectl edit mutatingwebhookconfiguration sidecar-injector: failurePolicy Ignore":                                                                                          "%d. kubectl edit mutatingwebhookconfiguration sidecar-injector：failurePolicy 改为 Ignore",
		"%d. kubectl run app-3: after the same 10s wait the pod is admitted, without the sidecar":                                                                                       "%d. kubectl run app-3：同样等 10 秒后 Pod 被准入，但没有 sidecar",
		"%d. Heal the webhook server: new pods get the sidecar again, at once":                                                                                                          "%d. 修好 webhook 服务器：新 Pod 立刻又有了 sidecar",
		"webhook service %s %s":                                               "webhook 服务 %s %s",
		"webhook service %s answers again":                                    "webhook 服务 %s 恢复应答",
		"%s: %s webhook %q after %s: allowed (%s)":                            "%s：%s webhook %q 用时 %s：允许（%s）",
		"%s: %s webhook %q after %s: %s":                                      "%s：%s webhook %q 用时 %s：%s",
		"%s: %s webhook %q after %s: %s; failurePolicy Ignore: skipped":       "%s：%s webhook %q 用时 %s：%s；failurePolicy Ignore：跳过",
		"%s: %s webhook %q after %s: %s; failurePolicy Fail: request refused": "%s：%s webhook %q 用时 %s：%s；failurePolicy Fail：请求被拒绝",
	} {
		narrate.ZH[en] = zh
	}
}
