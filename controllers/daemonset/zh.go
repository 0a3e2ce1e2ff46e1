// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package daemonset

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"reconcile %s: %d nodes; no daemon pod on [%s] -> create %d; [%s] -> delete %d (expecting %d adds, %d deletes)": "调谐 %s：%d 个节点；[%s] 上没有守护 Pod -> 创建 %d 个；[%s] -> 删除 %d 个（期望看到 %d 个新增、%d 个删除）",
	"status: desired %d, current %d, ready %d, available %d, misscheduled %d":                                       "状态：期望 %d，当前 %d，就绪 %d，可用 %d，错放 %d",
})
