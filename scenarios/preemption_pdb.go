// preemption_pdb.go: preemption-pdb, preemption that spares a PodDisruptionBudget when it can. Two
// nodes are full: one runs db (one 3-CPU pod, kept by db-pdb, minAvailable 1), the other two 1500m
// reports pods with no budget. An urgent 3-CPU pod could go to either node; on db's node one victim
// of priority 0 would do, on the other it takes two, yet the scheduler picks the reports node: it
// breaks no budget, and that criterion comes first. A second urgent pod then finds only db's node
// with anything to preempt, and db is preempted anyway: a budget ranks candidates, it does not
// forbid.
package scenarios

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:    "preemption-pdb",
		Summary: "preemption prefers the node whose victims no PodDisruptionBudget protects, even at the cost of more victims; when every choice breaks a budget, it preempts anyway",
		Teaches: `When a pod of high priority fits nowhere, DefaultPreemption looks at every node where deleting pods
of lower priority would make room, and ranks those candidates (pickOneNodeForPreemption): first the
fewest PodDisruptionBudget violations, then the lowest priority of the most important victim, then
the smallest sum of victim priorities (each counted from -2^31, so fewer victims come first), then
the fewest victims, then the latest start. A victim violates a budget when deleting it would take
the budget's status.disruptionsAllowed below zero, counting every victim the budget covers on that
node. Here db's node needs one victim of priority 0 and the reports node two, so without budgets db
would go; db-pdb (minAvailable 1, disruptionsAllowed 0) makes the reports node win. On a node the
scheduler also puts the pods that would break a budget back first, so it keeps as many of them as
it can. But a budget only ranks: the scheduler deletes its victims, it does not ask the Eviction
API (which would answer 429), so when the only candidate breaks a budget the victim goes anyway,
marked DisruptionTarget with reason PreemptionByScheduler, like any victim.

Signs to look for: db-pdb with ALLOWED DISRUPTIONS 0; the preempt line "PodDisruptionBudget
violations ... -> node (the fewest)"; Preempted events on both reports pods and none on db; urgent
bound to the reports node; then urgent-2's preempt line "no candidate node keeps every
PodDisruptionBudget; preempting anyway", db's DisruptionTarget condition and Preempted event, and
urgent-2 bound to db's node.`,
		SummaryZH: "抢占优先选择牺牲者不受 PodDisruptionBudget 保护的节点，哪怕要牺牲更多 Pod；当每个选择都会违反预算时，照样抢占",
		TeachesZH: `高优先级的 Pod 哪儿都放不下时，DefaultPreemption 会查看每一个"删掉一些低优先级 Pod 就能腾出空间"的节点，
并给这些候选节点排序（pickOneNodeForPreemption）：先看违反 PodDisruptionBudget 的数量，越少越好；再看
最重要牺牲者的优先级，越低越好；再看牺牲者优先级之和，越小越好（每个优先级都从 -2^31 起算，所以牺牲者
少的先胜出）；再看牺牲者数量；最后看启动时间，越晚越好。删掉一个牺牲者若会让预算的
status.disruptionsAllowed 低于零，它就违反了这个预算，同一节点上受该预算保护的牺牲者都要累计。这里
db 所在的节点只需一个优先级为 0 的牺牲者，reports 所在的节点需要两个，所以没有预算时被牺牲的会是 db；
db-pdb（minAvailable 1，disruptionsAllowed 0）让 reports 节点胜出。在同一个节点上，调度器也会先把会
违反预算的 Pod 放回去，尽量保住它们。但预算只参与排序：调度器直接删除牺牲者，并不请求 Eviction API
（那会得到 429），所以当唯一的候选节点会违反预算时，牺牲者照样被删除，和别的牺牲者一样带上
DisruptionTarget 状况，reason 为 PreemptionByScheduler。

要看的信号：db-pdb 的 ALLOWED DISRUPTIONS 为 0；preempt 日志行 "PodDisruptionBudget violations ... ->
节点 (the fewest)"；两个 reports Pod 上都有 Preempted 事件，db 上没有；urgent 绑定到 reports 的节点；
然后 urgent-2 的 preempt 日志行 "no candidate node keeps every PodDisruptionBudget; preempting
anyway"，db 的 DisruptionTarget 状况和 Preempted 事件，以及 urgent-2 绑定到 db 的节点。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(2)},
		ZH: catalog{
			"%d. kubectl create priorityclass high-priority --value=1000000":                                              "%d. kubectl create priorityclass high-priority --value=1000000（创建一个高优先级的 PriorityClass）",
			"%d. kubectl apply -f db.yaml: one 3-CPU db pod and PodDisruptionBudget db-pdb (minAvailable 1)":              "%d. kubectl apply -f db.yaml：一个占 3 个 CPU 的 db Pod，以及 PodDisruptionBudget db-pdb（minAvailable 1）",
			"%d. kubectl apply -f reports.yaml: two reports pods of 1500m, no budget":                                     "%d. kubectl apply -f reports.yaml：两个各占 1500m 的 reports Pod，没有预算",
			"%d. kubectl apply -f urgent.yaml: 3 CPUs at priority high-priority; either node could make room":             "%d. kubectl apply -f urgent.yaml：以 high-priority 优先级申请 3 个 CPU；两个节点都能腾出空间",
			"%d. kubectl apply -f urgent-2.yaml: another 3 CPUs at high priority; only db's node has anything to preempt": "%d. kubectl apply -f urgent-2.yaml：再申请 3 个高优先级的 CPU；只有 db 的节点上有可抢占的 Pod",
			"%s kubectl get pdb db-pdb: %s":                                   "%s kubectl get pdb db-pdb（中断预算）：%s",
			"%s the cluster is full: db on %s, both reports pods on %s (%s)":  "%s 集群满了：db 在 %s 上，两个 reports Pod 都在 %s 上（%s）",
			"%s the scheduler chose %s for its budget: %s":                    "%s 调度器因为预算选了 %s：%s",
			"%s event Normal Preempted on both reports pods (%d), none on db": "%s 两个 reports Pod 上都有 Normal Preempted 事件（%d 个），db 上没有",
			"%s pod urgent is bound to %s; db still runs on %s":               "%s Pod urgent 绑定到 %s；db 仍在 %s 上运行",
			"%s the budget did not stop the scheduler: %s":                    "%s 预算没有拦住调度器：%s",
			"%s kubectl get pod %s: DisruptionTarget=True (%s): %s":           "%s kubectl get pod %s：带有 DisruptionTarget=True 状况（%s）：%s",
			"%s kubectl get pod %s: already gone":                             "%s kubectl get pod %s：已经消失",
			"%s event Normal Preempted on %s: Preempted by pod %s on node %s": "%s %s 上的事件 Normal Preempted：Preempted by pod %s on node %s",
			"%s pod urgent-2 is bound to %s, db's node":                       "%s Pod urgent-2 绑定到 %s，即 db 所在的节点",
		},
		Run: runPreemptionPDB,
	})
}

func runPreemptionPDB(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl create priorityclass high-priority --value=1000000")
	if _, err := s.Kubectl.Create(ctx, api.DeepCopy(highPriorityClass)); err != nil {
		return s.Err()
	}

	s.Step("kubectl apply -f db.yaml: one 3-CPU db pod and PodDisruptionBudget db-pdb (minAvailable 1)")
	if !applyFile(ctx, s, "db-with-pdb.yaml") || !until(ctx, s, 0, "deployment db available") {
		return s.Err()
	}
	var pdb *api.PodDisruptionBudget
	settled(ctx, s, func() bool {
		pdb = objectNow[api.PodDisruptionBudget](ctx, s, "default", "db-pdb")
		return pdb != nil && pdb.Status.CurrentHealthy == 1
	})
	st := pdb.Status
	s.Expect(st.CurrentHealthy == 1 && st.DesiredHealthy == 1 && st.DisruptionsAllowed == 0,
		"kubectl get pdb db-pdb: %s", fmt.Sprintf("MIN AVAILABLE 1, ALLOWED DISRUPTIONS %d (expected %d, desired %d, healthy %d)",
			st.DisruptionsAllowed, st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy))

	s.Step("kubectl apply -f reports.yaml: two reports pods of 1500m, no budget")
	if !applyFile(ctx, s, "reports-deployment.yaml") || !until(ctx, s, 0, "deployment reports available") {
		return s.Err()
	}
	dbPods := objectsNow[api.Pod](ctx, s, "default", "app=db")
	reports := objectsNow[api.Pod](ctx, s, "default", "app=reports")
	dbNode, reportsNode := "", ""
	if len(dbPods) == 1 && len(reports) == 2 && reports[0].Spec.NodeName == reports[1].Spec.NodeName {
		dbNode, reportsNode = dbPods[0].Spec.NodeName, reports[0].Spec.NodeName
	}
	_, placement, _ := schedPlacement(append(dbPods, reports...))
	s.Expect(dbNode != "" && reportsNode != "" && dbNode != reportsNode,
		"the cluster is full: db on %s, both reports pods on %s (%s)", cmp.Or(dbNode, "?"), cmp.Or(reportsNode, "?"), placement)

	s.Step("kubectl apply -f urgent.yaml: 3 CPUs at priority high-priority; either node could make room")
	preempts := s.Tap(func(e trace.Event) bool { return e.Action == "preempt" })
	if !apply(ctx, s, urgentPodYAML) || !until(ctx, s, 0, "pod urgent bound") {
		return s.Err()
	}
	why, _ := sim.FindLine(preempts.Lines(), "kube-scheduler", "PodDisruptionBudget violations")
	want := fmt.Sprintf("PodDisruptionBudget violations %s 1, %s 0 -> %s (the fewest)", dbNode, reportsNode, reportsNode)
	if dbNode > reportsNode {
		want = fmt.Sprintf("PodDisruptionBudget violations %s 0, %s 1 -> %s (the fewest)", reportsNode, dbNode, reportsNode)
	}
	s.Expect(strings.Contains(why.Message, want), "the scheduler chose %s for its budget: %s", reportsNode, cmp.Or(why.Message, "(no such line)"))
	var preempted []*api.Event
	onReports := func() bool {
		preempted = schedEvents(ctx, s, "Preempted", "")
		return len(preempted) == 2
	}
	settled(ctx, s, onReports)
	onDB := 0
	for _, e := range preempted {
		if strings.HasPrefix(e.InvolvedObject.Name, "db-") {
			onDB++
		}
	}
	s.Expect(len(preempted) == 2 && onDB == 0, "event Normal Preempted on both reports pods (%d), none on db", len(preempted)-onDB)
	urgent := objectNow[api.Pod](ctx, s, "default", "urgent")
	db := objectNow[api.Pod](ctx, s, "default", dbPods[0].Name)
	s.Expect(urgent.Spec.NodeName == reportsNode && db != nil && db.DeletionTimestamp == nil,
		"pod urgent is bound to %s; db still runs on %s", urgent.Spec.NodeName, dbNode)

	s.Step("kubectl apply -f urgent-2.yaml: another 3 CPUs at high priority; only db's node has anything to preempt")
	preempts.Reset()
	if !applyFile(ctx, s, "urgent-2-pod.yaml") {
		return s.Err()
	}
	if !s.Until(ctx, 0, nominated(ctx, s, "urgent-2")) {
		return s.Err()
	}
	anyway, _ := sim.FindLine(preempts.Lines(), "kube-scheduler", "no candidate node keeps every PodDisruptionBudget")
	s.Expect(strings.Contains(anyway.Message, "default/"+db.Name+" (PodDisruptionBudget db-pdb)"),
		"the budget did not stop the scheduler: %s", cmp.Or(anyway.Message, "(no such line)"))
	victim := objectNow[api.Pod](ctx, s, "default", db.Name)
	var dt api.PodCondition
	if victim != nil {
		if c := api.GetPodCondition(victim, "DisruptionTarget"); c != nil {
			dt = *c
		}
	}
	switch {
	case victim == nil && s.Config.Mode != sim.StepMode: // in real time its kubelet may have finished it already
		s.Expect(true, "kubectl get pod %s: already gone", db.Name)
	default:
		s.Expect(dt.Status == api.ConditionTrue && dt.Reason == "PreemptionByScheduler" && victim.DeletionTimestamp != nil,
			"kubectl get pod %s: DisruptionTarget=True (%s): %s", db.Name, dt.Reason, dt.Message)
	}
	urgent2 := objectNow[api.Pod](ctx, s, "default", "urgent-2")
	var onVictim []*api.Event
	settled(ctx, s, func() bool {
		onVictim = schedEvents(ctx, s, "Preempted", db.Name)
		return len(onVictim) == 1
	})
	msg := "(none)"
	if len(onVictim) == 1 {
		msg = onVictim[0].Message
	}
	s.Expect(msg == "Preempted by pod "+urgent2.UID+" on node "+dbNode,
		"event Normal Preempted on %s: Preempted by pod %s on node %s", db.Name, urgent2.UID, dbNode)
	if !until(ctx, s, 0, "pod urgent-2 bound") {
		return s.Err()
	}
	s.Expect(objectNow[api.Pod](ctx, s, "default", "urgent-2").Spec.NodeName == dbNode, "pod urgent-2 is bound to %s, db's node", dbNode)
	return s.Err()
}
