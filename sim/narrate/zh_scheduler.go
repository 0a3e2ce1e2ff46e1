// zh_scheduler.go: the Chinese telling of kube-scheduler's trace lines (package scheduler and its
// queue and plugins). Kubernetes' own terms (Pod, Filter, Score, activeQ, backoffQ,
// unschedulablePods, nominatedNodeName, PodScheduled, reasons and messages) stay untranslated.
package narrate

func init() {
	for k, v := range map[string]string{
		// the scheduling cycle
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
		// binding
		"bind %s -> %s": "绑定 %s -> %s",
		"bind %s -> %s failed: %s; the assumed pod is forgotten, the pod retries after a backoff": "绑定 %s -> %s 失败：%s；撤销 assume，退避后重试",
		// failures and status
		"status %s: PodScheduled=False reason %s, nominatedNodeName %q": "更新 %s 的 status：PodScheduled=False，reason %s，nominatedNodeName %q",
		"could not update %s status: %v":                                "无法更新 %s 的 status：%v",
		"requeue %s: %v":                                                "重新入队 %s：%v",
		// preemption
		"preempt for %s/%s (priority %d): evict %s on %s, then nominate %s": "为 %s/%s（优先级 %d）抢占：驱逐 %s（在 %s 上），然后提名 %s",
		"preemption for %s failed: %s":                                      "为 %s 抢占失败：%s",
		"could not clear nominatedNodeName of %s/%s: %v":                    "无法清除 %s/%s 的 nominatedNodeName：%v",
		// the scheduling queue
		"pending pod %s -> activeQ (priority %d)":                                                    "待调度的 Pod %s -> activeQ（优先级 %d）",
		"%s -> unschedulablePods: waits for a cluster event that %v registered, or 5m0s":             "%s -> unschedulablePods：等待 %v 关心的集群事件，最多 5m0s",
		"%s: backoff over -> activeQ":                                                                "%s：退避结束 -> activeQ",
		"%s -> activeQ (after an error)":                                                             "%s -> activeQ（出错之后）",
		"%s -> activeQ (a cluster event arrived during its scheduling cycle)":                        "%s -> activeQ（调度周期中来了集群事件）",
		"%s -> activeQ (the pod was updated)":                                                        "%s -> activeQ（Pod 被更新了）",
		"%s -> activeQ (it has waited 5m0s (podMaxInUnschedulablePodsDuration))":                     "%s -> activeQ（已等了 5m0s（podMaxInUnschedulablePodsDuration））",
		"%s -> activeQ (cluster event %s)":                                                           "%s -> activeQ（集群事件 %s）",
		"%s -> backoffQ for %s, attempt %d (after an error)":                                         "%s -> backoffQ 退避 %s，第 %d 次尝试（出错之后）",
		"%s -> backoffQ for %s, attempt %d (a cluster event arrived during its scheduling cycle)":    "%s -> backoffQ 退避 %s，第 %d 次尝试（调度周期中来了集群事件）",
		"%s -> backoffQ for %s, attempt %d (the pod was updated)":                                    "%s -> backoffQ 退避 %s，第 %d 次尝试（Pod 被更新了）",
		"%s -> backoffQ for %s, attempt %d (it has waited 5m0s (podMaxInUnschedulablePodsDuration))": "%s -> backoffQ 退避 %s，第 %d 次尝试（已等了 5m0s（podMaxInUnschedulablePodsDuration））",
		"%s -> backoffQ for %s, attempt %d (cluster event %s)":                                       "%s -> backoffQ 退避 %s，第 %d 次尝试（集群事件 %s）",
	} {
		ZH[k] = v
	}
}
