// preemption.go: preemption, a high-priority pod on a full cluster. No node fits, so the
// scheduler's PostFilter (DefaultPreemption) looks for a node where evicting pods of lower priority
// would make room, evicts them, nominates the node in the pod's status, and binds the pod there once
// the victims are gone. The victim's ReplicaSet replaces it, and the replacement, of lower priority,
// waits.
package scenarios

import (
	"cmp"
	"context"
	"strings"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// highPriorityClass is what `kubectl create priorityclass high-priority --value=1000000` creates.
var highPriorityClass = &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Value: 1000000,
	Description: "for pods that may evict others to run"}

// urgentPodYAML needs the same 3 CPUs, at high priority.
var urgentPodYAML = manifests.Read("urgent-pod.yaml")

func init() {
	register(sim.Scenario{
		Name:    "preemption",
		Summary: "a high-priority pod on a full cluster: a lower-priority victim is evicted, the pod is nominated, then bound",
		Teaches: `A PriorityClass gives pods a priority (the Priority admission plugin copies its value into
spec.priority); the scheduler's queue takes higher priorities first, and when such a pod fits nowhere,
the DefaultPreemption PostFilter looks for a node where removing pods of lower priority would make it
fit, chooses the node whose victims matter least, marks each victim with the DisruptionTarget
condition and deletes it gracefully ("Preempted by pod <uid> on node <node>"), and writes the node
into the pod's status.nominatedNodeName. The pod is not bound in that cycle: it waits until the
victims are gone, and the room is kept for it. The victim's ReplicaSet creates a replacement, which,
having lower priority, cannot preempt back and stays Pending.

Signs to look for: the PriorityClass; urgent's first attempt failing with "0/3 nodes are available: 3
Insufficient cpu."; the preempt lines (three candidate nodes, equal on every criterion, so the first
by name; preemption-pdb shows one that a PodDisruptionBudget decides) and the Preempted event on one
low pod; urgent's status.nominatedNodeName; urgent bound to that node; the replacement low pod
Pending with "No preemption victims found for incoming pod".`,
		SummaryZH: "满载集群上的一个高优先级 Pod：一个低优先级的牺牲者被驱逐，Pod 被提名，然后绑定",
		TeachesZH: `PriorityClass 给 Pod 一个优先级（Priority 准入插件把它的值拷进 spec.priority）；调度器的队列先取优先
级高的；这样的 Pod 哪儿都放不下时，DefaultPreemption 这个 PostFilter 会找一个节点，在那里移除优先级
更低的 Pod 就能放下它，挑出牺牲者影响最小的节点，给每个牺牲者加上 DisruptionTarget 状况并优雅地删除
它（"Preempted by pod <uid> on node <node>"），再把节点写进 Pod 的 status.nominatedNodeName。这一轮
里 Pod 并不绑定：它等牺牲者消失，空间为它保留着。牺牲者的 ReplicaSet 创建一个替代的 Pod，它的优先级
较低，无法反过来抢占，只能 Pending。

要看的信号：PriorityClass；urgent 第一次尝试失败，提示 "0/3 nodes are available: 3 Insufficient
cpu."；preempt 日志行（三个候选节点各项标准都相同，于是按名字选第一个；preemption-pdb 展示由
PodDisruptionBudget 决定的情形）和某个 low Pod 上的 Preempted 事件；urgent 的
status.nominatedNodeName；urgent 绑定到那个节点；替代的 low Pod Pending，提示 "No preemption
victims found for incoming pod"。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl create priorityclass high-priority --value=1000000":                                   "%d. kubectl create priorityclass high-priority --value=1000000（创建一个高优先级的 PriorityClass）",
			"%d. kubectl apply -f low.yaml: 3 pods of priority 0 take 3 CPUs on each node":                     "%d. kubectl apply -f low.yaml：3 个优先级为 0 的 Pod，在每个节点上各占 3 个 CPU",
			"%d. kubectl apply -f urgent.yaml: 3 CPUs at priority high-priority":                               "%d. kubectl apply -f urgent.yaml：以 high-priority 优先级申请 3 个 CPU",
			"%d. The victim terminates; the room it leaves is kept for urgent, which is bound on the next try": "%d. 牺牲者终止；它腾出的空间为 urgent 保留，urgent 在下一次尝试时被绑定",
			"%d. The ReplicaSet replaces its victim; the replacement has lower priority and waits":             "%d. ReplicaSet 补上被牺牲的 Pod；替补优先级更低，只能等待",
			"%s admission set spec.priority to 1000000 from the PriorityClass":                                 "%s 准入控制根据 PriorityClass 把 spec.priority 设为 1000000",
			"%s event Normal Preempted on %s: Preempted by pod %s on node %s":                                  "%s %s 上的事件 Normal Preempted：Preempted by pod %s on node %s",
			"%s its first attempt: FailedScheduling 0/3 nodes are available: 3 Insufficient cpu.":              "%s 它的第一次尝试：FailedScheduling 0/3 nodes are available: 3 Insufficient cpu.（CPU 不足）",
			"%s kubectl get pod urgent: not yet bound, status.nominatedNodeName %s":                            "%s kubectl get pod urgent：尚未绑定，status.nominatedNodeName 为 %s",
			"%s kubectl get pod urgent: status.nominatedNodeName %s":                                           "%s kubectl get pod urgent：status.nominatedNodeName 为 %s",
			"%s pod urgent is bound to %s, its nominated node":                                                 "%s Pod urgent 绑定到 %s，即它的提名节点",
			"%s the cluster is full: one low pod per node (%s)":                                                "%s 集群满了：每个节点一个 low Pod（%s）",
			"%s the replacement is Pending: %s":                                                                "%s 替补处于 Pending：%s",
			"%s the victim %s is gone":                                                                         "%s 牺牲者 %s 已消失",
		},
		Run: runPreemption,
	})
}

func runPreemption(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl create priorityclass high-priority --value=1000000")
	if _, err := s.Kubectl.Create(ctx, api.DeepCopy(highPriorityClass)); err != nil {
		return s.Err()
	}

	s.Step("kubectl apply -f low.yaml: 3 pods of priority 0 take 3 CPUs on each node")
	if !applyFile(ctx, s, "low-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment low available") {
		return s.Err()
	}
	_, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=low"))
	s.Expect(placement == "node-1: 1, node-2: 1, node-3: 1", "the cluster is full: one low pod per node (%s)", placement)

	s.Step("kubectl apply -f urgent.yaml: 3 CPUs at priority high-priority")
	objs, err := s.Kubectl.Apply(ctx, []byte(urgentPodYAML))
	if err != nil {
		return s.Err()
	}
	urgent := objs[0].(*api.Pod)
	s.Expect(urgent.Spec.Priority != nil && *urgent.Spec.Priority == 1000000, "admission set spec.priority to 1000000 from the PriorityClass")
	if !s.Until(ctx, 0, nominated(ctx, s, "urgent")) {
		return s.Err()
	}
	urgent = objectNow[api.Pod](ctx, s, "default", "urgent")
	node := urgent.Status.NominatedNodeName
	if s.Config.Mode == sim.StepMode {
		s.Expect(node != "" && urgent.Spec.NodeName == "", "kubectl get pod urgent: not yet bound, status.nominatedNodeName %s", node)
	} else { // the moment between nomination and binding may be over by the time anyone looks
		s.Expect(node != "", "kubectl get pod urgent: status.nominatedNodeName %s", cmp.Or(node, "(none)"))
	}
	var preempted []*api.Event
	firstAttempt := func() bool {
		preempted = schedEvents(ctx, s, "Preempted", "")
		return schedFailedScheduling(ctx, s, "urgent", "0/3 nodes are available: 3 Insufficient cpu.") && len(preempted) == 1
	}
	settled(ctx, s, firstAttempt)
	s.Expect(schedFailedScheduling(ctx, s, "urgent", "0/3 nodes are available: 3 Insufficient cpu."),
		"its first attempt: FailedScheduling 0/3 nodes are available: 3 Insufficient cpu.")
	victim := "(none)"
	if len(preempted) == 1 {
		victim = preempted[0].InvolvedObject.Name
	}
	s.Expect(len(preempted) == 1 && preempted[0].Message == "Preempted by pod "+urgent.UID+" on node "+node,
		"event Normal Preempted on %s: Preempted by pod %s on node %s", victim, urgent.UID, node)

	s.Step("The victim terminates; the room it leaves is kept for urgent, which is bound on the next try")
	if !until(ctx, s, 0, "pod urgent bound") {
		return s.Err()
	}
	s.Expect(objectNow[api.Pod](ctx, s, "default", "urgent").Spec.NodeName == node, "pod urgent is bound to %s, its nominated node", node)
	s.Expect(len(preempted) == 1 && objectNow[api.Pod](ctx, s, "default", victim) == nil, "the victim %s is gone", victim)
	if !until(ctx, s, 0, "pod urgent running") {
		return s.Err()
	}

	s.Step("The ReplicaSet replaces its victim; the replacement has lower priority and waits")
	if !until(ctx, s, 0, "pods -l app=low count 3") || !until(ctx, s, 0, "event FailedScheduling for pod/low-*") {
		return s.Err()
	}
	var replacement *api.Pod
	msg := ""
	waitsForRoom := func() bool {
		replacement, msg = nil, ""
		for _, p := range objectsNow[api.Pod](ctx, s, "default", "app=low") {
			if p.Spec.NodeName == "" {
				replacement = p
			}
		}
		if c := schedCondition(replacement); c != nil {
			msg = c.Message
		}
		return replacement != nil && schedUnschedulable(replacement, "0/3 nodes are available: 3 Insufficient cpu.") &&
			strings.Contains(msg, "No preemption victims found for incoming pod")
	}
	s.Expect(settled(ctx, s, waitsForRoom), "the replacement is Pending: %s", cmp.Or(msg, "(no condition yet)"))
	return s.Err()
}

// nominated holds once preemption has nominated a node for the pod (or it is already bound there:
// in real time the moment between the two may be over by the time anyone looks).
func nominated(ctx context.Context, s *sim.Session, pod string) sim.Condition {
	return sim.Check("pod "+pod+" nominated", func() (bool, error) {
		p := objectNow[api.Pod](ctx, s, "default", pod)
		return p != nil && (p.Status.NominatedNodeName != "" || p.Spec.NodeName != ""), nil
	})
}
