// insufficient_resources.go: insufficient-resources, a pod whose CPU request is larger than
// what any node has left (its Allocatable minus the requests of the pods already there): the
// scheduler's NodeResourcesFit filter rejects every node, the pod stays Pending with Kubernetes'
// message, and it is scheduled the moment another workload scales down and frees the room.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "insufficient-resources",
		StepOnly: true,
		Summary:  "a pod requests more CPU than any node has left: Pending with \"0/3 nodes are available: 3 Insufficient cpu.\", scheduled once room frees",
		Teaches: `The scheduler places pods by their requests, not by what they use: a node fits a pod if the pod's
requests plus the requests of the pods already bound there stay within the node's Allocatable
(capacity minus what the kubelet reserves). Here three batch pods take 3 of each node's 3.9
allocatable CPUs, then a pod asks for 2. NodeResourcesFit rejects all three nodes; preemption finds
no pod of lower priority to evict; the pod stays Pending. Nothing retries in a loop: the pod waits in
the scheduler's unschedulablePods until a cluster event that could help (a pod deleted, a node added)
moves it back to the activeQ. Scaling batch down deletes one of its pods, and the pending pod is
scheduled onto the freed node at once.

Signs to look for: the FailedScheduling event and the PodScheduled=False (Unschedulable) condition
saying "0/3 nodes are available: 3 Insufficient cpu."; the pod in unschedulablePods; after kubectl
scale, the cluster event that moves it to the activeQ, and "Successfully assigned default/big" to the
node the deleted batch pod left, at the same cluster time.`,
		SummaryZH: "一个 Pod 请求的 CPU 比任何节点剩下的都多：Pending，提示 \"0/3 nodes are available: 3 Insufficient cpu.\"，有空间后才被调度",
		TeachesZH: `调度器按 Pod 的 requests 放置 Pod，而不是按它实际用了多少：节点放得下一个 Pod，是指这个 Pod 的
requests 加上已绑定到该节点的 Pod 的 requests 不超过节点的 Allocatable（容量减去 kubelet 预留的部
分）。这里三个 batch Pod 占掉了每个节点 3.9 个可分配 CPU 中的 3 个，然后一个 Pod 要 2 个 CPU。
NodeResourcesFit 把三个节点都过滤掉；抢占找不到优先级更低、可以驱逐的 Pod；这个 Pod 一直 Pending。没
有什么在循环重试：Pod 在调度器的 unschedulablePods 里等着，直到一个可能有帮助的集群事件（删了一个
Pod、加了一个节点）把它移回 activeQ。把 batch 缩容会删掉它的一个 Pod，挂起的 Pod 立刻被调度到腾出来
的节点上。

要看的信号：FailedScheduling 事件和 PodScheduled=False（Unschedulable）状况，内容是 "0/3 nodes are
available: 3 Insufficient cpu."；Pod 在 unschedulablePods 里；kubectl scale 之后，把它移到 activeQ
的集群事件，以及在同一集群时间、指向被删 batch Pod 原来那个节点的 "Successfully assigned
default/big"。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f batch.yaml: 3 pods requesting 3 CPUs each, one per node; they run for 10 seconds": "%d. kubectl apply -f batch.yaml：3 个 Pod，每个 requests 3 个 CPU，每个节点一个；让它们运行 10 秒",
			"%d. kubectl apply -f big.yaml: a pod requesting 2 CPUs":                                                "%d. kubectl apply -f big.yaml：一个 requests 2 个 CPU 的 Pod",
			"%d. A minute later it is still Pending: nothing has changed that could make it fit":                    "%d. 一分钟后它仍是 Pending：没有发生任何能让它放得下的变化",
			"%d. kubectl scale deployment batch --replicas=2: one batch pod goes, and its node has room":            "%d. kubectl scale deployment batch --replicas=2：删掉一个 batch Pod，它所在的节点腾出了空间",
			"%s batch runs one pod per node (%s): each node has 900m CPU left":                                      "%s batch 每个节点运行一个 Pod（%s）：每个节点还剩 900m CPU",
			"%s event Normal Scheduled: Successfully assigned default/big to %s":                                    "%s 事件 Normal Scheduled：Successfully assigned default/big to %s",
			"%s it was scheduled as soon as the room freed (%s after the batch pod was gone)":                       "%s 一腾出空间它就被调度了（batch Pod 消失后 %s）",
			"%s kubectl get pod big: Pending, condition PodScheduled=False (Unschedulable): %s":                     "%s kubectl get pod big：Pending，状况 PodScheduled=False（Unschedulable）：%s",
			"%s kubectl get pod big: Running":                                                                       "%s kubectl get pod big：Running（运行中）",
			"%s pod big is bound to %s, the node the deleted batch pod left":                                        "%s Pod big 绑定到 %s，即被删的 batch Pod 腾出的节点",
			"%s pod big is still Pending, bound to no node":                                                         "%s Pod big 仍是 Pending，没有绑定到任何节点",
		},
		Run: runInsufficientResources,
	})
}

func runInsufficientResources(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f batch.yaml: 3 pods requesting 3 CPUs each, one per node; they run for 10 seconds")
	if !applyFile(ctx, s, "batch-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=batch running") || !until(ctx, s, 0, "pods -l app=batch count 3") {
		return s.Err()
	}
	_, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=batch"))
	s.Expect(placement == "node-1: 1, node-2: 1, node-3: 1", "batch runs one pod per node (%s): each node has 900m CPU left", placement)
	// Let each kubelet's next node status (every 10s, when something changed) report the image it
	// pulled, so that nothing about the nodes changes while the pod below waits.
	if err := s.Driver.Advance(ctx, 10*time.Second); err != nil {
		return err
	}

	s.Step("kubectl apply -f big.yaml: a pod requesting 2 CPUs")
	if !applyFile(ctx, s, "big-pod.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedScheduling for pod/big") {
		return s.Err()
	}
	const insufficient = "0/3 nodes are available: 3 Insufficient cpu."
	s.Expect(schedFailedScheduling(ctx, s, "big", insufficient), "event Warning FailedScheduling: %s", insufficient)
	big := objectNow[api.Pod](ctx, s, "default", "big")
	s.Expect(schedUnschedulable(big, insufficient), "kubectl get pod big: Pending, condition PodScheduled=False (Unschedulable): %s", insufficient)

	s.Step("A minute later it is still Pending: nothing has changed that could make it fit")
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	big = objectNow[api.Pod](ctx, s, "default", "big")
	s.Expect(big != nil && big.Spec.NodeName == "" && big.Status.Phase == api.PodPending, "pod big is still Pending, bound to no node")

	s.Step("kubectl scale deployment batch --replicas=2: one batch pod goes, and its node has room")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "batch", 2); err != nil {
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=batch count 2") {
		return s.Err()
	}
	freedAt := s.Now()
	remaining, _, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=batch"))
	freed := ""
	for _, n := range s.NodeNames() {
		if remaining[n] == 0 {
			freed = n
		}
	}
	if !until(ctx, s, 0, "pod big bound") {
		return s.Err()
	}
	big = objectNow[api.Pod](ctx, s, "default", "big")
	s.Expect(freed != "" && big.Spec.NodeName == freed, "pod big is bound to %s, the node the deleted batch pod left", freed)
	s.Expect(s.Now().Equal(freedAt), "it was scheduled as soon as the room freed (%s after the batch pod was gone)", s.Now().Sub(freedAt))
	s.Expect(len(schedEvents(ctx, s, "Scheduled", "big")) == 1, "event Normal Scheduled: Successfully assigned default/big to %s", freed)
	if until(ctx, s, 0, "pod big running") {
		s.Expect(true, "kubectl get pod big: Running")
	}
	return s.Err()
}
