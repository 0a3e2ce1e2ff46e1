// too_many_pods.go: too-many-pods, a cluster whose nodes each allow only 2 pods (the kubelet's
// --max-pods, which becomes the node's pods capacity and allocatable): CPU and memory are plenty, yet
// a seventh pod fits nowhere. NodeResourcesFit counts pods like any other resource and says "Too many
// pods"; a pod that skips the scheduler (spec.nodeName set) is refused by the kubelet's own admission
// with OutOfpods; freeing one slot lets the pending pod in.
package scenarios

import (
	"context"
	"strings"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	nodes := sim.DefaultNodes(3)
	for i := range nodes {
		nodes[i].Pods = 2
	}
	register(sim.Scenario{
		Name:     "too-many-pods",
		StepOnly: true,
		Summary:  "nodes that allow 2 pods each are full: \"0/3 nodes are available: 3 Too many pods.\", and a pod bound anyway fails with OutOfpods",
		Teaches: `A node does not only run out of CPU and memory: it runs out of pods. The kubelet's --max-pods
(110 by default) becomes the node's "pods" capacity and allocatable, and the scheduler's
NodeResourcesFit counts the pods bound to a node against it like any other resource. Here each node
allows 2 pods; six small web pods fill the cluster although every node still has nearly all its CPU
and memory. A seventh pod is Pending with "0/3 nodes are available: 3 Too many pods." and preemption
finds no pod of lower priority to remove. A pod created with spec.nodeName skips the scheduler, but
not the kubelet: its admission counts again and rejects it (phase Failed, reason OutOfpods), for
the kubelet cannot trust that the pods it is given were checked. Scaling web down frees a slot, and
the pending pod is scheduled at once.

Signs to look for: kubectl get nodes showing pods 2 in capacity; the FailedScheduling event "0/3
nodes are available: 3 Too many pods."; the pinned pod Failed with "Pod was rejected: Node didn't
have enough resource: pods, requested: 1, used: 2, capacity: 2"; after kubectl scale, the pending pod
bound to the node that lost a web pod.`,
		SummaryZH: "每个节点只允许 2 个 Pod，都满了：\"0/3 nodes are available: 3 Too many pods.\"，强行绑定的 Pod 以 OutOfpods 失败",
		TeachesZH: `节点不只会用完 CPU 和内存，还会用完 Pod 数。kubelet 的 --max-pods（默认 110）就是节点的 "pods"
容量和可分配量，调度器的 NodeResourcesFit 像对待其它资源一样，把已绑定到节点的 Pod 数和它比较。这里
每个节点只允许 2 个 Pod；六个小小的 web Pod 就把集群占满了，尽管每个节点的 CPU 和内存几乎都还空着。
第七个 Pod 一直 Pending，提示 "0/3 nodes are available: 3 Too many pods."，抢占也找不到优先级更低、
可以移走的 Pod。设置了 spec.nodeName 的 Pod 会跳过调度器，却跳不过 kubelet：kubelet 的准入再数一
遍，拒绝它（phase Failed，reason OutOfpods），因为 kubelet 不能假设交给它的 Pod 都检查过。把 web
缩容腾出一个名额，挂起的 Pod 立刻被调度。

要看的信号：kubectl get nodes 显示容量 pods 2；FailedScheduling 事件 "0/3 nodes are available: 3 Too
many pods."；被钉住的 Pod 以 "Pod was rejected: Node didn't have enough resource: pods, requested: 1,
used: 2, capacity: 2" 失败；kubectl scale 之后，挂起的 Pod 绑定到少了一个 web Pod 的节点。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: nodes},
		ZH: catalog{
			"%d. kubectl apply -f web.yaml: 6 small pods on 3 nodes that allow 2 pods each":                 "%d. kubectl apply -f web.yaml：6 个小 Pod，3 个节点每个只允许 2 个 Pod",
			"%d. kubectl apply -f extra.yaml: one more small pod":                                           "%d. kubectl apply -f extra.yaml：再来一个小 Pod",
			"%d. kubectl apply -f pinned.yaml: a pod with spec.nodeName: node-1, which no scheduler checks": "%d. kubectl apply -f pinned.yaml：一个设置了 spec.nodeName: node-1 的 Pod，没有调度器检查它",
			"%d. kubectl scale deployment web --replicas=5: one web pod goes, and its node has a free slot": "%d. kubectl scale deployment web --replicas=5：删掉一个 web Pod，它所在的节点空出一个名额",
			"%s every node has pods capacity 2 and allocatable 2":                                           "%s 每个节点的 pods 容量和可分配量都是 2",
			"%s web runs two pods per node (%s); each node has almost all of its CPU and memory left":       "%s web 每个节点运行两个 Pod（%s）；每个节点的 CPU 和内存几乎都还空着",
			"%s kubectl get pod extra: Pending, condition PodScheduled=False (Unschedulable): %s":           "%s kubectl get pod extra：Pending，状况 PodScheduled=False（Unschedulable）：%s",
			"%s kubectl get pod pinned: %s, phase Failed: %s":                                               "%s kubectl get pod pinned：%s，phase Failed（失败）：%s",
			"%s event Warning OutOfpods from kubelet/node-1 about pod pinned":                               "%s 来自 kubelet/node-1 的 Warning OutOfpods 事件，关于 Pod pinned",
			"%s pod extra is bound to %s, the node that lost a web pod":                                     "%s Pod extra 绑定到 %s，即少了一个 web Pod 的节点",
			"%s kubectl get pod extra: Running":                                                             "%s kubectl get pod extra：Running（运行中）",
		},
		Run: runTooManyPods,
	})
}

func runTooManyPods(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f web.yaml: 6 small pods on 3 nodes that allow 2 pods each")
	nodesOK := true
	for _, n := range objectsNow[api.Node](ctx, s, "", "") {
		nodesOK = nodesOK && n.Status.Capacity.Pods().Value() == 2 && n.Status.Allocatable.Pods().Value() == 2
	}
	s.Expect(nodesOK, "every node has pods capacity 2 and allocatable 2")
	if !applyFile(ctx, s, "tiny-nodes-web.yaml") || !until(ctx, s, 0, "pods -l app=web count 6", "pods -l app=web running") {
		return s.Err()
	}
	_, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web"))
	s.Expect(placement == "node-1: 2, node-2: 2, node-3: 2", "web runs two pods per node (%s); each node has almost all of its CPU and memory left", placement)

	s.Step("kubectl apply -f extra.yaml: one more small pod")
	if !applyFile(ctx, s, "extra-pod.yaml") || !until(ctx, s, 0, "event FailedScheduling for pod/extra") {
		return s.Err()
	}
	const tooMany = "0/3 nodes are available: 3 Too many pods."
	s.Expect(schedFailedScheduling(ctx, s, "extra", tooMany), "event Warning FailedScheduling: %s", tooMany)
	s.Expect(schedUnschedulable(objectNow[api.Pod](ctx, s, "default", "extra"), tooMany),
		"kubectl get pod extra: Pending, condition PodScheduled=False (Unschedulable): %s", tooMany)

	s.Step("kubectl apply -f pinned.yaml: a pod with spec.nodeName: node-1, which no scheduler checks")
	if !applyFile(ctx, s, "pinned-pod.yaml") {
		return s.Err()
	}
	var pinned *api.Pod
	if !settled(ctx, s, func() bool {
		pinned = objectNow[api.Pod](ctx, s, "default", "pinned")
		return pinned != nil && pinned.Status.Phase == api.PodFailed
	}) {
		s.Expect(false, "kubectl get pod pinned: %s, phase Failed: %s", "not failed", "")
		return s.Err()
	}
	s.Expect(pinned.Status.Reason == "OutOfpods" && strings.HasSuffix(pinned.Status.Message, "pods, requested: 1, used: 2, capacity: 2"),
		"kubectl get pod pinned: %s, phase Failed: %s", pinned.Status.Reason, pinned.Status.Message)
	s.Expect(len(schedEvents(ctx, s, "OutOfpods", "pinned")) == 1, "event Warning OutOfpods from kubelet/node-1 about pod pinned")

	s.Step("kubectl scale deployment web --replicas=5: one web pod goes, and its node has a free slot")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "web", 5); err != nil {
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=web count 5", "pod extra bound") {
		return s.Err()
	}
	remaining, _, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web"))
	extra := objectNow[api.Pod](ctx, s, "default", "extra")
	s.Expect(extra != nil && remaining[extra.Spec.NodeName] == 1, "pod extra is bound to %s, the node that lost a web pod", extra.Spec.NodeName)
	if until(ctx, s, 0, "pod extra running") {
		s.Expect(true, "kubectl get pod extra: Running")
	}
	return s.Err()
}
