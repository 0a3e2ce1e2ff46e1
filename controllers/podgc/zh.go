// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package podgc

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"%d terminated pods exceed --terminated-pod-gc-threshold=%d: garbage collecting the %d oldest":                                  "已结束的 Pod 有 %d 个，超过 --terminated-pod-gc-threshold=%d：回收最早的 %d 个",
	"found orphaned Pod %s/%s assigned to the Node %s, which no longer exists: mark it Failed (DisruptionTarget, %s) and delete it": "发现孤儿 Pod %s/%s：它所在的节点 %s 已不存在：标为 Failed（DisruptionTarget，%s）并删除",
	"found unscheduled terminating Pod %s/%s not assigned to any Node: delete it":                                                   "发现未调度、正在终止的 Pod %s/%s：删除它",
	"could not mark pod %s/%s Failed: %v": "无法把 Pod %s/%s 标为 Failed：%v",
	"could not delete pod %s/%s: %v":      "无法删除 Pod %s/%s：%v",
}
