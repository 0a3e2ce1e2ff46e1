// zh.go: the Chinese telling (kubesim run --lang zh) of this package's trace lines, next to the
// format strings they translate. Kubernetes' own terms and messages stay in English, as the articles
// keep them. A test in sim fails when a narrated format has no entry here.
package nodelifecycle

import "kubesim/trace"

// ZH translates this package's trace formats into Chinese, verb for verb.
var ZH = trace.Catalog{
	"node %s: no Lease renewal or status for %s (grace period %s): set Ready and the other conditions to Unknown (%s)":     "节点 %s：%s 没有续约 Lease 也没有上报状态（宽限期 %s）：把 Ready 等状况设为 Unknown（%s）",
	"pod %s/%s runs on node %s, which stopped reporting: set its Ready condition to False":                                 "Pod %s/%s 所在的节点 %s 已失联：把它的 Ready 状况设为 False",
	"node %s is not Ready: queue it for the taint %s (zone %q, %g nodes/s)":                                                "节点 %s 未就绪：排队等待加污点 %s（可用区 %q，速率 %g 个节点/秒）",
	"taint node %s with %s: Ready is %s (zone %q, %g nodes/s)":                                                             "给节点 %s 加污点 %s：Ready 为 %s（可用区 %q，速率 %g 个节点/秒）",
	"node %s: replace taint %s with %s":                                                                                    "节点 %s：把污点 %s 换成 %s",
	"node %s is Ready again: remove its NoExecute taints":                                                                  "节点 %s 恢复 Ready：去掉它的 NoExecute 污点",
	"node %s: NoSchedule taints follow its conditions: add %s, remove %s":                                                  "节点 %s：NoSchedule 污点跟随节点状况：添加 %s，去掉 %s",
	"zone %q: %s -> %s (%d of %d nodes not Ready): NoExecute taints at %g nodes/s":                                         "可用区 %q：%s -> %s（%d/%d 个节点未就绪）：NoExecute 污点速率 %g 个节点/秒",
	"Controller detected that all Nodes are not-Ready. Entering master disruption mode: no NoExecute taints, no evictions": "Controller detected that all Nodes are not-Ready. Entering master disruption mode（所有节点都未就绪，多半是控制面自己断网：不加 NoExecute 污点，不驱逐）",
	"Controller detected that some Nodes are Ready. Exiting master disruption mode":                                        "Controller detected that some Nodes are Ready. Exiting master disruption mode（有节点恢复就绪，恢复正常处理）",
	"pod %s does not tolerate the taints %s of node %s: delete it now":                                                     "Pod %s 不容忍污点 %s（节点 %s）：立即删除",
	"pod %s tolerates %s of node %s for %s: deletion scheduled in %s":                                                      "Pod %s 容忍 %s（节点 %s）%s：%s 后删除",
	"cancel the scheduled deletion of pod %s: %s":                                                                          "取消对 Pod %s 的计划删除：%s",
	"taint-based eviction of pod %s from node %s: condition DisruptionTarget (%s), then delete":                            "基于污点驱逐 Pod %s（节点 %s）：先加 DisruptionTarget 状况（%s），再删除",
	"could not update status of node %s: %v (retry at the next pass)":                                                      "无法更新节点 %s 的状态：%v（下一轮再试）",
	"could not update the taints of node %s: %v":                                                                           "无法更新节点 %s 的污点：%v",
	"could not mark pod %s/%s not Ready: %v":                                                                               "无法把 Pod %s/%s 标为未就绪：%v",
	"could not add condition DisruptionTarget to pod %s: %v":                                                               "无法给 Pod %s 加 DisruptionTarget 状况：%v",
	"could not delete pod %s: %v (retry in 10s)":                                                                           "无法删除 Pod %s：%v（10 秒后重试）",
}
