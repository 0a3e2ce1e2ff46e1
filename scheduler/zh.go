// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package scheduler

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"schedule %s: its nominated node %s still fits -> %s":                                   "调度 %s：它的提名节点 %s 仍然放得下 -> %s",
	"schedule %s: %d of %d nodes pass Filter -> %s (the only feasible node: Score skipped)": "调度 %s：%d/%d 个节点通过 Filter -> %s（唯一可行的节点，跳过 Score）",
	"schedule %s: %d of %d nodes pass Filter; Score %s -> %s (tie broken by seed)":          "调度 %s：%d/%d 个节点通过 Filter；Score %s -> 选中 %s（同分，按随机种子选）",
	"schedule %s: %d of %d nodes pass Filter; Score %s -> %s":                               "调度 %s：%d/%d 个节点通过 Filter；Score %s -> 选中 %s",
	"schedule %s: PreFilter rejected the pod -> unschedulable: %s":                          "调度 %s：PreFilter 拒绝了这个 Pod -> 无法调度：%s",
	"schedule %s: 0 of %d nodes pass Filter -> unschedulable: %s":                           "调度 %s：%d 个节点都没有通过 Filter -> 无法调度：%s",
	"schedule %s: error: %s":                           "调度 %s：出错：%s",
	"schedule %s: error: %v":                           "调度 %s：出错：%v",
	"skip %s: it is being deleted":                     "跳过 %s：它正在被删除",
	"  %s: Filter %s rejected it: %s":                  "  %s：被 Filter %s 拒绝：%s",
	"  %s: passed Filter; Score %s":                    "  %s：通过 Filter；Score %s",
	"  %s: passed Filter":                              "  %s：通过 Filter",
	"  ... and %d more nodes (Explain shows them all)": "  ……还有 %d 个节点（Explain 会全部列出）",
	"  percentageOfNodesToScore: evaluated %d of %d nodes, enough to find %d feasible ones": "  percentageOfNodesToScore：只评估了 %d/%d 个节点，已找到足够的 %d 个可行节点",
	"bind %s -> %s": "绑定 %s -> %s",
	"bind %s -> %s failed: %s; the assumed pod is forgotten, the pod retries after a backoff": "绑定 %s -> %s 失败：%s；撤销 assume，退避后重试",
	"status %s: PodScheduled=False reason %s, nominatedNodeName %q":                           "更新 %s 的 status：PodScheduled=False，reason %s，nominatedNodeName %q",
	"could not update %s status: %v":                                                          "无法更新 %s 的 status：%v",
	"requeue %s: %v":                                                                          "重新入队 %s：%v",
	"PostFilter %s for %s failed: %s":                                                         "PostFilter %s 为 %s 运行失败：%s",
}
