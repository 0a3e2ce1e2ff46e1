// zh.go: the Chinese telling of the simulator's own lines (kubectl, the boot, webhook faults) and,
// until the apiserver keeps its own catalogue, of its webhook calls. The narrator translates by format
// string; see sim/narrate/zh.go. Each scenario's lines are in its own file (scenarios/*.go, ZH).
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
		// webhook faults (faults_webhook.go) and the apiserver's webhook calls
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
