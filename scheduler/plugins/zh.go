// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package plugins

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"preempt for %s/%s (priority %d): evict %s on %s, then nominate %s":                                     "为 %s/%s（优先级 %d）抢占：驱逐 %s（在 %s 上），然后提名 %s",
	"could not clear nominatedNodeName of %s/%s: %v":                                                        "无法清除 %s/%s 的 nominatedNodeName：%v",
	"preempt for %s: %d candidate nodes; PodDisruptionBudget violations %s -> %s (the fewest)":              "为 %s 抢占：%d 个候选节点；违反 PodDisruptionBudget 的数量 %s -> 选中 %s（最少）",
	"preempt for %s: %d candidate nodes; priority of the most important victim %s -> %s (the lowest)":       "为 %s 抢占：%d 个候选节点；最重要牺牲者的优先级 %s -> 选中 %s（最低）",
	"preempt for %s: %d candidate nodes; sum of victim priorities (each plus 2^31) %s -> %s (the smallest)": "为 %s 抢占：%d 个候选节点；牺牲者优先级之和（每个加 2^31）%s -> 选中 %s（最小）",
	"preempt for %s: %d candidate nodes; victims %s -> %s (the fewest)":                                     "为 %s 抢占：%d 个候选节点；牺牲者数量 %s -> 选中 %s（最少）",
	"preempt for %s: %d candidate nodes; the most important victims started last -> %s":                     "为 %s 抢占：%d 个候选节点；最重要的牺牲者启动得最晚 -> 选中 %s",
	"preempt for %s: %d candidate nodes, equal on every criterion -> %s (the first by name)":                "为 %s 抢占：%d 个候选节点，各项标准都相同 -> 选中 %s（按名字排第一）",
	"preempt for %s: no candidate node keeps every PodDisruptionBudget; preempting anyway %s":               "为 %s 抢占：没有哪个候选节点能守住所有 PodDisruptionBudget；仍然抢占 %s",
}
