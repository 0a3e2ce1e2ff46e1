// zh_controllers.go: the Chinese telling of the garbage collector, namespace, serviceaccount, node
// lifecycle, pod GC and DaemonSet controllers and of leader election. Kubernetes' own terms
// (ownerReferences, finalizer, Lease, taint names, reasons, event messages) stay untranslated.
package narrate

func init() {
	for k, v := range map[string]string{
		// garbage-collector
		"%s is gone: check its dependents %v":                                                                   "%s 已不存在：检查它的依赖对象 %v",
		"delete %s: its owner %s is gone (background propagation)":                                              "删除 %s：它的属主 %s 已不存在（后台级联删除）",
		"delete %s: its owner %s is being deleted in the foreground (propagationPolicy %s)":                     "删除 %s：它的属主 %s 正在前台删除（propagationPolicy %s）",
		"%s: owner %s still exists; remove the ownerReferences to %s":                                           "%s：属主 %s 仍在；去掉指向 %s 的 ownerReferences",
		"orphan the dependents of %s %v: remove their ownerReference, then the orphan finalizer":                "孤立 %s 的依赖对象 %v：先去掉它们的 ownerReference，再去掉 orphan finalizer",
		"%s is deleted in the foreground: waiting for %d dependents with blockOwnerDeletion %v":                 "%s 正在前台删除：等待 %d 个带 blockOwnerDeletion 的依赖对象 %v",
		"no dependent blocks %s any more: remove the foregroundDeletion finalizer, so the apiserver deletes it": "已没有依赖对象阻塞 %s：去掉 foregroundDeletion finalizer，apiserver 随即删除它",
		"reconcile %s failed: %v (retry %d with backoff)":                                                       "调谐 %s 失败：%v（第 %d 次退避重试）",

		// namespace-controller
		"namespace %s is Terminating: deleted %s":                                                           "命名空间 %s 处于 Terminating：删除了 %s",
		"namespace %s still holds %s being deleted: check again in %s":                                      "命名空间 %s 里还有正在删除的 %s：%s 后再查看",
		"namespace %s is empty: remove the finalizer %q (namespaces/finalize), so the apiserver deletes it": "命名空间 %s 已清空：通过 namespaces/finalize 去掉 finalizer %q，apiserver 随即删除它",
		"reconcile namespace %s failed: %v (retry %d with backoff)":                                         "调谐命名空间 %s 失败：%v（第 %d 次退避重试）",

		// serviceaccount-controller
		"namespace %s has no ServiceAccount %q: create it": "命名空间 %s 没有 ServiceAccount %q：创建它",

		// node-lifecycle-controller
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

		// pod-garbage-collector
		"%d terminated pods exceed --terminated-pod-gc-threshold=%d: garbage collecting the %d oldest":                                  "已结束的 Pod 有 %d 个，超过 --terminated-pod-gc-threshold=%d：回收最早的 %d 个",
		"found orphaned Pod %s/%s assigned to the Node %s, which no longer exists: mark it Failed (DisruptionTarget, %s) and delete it": "发现孤儿 Pod %s/%s：它所在的节点 %s 已不存在：标为 Failed（DisruptionTarget，%s）并删除",
		"found unscheduled terminating Pod %s/%s not assigned to any Node: delete it":                                                   "发现未调度、正在终止的 Pod %s/%s：删除它",
		"could not mark pod %s/%s Failed: %v": "无法把 Pod %s/%s 标为 Failed：%v",
		"could not delete pod %s/%s: %v":      "无法删除 Pod %s/%s：%v",

		// daemonset-controller
		"reconcile %s: %d nodes; no daemon pod on [%s] -> create %d; [%s] -> delete %d (expecting %d adds, %d deletes)": "调谐 %s：%d 个节点；[%s] 上没有守护 Pod -> 创建 %d 个；[%s] -> 删除 %d 个（期望看到 %d 个新增、%d 个删除）",
		"status: desired %d, current %d, ready %d, available %d, misscheduled %d":                                       "状态：期望 %d，当前 %d，就绪 %d，可用 %d，错放 %d",
		"reconcile daemonset %s failed: %v (retry %d with backoff)":                                                     "调谐 DaemonSet %s 失败：%v（第 %d 次退避重试）",

		// leader election
		"new leader: %s": "新的 leader：%s",
		"successfully acquired lease %s as %s (created it)":                              "成功获得 Lease %s，身份 %s（新建）",
		"successfully acquired lease %s as %s (it already named us)":                     "成功获得 Lease %s，身份 %s（它本来就记着我们）",
		"successfully acquired lease %s as %s (previous holder %q, leaseTransitions %d)": "成功获得 Lease %s，身份 %s（前任 %q，leaseTransitions %d）",
		"renewed lease %s": "续约 Lease %s",
		"lock %s is held by %s and has not yet expired (last change seen %s ago, leaseDuration %s)":                               "锁 %s 由 %s 持有且未过期（%s 前看到它更新，leaseDuration %s）",
		"failed to renew lease %s: timed out waiting for the condition (last renewed %s ago, renewDeadline %s): %s stops leading": "failed to renew lease %s: timed out waiting for the condition（上次续约在 %s 前，renewDeadline %s）：%s 不再担任 leader",
		"error retrieving resource lock %s: %v":               "读取资源锁 %s 出错：%v",
		"error initially creating leader election record: %v": "首次创建选主记录出错：%v",
		"failed to update lock %s: %v":                        "更新锁 %s 失败：%v",
	} {
		ZH[k] = v
	}
}
