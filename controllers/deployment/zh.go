// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package deployment

import (
	"kubesim/controllers/internal"
	"kubesim/trace"
)

// ZH translates this package's trace formats into Chinese, verb for verb, with those of the shared
// work loop (internal.Loop) that records its retries.
var ZH = trace.Merge(internal.ZH, trace.Catalog{
	"reconcile %s: invalid selector: %v":                                                                                                    "调谐 %s：selector 无效：%v",
	"watch ADDED deployments/%s -> queue %q":                                                                                                "watch 到新增 deployments/%s -> 入队 %q",
	"watch MODIFIED deployments/%s -> queue %q":                                                                                             "watch 到变更 deployments/%s -> 入队 %q",
	"watch DELETED deployments/%s -> queue %q":                                                                                              "watch 到删除 deployments/%s -> 入队 %q",
	"watch ADDED replicasets/%s of Deployment %s -> queue %q":                                                                               "watch 到新增 replicasets/%s（属于 Deployment %s）-> 入队 %q",
	"watch MODIFIED replicasets/%s of Deployment %s -> queue %q":                                                                            "watch 到变更 replicasets/%s（属于 Deployment %s）-> 入队 %q",
	"watch DELETED replicasets/%s of Deployment %s -> queue %q":                                                                             "watch 到删除 replicasets/%s（属于 Deployment %s）-> 入队 %q",
	"watch replicasets/%s, an orphan matching Deployment %s -> queue %q":                                                                    "watch 到 replicasets/%s，一个与 Deployment %s 的 selector 匹配的孤儿 ReplicaSet -> 入队 %q",
	"watch DELETED pods/%s, the last pod of Recreate Deployment %s -> queue %q":                                                             "watch 到删除 pods/%s，Recreate 策略的 Deployment %s 的最后一个 Pod -> 入队 %q",
	"reconcile %s: the Deployment is gone":                                                                                                  "调谐 %s：Deployment 已不存在",
	"reconcile %s: %s, %d replicas, %d ReplicaSets":                                                                                         "调谐 %s：策略 %s，%d 个副本，%d 个 ReplicaSet",
	"reconcile %s: paused -> no rollout; only scaling applies":                                                                              "调谐 %s：已暂停（paused）-> 不做滚动发布，只处理扩缩容",
	"reconcile %s: rollout not complete -> look again in %s (progress deadline)":                                                            "调谐 %s：发布尚未完成 -> %s 后再检查（progress deadline）",
	"adopt ReplicaSet %s: an orphan whose labels match selector %s -> controller reference to Deployment %s":                                "收养 ReplicaSet %s：它是孤儿且 labels 匹配 selector %s -> 写入指向 Deployment %s 的 controller 引用",
	"release ReplicaSet %s: its labels no longer match selector %s -> controller reference to Deployment %s removed":                        "释放 ReplicaSet %s：它的 labels 不再匹配 selector %s -> 去掉指向 Deployment %s 的 controller 引用",
	"reconcile %s: no ReplicaSet has the current pod template -> create ReplicaSet %s (pod-template-hash %s, revision %s, replicas %d)":     "调谐 %s：没有 ReplicaSet 使用当前的 Pod 模板 -> 创建 ReplicaSet %s（pod-template-hash %s，revision %s，replicas %d）",
	"reconcile %s: ReplicaSet %s has the current pod template again -> revision %s (was %s)":                                                "调谐 %s：ReplicaSet %s 的模板重新成为当前模板 -> revision %s（原为 %s）",
	"reconcile %s: ReplicaSet %s exists with another pod template (hash collision) -> collisionCount %d -> %d":                              "调谐 %s：ReplicaSet %s 已存在但模板不同（哈希冲突）-> collisionCount %d -> %d",
	"scale %s: spec.replicas is %d -> scale ReplicaSet %s from %d to %d":                                                                    "扩缩容 %s：spec.replicas 为 %d -> 把 ReplicaSet %s 从 %d 调整到 %d",
	"scale %s: new ReplicaSet %s has all %d pods available -> scale old ReplicaSet %s from %d to 0":                                         "扩缩容 %s：新 ReplicaSet %s 的 %d 个 Pod 均已可用 -> 把旧 ReplicaSet %s 从 %d 缩到 0",
	"scale %s: spec.replicas is %d during a rollout -> scale ReplicaSet %s from %d to %d (in proportion, at most %d pods)":                  "扩缩容 %s：发布进行中 spec.replicas 变为 %d -> 把 ReplicaSet %s 从 %d 按比例调整到 %d（总数最多 %d 个 Pod）",
	"rolling update %s: new ReplicaSet %s has more than spec.replicas -> scale it down from %d to %d":                                       "滚动更新 %s：新 ReplicaSet %s 超过了 spec.replicas -> 从 %d 缩到 %d",
	"rolling update %s: scale up new ReplicaSet %s from %d to %d (the ReplicaSets may run %d pods: replicas %d + maxSurge %d; they had %d)": "滚动更新 %s：把新 ReplicaSet %s 从 %d 扩到 %d（所有 ReplicaSet 合计最多 %d 个 Pod：replicas %d + maxSurge %d；原有 %d 个）",
	"rolling update %s: scale down old ReplicaSet %s from %d to %d (%d of its pods are not available: removing them costs no availability)": "滚动更新 %s：把旧 ReplicaSet %s 从 %d 缩到 %d（它有 %d 个 Pod 不可用：删掉它们不损失可用性）",
	"rolling update %s: scale down old ReplicaSet %s from %d to %d (%d pods available, %d must stay: replicas %d - maxUnavailable %d)":      "滚动更新 %s：把旧 ReplicaSet %s 从 %d 缩到 %d（%d 个 Pod 可用，至少保留 %d 个：replicas %d - maxUnavailable %d）",
	"recreate %s: scale down old ReplicaSet %s from %d to 0 (every old pod goes before a new one comes)":                                    "重建 %s：把旧 ReplicaSet %s 从 %d 缩到 0（先删光旧 Pod，再起新 Pod）",
	"recreate %s: %d pods of old ReplicaSets still exist -> wait until they are gone before starting new ones":                              "重建 %s：旧 ReplicaSet 还有 %d 个 Pod -> 等它们全部消失后再启动新 Pod",
	"recreate %s: the old pods are gone -> scale up new ReplicaSet %s from %d to %d":                                                        "重建 %s：旧 Pod 已全部消失 -> 把新 ReplicaSet %s 从 %d 扩到 %d",
	"revision history %s: delete old ReplicaSet %s (revision %d): %d old ReplicaSets, revisionHistoryLimit %d":                              "历史版本 %s：删除旧 ReplicaSet %s（revision %d）：已有 %d 个旧 ReplicaSet，revisionHistoryLimit 为 %d",
	"status %s: %d replicas, %d updated, %d ready, %d available, %d unavailable; %s":                                                        "更新状态 %s：%d 个副本，%d 个已更新，%d 个就绪，%d 个可用，%d 个不可用；%s",
})
