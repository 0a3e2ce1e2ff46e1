// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package replicaset

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"watch ADDED replicasets/%s -> queue %q":                                                                                         "watch 到新增 replicasets/%s -> 入队 %q",
	"watch MODIFIED replicasets/%s -> queue %q":                                                                                      "watch 到变更 replicasets/%s -> 入队 %q",
	"watch DELETED replicasets/%s -> forget its expectations":                                                                        "watch 到删除 replicasets/%s -> 清除它的 expectations",
	"watch ADDED pods/%s of ReplicaSet %s -> queue %q (%d more adds expected)":                                                       "watch 到新增 pods/%s（属于 ReplicaSet %s）-> 入队 %q（还在等 %d 个新增）",
	"watch MODIFIED pods/%s of ReplicaSet %s -> queue %q":                                                                            "watch 到变更 pods/%s（属于 ReplicaSet %s）-> 入队 %q",
	"watch %s pods/%s of ReplicaSet %s: going -> queue %q (%d more deletes expected)":                                                "watch 到 %s pods/%s（属于 ReplicaSet %s）：正在删除 -> 入队 %q（还在等 %d 个删除）",
	"watch %s pods/%s, an orphan matching ReplicaSet %s -> queue it":                                                                 "watch 到 %s pods/%s，一个与 ReplicaSet %s 的 selector 匹配的孤儿 Pod -> 入队",
	"reconcile %s: the ReplicaSet is gone; forget its expectations":                                                                  "调谐 %s：ReplicaSet 已不存在；清除它的 expectations",
	"reconcile %s: invalid selector: %v":                                                                                             "调谐 %s：selector 无效：%v",
	"reconcile %s: wants %d, its cache shows %d, but %d adds and %d deletes it made are not in the cache yet -> wait (expectations)": "调谐 %s：期望 %d 个，缓存里看到 %d 个，但它自己发出的 %d 个创建和 %d 个删除还没出现在缓存里 -> 先等待（expectations，防止缓存滞后导致重复创建）",
	"reconcile %s: wants %d, has %d -> create %d pods (expecting %d adds)":                                                           "调谐 %s：期望 %d 个，现有 %d 个 -> 创建 %d 个 Pod（记下 expectations：等待 %d 个新增）",
	"reconcile %s: wants %d, has %d -> delete %d pods (expecting %d deletes): %s":                                                    "调谐 %s：期望 %d 个，现有 %d 个 -> 删除 %d 个 Pod（记下 expectations：等待 %d 个删除）：%s",
	"reconcile %s: wants %d, has %d: nothing to do":                                                                                  "调谐 %s：期望 %d 个，现有 %d 个：无需操作",
	"reconcile %s: slow start stopped at an error after %d of %d creates; %d pods not created (expectations lowered)":                "调谐 %s：slow start 遇到错误而停止，%d/%d 个已创建；%d 个 Pod 未创建（expectations 相应调低）",
	"adopt pod %s: an orphan whose labels match selector %s -> controller reference to ReplicaSet %s":                                "收养 Pod %s：它是孤儿且 labels 匹配 selector %s -> 写入指向 ReplicaSet %s 的 controller 引用",
	"release pod %s: its labels no longer match selector %s -> controller reference to ReplicaSet %s removed":                        "释放 Pod %s：它的 labels 不再匹配 selector %s -> 去掉指向 ReplicaSet %s 的 controller 引用",
	"status %s: replicas %d, fullyLabeledReplicas %d, readyReplicas %d, availableReplicas %d (observedGeneration %d)":                "更新状态 %s：replicas %d，fullyLabeledReplicas %d，readyReplicas %d，availableReplicas %d（observedGeneration %d）",
})
