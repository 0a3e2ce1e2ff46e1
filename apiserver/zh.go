// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package apiserver

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"bearer token -> %s":                                      "bearer token 认证通过 -> %s",
	"%s: %s -> 401 Unauthorized":                              "%s：%s -> 401 Unauthorized（认证失败，请求到此为止）",
	"%s -> 403 %s":                                            "%s -> 403（授权失败）%s",
	"%s, impersonating %s -> 403 %s":                          "%s，扮演 %s -> 403（不允许扮演该身份）%s",
	"%s: %s acts as %s, allowed to impersonate it":            "%s：%s 以 %s 的身份行事（它被允许扮演该身份）",
	"admission plugin %s rejected %s: %s":                     "准入插件 %s 拒绝了 %s：%s",
	"%s -> 422 %s":                                            "%s -> 422（校验失败）%s",
	"%s: valid":                                               "%s：字段校验通过",
	"%s -> %d %s":                                             "%s -> 返回 %d %s",
	"put %s -> revision %d":                                   "写入 etcd（持久化）%s -> revision %d",
	"put %s -> revision %d (the write waited %s in etcd)":     "写入 etcd（持久化）%s -> revision %d（这次写入在 etcd 里等了 %s）",
	"delete %s -> revision %d":                                "从 etcd 删除 %s -> revision %d",
	"%s: passed every gate; dry run, nothing written to etcd": "%s：通过了所有关卡；这是 dry run，没有写入 etcd",
	"%s: marked for deletion (deletionTimestamp set, grace %ds, finalizers %v)":                                                    "%s：标记删除（设置 deletionTimestamp，宽限期 %d 秒，finalizers %v）",
	"compacted history up to revision %d: older resourceVersions are gone":                                                         "压缩了 revision %d 之前的历史：更早的 resourceVersion 不复存在",
	"eviction of pod %s/%s allowed (the pod is not running: no disruption budget applies)":                                         "允许驱逐 Pod %s/%s（Pod 没在运行：不受中断预算约束）",
	"eviction of pod %s/%s allowed by PodDisruptionBudget %s (disruptionsAllowed now %d)":                                          "允许驱逐 Pod %s/%s：PodDisruptionBudget %s 放行（disruptionsAllowed 现在是 %d）",
	"eviction of pod %s/%s refused: %v":                                                                                            "拒绝驱逐 Pod %s/%s：%v",
	"eviction of pod %s/%s allowed (no PodDisruptionBudget)":                                                                       "允许驱逐 Pod %s/%s（没有 PodDisruptionBudget）",
	"created %d bootstrap objects: namespaces %v, RBAC roles and bindings for each component, PriorityClasses, Service kubernetes": "创建了 %d 个引导对象：命名空间 %v、各组件的 RBAC 角色与绑定、PriorityClass、Service kubernetes",
	"%s: may %s %s %s? %s (answered, not stored)":                                                                                  "%s：%s 能否 %s %s？%s（授权检查只作答，不写入 etcd）",
	"%s: who am I? %s (answered, not stored)":                                                                                      "%s：我是谁？%s（身份检查只作答，不写入 etcd）",
	// ResourceQuota admission
	"ResourceQuota: %s charged to quota %s/%s: used %s of %s": "ResourceQuota：%s 计入配额 %s/%s：已用 %s，上限 %s",
	// admission webhooks
	"%s: %s webhook %q after %s: allowed (%s)":                            "%s：%s webhook %q 用时 %s：允许（%s）",
	"%s: %s webhook %q after %s: %s":                                      "%s：%s webhook %q 用时 %s：%s",
	"%s: %s webhook %q after %s: %s; failurePolicy Ignore: skipped":       "%s：%s webhook %q 用时 %s：%s；failurePolicy Ignore：跳过",
	"%s: %s webhook %q after %s: %s; failurePolicy Fail: request refused": "%s：%s webhook %q 用时 %s：%s；failurePolicy Fail：请求被拒绝",
}
