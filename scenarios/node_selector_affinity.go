// node_selector_affinity.go: node-selector-affinity, steering pods by node labels: a
// nodeSelector and a required node affinity are filters (a node that does not match is out), a
// preferred node affinity is a score (a matching node wins if nothing weighs more). The scheduler is
// asked to explain each decision before it makes it, and then makes it.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/scheduler/plugins"
	"kubesim/sim"
)

// affinityNodes: two SSD nodes in different zones and one HDD node.
var affinityNodes = []sim.NodeSpec{
	{Name: "node-1", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-a", Labels: map[string]string{"disktype": "ssd"}},
	{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-b", Labels: map[string]string{"disktype": "ssd"}},
	{Name: "node-3", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-c", Labels: map[string]string{"disktype": "hdd"}},
}

// dbPodYAML selects SSD nodes with the simplest tool, nodeSelector.
var dbPodYAML = manifests.Read("db-pod.yaml")

// cachePodYAML requires an SSD node and prefers zone-b.
var cachePodYAML = manifests.Read("cache-pod.yaml")

// reportPodYAML only prefers a zone that no node is in.
var reportPodYAML = manifests.Read("report-pod.yaml")

func init() {
	register(sim.Scenario{
		Name:    "node-selector-affinity",
		Summary: "nodeSelector disktype=ssd, required and preferred node affinity: matching nodes pass Filter, preferred ones score higher",
		Teaches: `Three ways to steer a pod by node labels, all checked by the NodeAffinity plugin. spec.nodeSelector
(disktype: ssd) and requiredDuringSchedulingIgnoredDuringExecution are hard: at Filter, a node whose
labels do not match is out, with "node(s) didn't match Pod's node affinity/selector".
preferredDuringSchedulingIgnoredDuringExecution is soft: at Score, each node gets the sum of the
weights of the terms it matches, rescaled so that the best gets 100, times the plugin's weight (2); a
preference nobody matches changes nothing, and the pod is scheduled anyway. Before each decision the
scenario asks the scheduler to explain it (what kubesim explain prints), then lets it decide.

Signs to look for: node-3 (disktype=hdd) failing NodeAffinity for db and cache while node-1 and node-2
pass; for cache, NodeAffinity 80→100 on node-2 (zone-b) and 0→0 on node-1, the winner node-2, and the
pod bound there; report, preferring a zone that does not exist, passing Filter on all 3 nodes and
scheduled.`,
		SummaryZH: "nodeSelector disktype=ssd、必需的和偏好的节点亲和性：匹配的节点通过 Filter，偏好的节点得分更高",
		TeachesZH: `按节点标签引导 Pod 有三种方式，都由 NodeAffinity 插件检查。spec.nodeSelector（disktype: ssd）和
requiredDuringSchedulingIgnoredDuringExecution 是硬性的：在 Filter 阶段，标签不匹配的节点被排除，提
示 "node(s) didn't match Pod's node affinity/selector"。
preferredDuringSchedulingIgnoredDuringExecution 是软性的：在 Score 阶段，每个节点得到它所匹配各项的
权重之和，再缩放到最好的得 100，乘以插件的权重（2）；没有节点匹配的偏好什么也不改变，Pod 照样被调
度。每次调度决定之前，场景先请调度器解释它（就是 kubesim explain 打印的内容），然后再让它决定。

要看的信号：node-3（disktype=hdd）对 db 和 cache 的 NodeAffinity 不通过，node-1 和 node-2 通过；对
cache，node-2（zone-b）上 NodeAffinity 80→100，node-1 上 0→0，胜出的是 node-2，Pod 绑定到那里；
report 偏好一个不存在的 zone，在全部 3 个节点上通过 Filter，并被调度。`,
		Cluster: sim.Config{ControllerManager: true, NodeSpecs: affinityNodes},
		ZH: catalog{
			"%d. kubectl apply -f db.yaml: nodeSelector disktype=ssd; the scheduler explains, then decides":       "%d. kubectl apply -f db.yaml：nodeSelector disktype=ssd；调度器先解释，再决定",
			"%d. kubectl apply -f cache.yaml: requires disktype In [ssd], prefers zone-b (weight 80)":             "%d. kubectl apply -f cache.yaml：必须 disktype In [ssd]，偏好 zone-b（weight 80）",
			"%d. kubectl apply -f report.yaml: prefers zone-x, where no node is: a preference, not a requirement": "%d. kubectl apply -f report.yaml：偏好没有任何节点的 zone-x：这是偏好，不是要求",
			"%s NodeAffinity scores 0 on every node: nobody matches, so the preference decides nothing":           "%s NodeAffinity 在每个节点上都是 0 分：没有节点匹配，这个偏好什么也决定不了",
			"%s Score NodeAffinity: node-2 (zone-b) %d→%d, node-1 %d→%d, each times weight %d":                    "%s Score NodeAffinity：node-2（zone-b）%d→%d，node-1 %d→%d，各乘以权重 %d",
			"%s all 3 nodes pass Filter: preferences are never filters":                                           "%s 3 个节点都通过 Filter：偏好从来不是过滤条件",
			"%s node-1 and node-2 (disktype=ssd) pass Filter: %d of 3 nodes feasible":                             "%s node-1 和 node-2（disktype=ssd）通过 Filter：3 个节点中 %d 个可行",
			"%s node-3 (disktype=hdd) fails Filter NodeAffinity: %s":                                              "%s node-3（disktype=hdd）没有通过 Filter NodeAffinity：%s",
			"%s pod db is bound to %s, an SSD node":                                                               "%s Pod db 绑定到 %s，一个 SSD 节点",
			"%s pod report is scheduled and Running on %s":                                                        "%s Pod report 已调度，在 %s 上 Running",
			"%s the explanation's winner is node-2 (totals: node-1 %d, node-2 %d)":                                "%s 解释中的胜者是 node-2（总分：node-1 %d，node-2 %d）",
			"%s the required affinity filters node-3 out":                                                         "%s 必需的亲和性把 node-3 过滤掉了",
			"%s the scheduler binds cache to node-2, as explained":                                                "%s 调度器如解释所说，把 cache 绑定到 node-2",
		},
		Run: runNodeSelectorAffinity,
	})
}

func runNodeSelectorAffinity(ctx context.Context, s *sim.Session) error {
	sched := schedStartScheduler(ctx, s)
	if sched == nil {
		return s.Err()
	}

	s.Step("kubectl apply -f db.yaml: nodeSelector disktype=ssd; the scheduler explains, then decides")
	db := schedApplyAndExplain(ctx, s, sched, dbPodYAML)
	if db == nil {
		return s.Err()
	}
	hdd := schedNodeVerdict(db, "node-3")
	s.Expect(hdd != nil && !hdd.Feasible && hdd.RejectedBy == plugins.NodeAffinityName && hdd.Reason == plugins.ErrReasonPod,
		"node-3 (disktype=hdd) fails Filter NodeAffinity: %s", plugins.ErrReasonPod)
	s.Expect(db.Feasible == 2, "node-1 and node-2 (disktype=ssd) pass Filter: %d of 3 nodes feasible", db.Feasible)
	if !until(ctx, s, 0, "pod db bound") {
		return s.Err()
	}
	node := objectNow[api.Pod](ctx, s, "default", "db").Spec.NodeName
	s.Expect(node == "node-1" || node == "node-2", "pod db is bound to %s, an SSD node", node)

	s.Step("kubectl apply -f cache.yaml: requires disktype In [ssd], prefers zone-b (weight 80)")
	cache := schedApplyAndExplain(ctx, s, sched, cachePodYAML)
	if cache == nil {
		return s.Err()
	}
	hdd = schedNodeVerdict(cache, "node-3")
	s.Expect(hdd != nil && !hdd.Feasible && hdd.RejectedBy == plugins.NodeAffinityName, "the required affinity filters node-3 out")
	preferred, ok1 := schedPluginScore(cache, "node-2", plugins.NodeAffinityName)
	other, ok2 := schedPluginScore(cache, "node-1", plugins.NodeAffinityName)
	s.Expect(ok1 && ok2 && preferred.Raw == 80 && preferred.Score == 100 && other.Raw == 0 && other.Score == 0,
		"Score NodeAffinity: node-2 (zone-b) %d→%d, node-1 %d→%d, each times weight %d", preferred.Raw, preferred.Score, other.Raw, other.Score, preferred.Weight)
	s.Expect(cache.Winner == "node-2" && len(cache.TiedWith) == 0, "the explanation's winner is node-2 (totals: node-1 %d, node-2 %d)",
		schedNodeVerdict(cache, "node-1").Total, schedNodeVerdict(cache, "node-2").Total)
	if !until(ctx, s, 0, "pod cache bound") {
		return s.Err()
	}
	s.Expect(objectNow[api.Pod](ctx, s, "default", "cache").Spec.NodeName == "node-2", "the scheduler binds cache to node-2, as explained")

	s.Step("kubectl apply -f report.yaml: prefers zone-x, where no node is: a preference, not a requirement")
	report := schedApplyAndExplain(ctx, s, sched, reportPodYAML)
	if report == nil {
		return s.Err()
	}
	s.Expect(report.Feasible == 3, "all 3 nodes pass Filter: preferences are never filters")
	zero := true
	for _, n := range s.NodeNames() {
		if ps, ok := schedPluginScore(report, n, plugins.NodeAffinityName); !ok || ps.Score != 0 {
			zero = false
		}
	}
	s.Expect(zero, "NodeAffinity scores 0 on every node: nobody matches, so the preference decides nothing")
	if until(ctx, s, 0, "pod report running") {
		s.Expect(true, "pod report is scheduled and Running on %s", objectNow[api.Pod](ctx, s, "default", "report").Spec.NodeName)
	}
	return s.Err()
}
