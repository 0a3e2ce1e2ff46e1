// explain.go: explain, the scheduler showing its work (what `kubesim explain` prints): for a
// pod, every node's verdict from every Filter plugin with its reason, then for the nodes that pass,
// every Score plugin's raw and normalised score, the weights, the totals and the winner. The scenario
// checks the explanation against itself (the totals add up) and against what the scheduler then does.
package scenarios

import (
	"context"
	"strings"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/scheduler"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
	"kubesim/sim"
)

// explainNodes: a tainted control-plane node, a small node, an SSD node and a plain one.
var explainNodes = []sim.NodeSpec{
	{Name: "control-plane", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-a",
		Labels: map[string]string{api.LabelNodeRoleControlPlane: ""},
		Taints: []api.Taint{{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}}},
	{Name: "node-1", CPU: "2", Memory: "4Gi", Pods: 110, Zone: "zone-a"},
	{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-b", Labels: map[string]string{"disktype": "ssd"}},
	{Name: "node-3", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-c"},
}

// explainWebYAML needs 1 CPU and prefers SSD nodes.
var explainWebYAML = manifests.Read("explain-web.yaml")

// explainHugeYAML fits nowhere.
var explainHugeYAML = manifests.Read("explain-huge.yaml")

func init() {
	register(sim.Scenario{
		Name:    "explain",
		Summary: "the scheduler explains a decision: each node's verdict from each filter, each score raw and normalised, the totals, the winner",
		Teaches: `A scheduling cycle has two phases. Filter: every Filter plugin looks at every node, and a node that
any plugin rejects is out (TaintToleration: an untolerated taint; NodeResourcesFit: not enough
Allocatable left; NodeAffinity; NodePorts; ...). Score: every Score plugin gives each remaining node a
raw score, NormalizeScore maps it onto 0-100, the plugin's weight multiplies it (TaintToleration 3,
NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesFit 1,
NodeResourcesBalancedAllocation 1, ImageLocality 1), and the node with the highest total wins (a
seeded coin among equals). The scheduler's explanation (kubesim explain) shows it all without binding
anything; here it is printed before the scheduler decides, and then the scheduler decides the same.

Signs to look for: control-plane failing TaintToleration ("node(s) had untolerated taint
{node-role.kubernetes.io/control-plane: }"), node-1 failing NodeResourcesFit ("Insufficient cpu"),
node-2 and node-3 passing every filter; the score table with NodeAffinity 50→100 on node-2 (SSD) and
NodeResourcesFit preferring the emptier node-3, totals that are the sum of score × weight, the winner
node-2 (the affinity outweighs the resources), and the pod bound to it; for a pod that fits nowhere, the explanation's message equal
to the FailedScheduling event's "0/4 nodes are available: ..."`,
		SummaryZH: "调度器解释一次决定：每个过滤器对每个节点的判定、每项得分的原始值和归一化值、总分、胜者",
		TeachesZH: `一个调度周期有两个阶段。Filter：每个 Filter 插件查看每个节点，任何一个插件拒绝的节点就出局
（TaintToleration：有不被容忍的污点；NodeResourcesFit：剩余的 Allocatable 不够；NodeAffinity；
NodePorts；……）。Score：每个 Score 插件给剩下的每个节点一个原始分，NormalizeScore 把它映射到 0-100，
再乘以插件的权重（TaintToleration 3、NodeAffinity 2、PodTopologySpread 2、InterPodAffinity 2、
NodeResourcesFit 1、NodeResourcesBalancedAllocation 1、ImageLocality 1），总分最高的节点胜出（分数相
同时按种子抛硬币）。调度器的解释（kubesim explain）把这一切展示出来，但不绑定任何东西；这里先在调度
器决定之前打印它，然后调度器做出同样的决定。

要看的信号：control-plane 没通过 TaintToleration（"node(s) had untolerated taint
{node-role.kubernetes.io/control-plane: }"），node-1 没通过 NodeResourcesFit（"Insufficient cpu"），
node-2 和 node-3 通过所有过滤器；得分表里 node-2（SSD）的 NodeAffinity 50→100，NodeResourcesFit 偏好
更空的 node-3，总分是各项得分 × 权重之和，胜者 node-2（亲和性压过了资源），Pod 绑定到它；对一个哪儿
都放不下的 Pod，解释的消息与 FailedScheduling 事件的 "0/4 nodes are available: ..." 一致。`,
		Cluster: sim.Config{ControllerManager: true, NodeSpecs: explainNodes},
		ZH: catalog{
			"%d. kubectl apply -f setup.yaml: busy takes 1500m of node-1's 2 CPUs, frontend 500m of node-2's":                     "%d. kubectl apply -f setup.yaml：busy 占用 node-1 的 2 个 CPU 中的 1500m，frontend 占用 node-2 的 500m",
			"%d. kubectl apply -f web.yaml (1 CPU, prefers disktype=ssd), and kubesim explain pod default/web":                    "%d. kubectl apply -f web.yaml（1 个 CPU，偏好 disktype=ssd），然后 kubesim explain pod default/web",
			"%d. Now the scheduler runs its cycle for web":                                                                        "%d. 现在调度器为 web 运行它的调度周期",
			"%d. kubectl apply -f huge.yaml (5 CPUs, more than any node has) and kubesim explain pod default/huge":                "%d. kubectl apply -f huge.yaml（5 个 CPU，比任何节点都多），然后 kubesim explain pod default/huge",
			"%s %s passes every Filter plugin (or is skipped by those with nothing to check)":                                     "%s %s 通过了每个 Filter 插件（或被无需检查的插件跳过）",
			"%s Score NodeAffinity on node-2 (SSD): raw 50, normalised 100, weight 2":                                             "%s node-2（SSD）上的 Score NodeAffinity：原始分 50，归一化 100，权重 2",
			"%s Score NodeResourcesFit (LeastAllocated) prefers the emptier node-3: %d against %d on node-2, where frontend runs": "%s Score NodeResourcesFit（LeastAllocated）偏向更空的 node-3：%d 对 node-2 的 %d（frontend 运行在 node-2 上）",
			"%s control-plane: Filter TaintToleration %s":                                                                         "%s control-plane 节点：Filter TaintToleration %s",
			"%s each total is Σ normalised × weight: node-2 %d, node-3 %d":                                                        "%s 每个总分 = Σ 归一化分 × 权重：node-2 %d，node-3 %d",
			"%s every node has a verdict from each of the %d Filter plugins, not just the first rejection":                        "%s 每个节点都有全部 %d 个 Filter 插件的结论，而不只是第一个拒绝",
			"%s it counts the 4 nodes": "%s 它统计了 4 个节点",
			"%s no node passes Filter, so nothing is scored and there is no winner":        "%s 没有节点通过 Filter，所以不打分，也没有胜者",
			"%s node-1: Filter NodeResourcesFit Insufficient cpu (500m left, 1 CPU asked)": "%s node-1：Filter NodeResourcesFit Insufficient cpu（剩 500m，要 1 个 CPU）",
			"%s pod web is bound to %s, the explanation's winner":                          "%s Pod web 绑定到 %s，正是解释中的胜者",
			"%s the explanation's message is the FailedScheduling event's: %s":             "%s 解释中的消息就是 FailedScheduling 事件的消息：%s",
			"%s the winner: node-2": "%s 胜者：node-2",
		},
		Run: runExplain,
	})
}

func runExplain(ctx context.Context, s *sim.Session) error {
	sched := schedStartScheduler(ctx, s)
	if sched == nil {
		return s.Err()
	}

	s.Step("kubectl apply -f setup.yaml: busy takes 1500m of node-1's 2 CPUs, frontend 500m of node-2's")
	if !applyFile(ctx, s, "explain-setup.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod busy running") || !until(ctx, s, 0, "pod frontend running") {
		return s.Err()
	}

	s.Step("kubectl apply -f web.yaml (1 CPU, prefers disktype=ssd), and kubesim explain pod default/web")
	ex := schedApplyAndExplain(ctx, s, sched, explainWebYAML)
	if ex == nil {
		return s.Err()
	}
	cp, small := schedNodeVerdict(ex, "control-plane"), schedNodeVerdict(ex, "node-1")
	const cpTaint = "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"
	s.Expect(schedVerdict(cp, plugins.TaintTolerationName, framework.UnschedulableAndUnresolvable, cpTaint),
		"control-plane: Filter TaintToleration %s", cpTaint)
	s.Expect(schedVerdict(small, plugins.NodeResourcesFitName, framework.Unschedulable, "Insufficient cpu"),
		"node-1: Filter NodeResourcesFit Insufficient cpu (500m left, 1 CPU asked)")
	s.Expect(cp != nil && small != nil && len(cp.Filters) == len(small.Filters) && len(cp.Filters) > 1,
		"every node has a verdict from each of the %d Filter plugins, not just the first rejection", len(cp.Filters))
	for _, n := range []string{"node-2", "node-3"} {
		ne := schedNodeVerdict(ex, n)
		passed := ne != nil && ne.Feasible
		for _, v := range ne.Filters {
			passed = passed && (v.Code == framework.Success.String() || v.Code == framework.Skip.String())
		}
		s.Expect(passed, "%s passes every Filter plugin (or is skipped by those with nothing to check)", n)
	}
	affinity, _ := schedPluginScore(ex, "node-2", plugins.NodeAffinityName)
	s.Expect(affinity.Raw == 50 && affinity.Score == 100 && affinity.Weight == 2, "Score NodeAffinity on node-2 (SSD): raw 50, normalised 100, weight 2")
	busier, _ := schedPluginScore(ex, "node-2", plugins.NodeResourcesFitName)
	emptier, _ := schedPluginScore(ex, "node-3", plugins.NodeResourcesFitName)
	s.Expect(emptier.Score > busier.Score, "Score NodeResourcesFit (LeastAllocated) prefers the emptier node-3: %d against %d on node-2, where frontend runs",
		emptier.Score, busier.Score)
	sums := true
	for _, n := range []string{"node-2", "node-3"} {
		ne := schedNodeVerdict(ex, n)
		var total int64
		for _, ps := range ne.Scores {
			total += ps.Score * ps.Weight
			sums = sums && ps.Weighted == ps.Score*ps.Weight
		}
		sums = sums && total == ne.Total
	}
	s.Expect(sums, "each total is Σ normalised × weight: node-2 %d, node-3 %d", schedNodeVerdict(ex, "node-2").Total, schedNodeVerdict(ex, "node-3").Total)
	s.Expect(ex.Winner == "node-2" && len(ex.TiedWith) == 0, "the winner: node-2")

	s.Step("Now the scheduler runs its cycle for web")
	if !until(ctx, s, 0, "pod web bound") {
		return s.Err()
	}
	s.Expect(objectNow[api.Pod](ctx, s, "default", "web").Spec.NodeName == ex.Winner, "pod web is bound to %s, the explanation's winner", ex.Winner)

	s.Step("kubectl apply -f huge.yaml (5 CPUs, more than any node has) and kubesim explain pod default/huge")
	huge := schedApplyAndExplain(ctx, s, sched, explainHugeYAML)
	if huge == nil {
		return s.Err()
	}
	s.Expect(huge.Feasible == 0 && huge.Winner == "", "no node passes Filter, so nothing is scored and there is no winner")
	if !until(ctx, s, 0, "event FailedScheduling for pod/huge") {
		return s.Err()
	}
	s.Expect(huge.Message != "" && schedFailedScheduling(ctx, s, "huge", huge.Message),
		"the explanation's message is the FailedScheduling event's: %s", huge.Message)
	s.Expect(strings.HasPrefix(huge.Message, "0/4 nodes are available:"), "it counts the 4 nodes")
	return s.Err()
}

// schedVerdict reports whether a node's explanation has plugin rejecting it with code and reason.
func schedVerdict(ne *scheduler.NodeExplanation, plugin string, code framework.Code, reason string) bool {
	if ne == nil {
		return false
	}
	for _, v := range ne.Filters {
		if v.Plugin == plugin {
			return v.Code == code.String() && v.Reason == reason
		}
	}
	return false
}
