// node_join.go: node-join, a fourth machine joins a running cluster (article 1, the
// kubelet's registration; kubeadm join in miniature): its kubelet registers a Node, creates its Lease,
// reports Ready, and from then on the scheduler can place pods there.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "node-join",
		Summary: "a new kubelet starts on a running cluster: registers node-4, Lease, Ready, and receives a pod when the Deployment scales up",
		Teaches: `No controller creates Nodes: a node joins by itself. Its kubelet (with a credential for
system:node:node-4, as kubeadm join provides) creates its own Node object with the machine's capacity,
the allocatable part (capacity minus kube-reserved, system-reserved and the hard eviction threshold;
by default only the threshold, memory.available<100Mi),
labels (hostname, os, arch, zone) and addresses (the node IPAM controller then gives it the next
podCIDR); then a Lease in kube-node-lease that it renews every 10s; then its status with the four
conditions. Ready is False at first: the CNI plugin (Flannel here) has no network config until the node
has its podCIDR, so containerd reports "container runtime network not ready: NetworkReady=false
reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", the node
lifecycle controller taints the node node.kubernetes.io/not-ready:NoSchedule, and no pod-network pod
starts there. A moment after the podCIDR arrives the kubelet reports Ready=True and the taint goes.
Nothing else is announced: the scheduler, which watches Nodes, simply has one more candidate. Existing
pods stay where they are (Kubernetes does not rebalance); the next pod to schedule can land on the new
node, and with the default scoring (least allocated, spread) an empty node is the favourite.

Signs to look for: kubectl describe node node-4 just after it registered: Ready False with the runtime
network message; then kubectl get nodes listing node-4 Ready; its events Starting, NodeHasSufficientMemory,
NodeNotReady, NodeReady; the Lease kube-node-lease/node-4; after kubectl scale deployment nginx --replicas=4, the
new pod "Successfully assigned default/nginx-... to node-4".`,
		SummaryZH: "一个新的 kubelet 在运行中的集群上启动：注册 node-4、Lease、Ready，Deployment 扩容时分到一个 Pod",
		TeachesZH: `没有控制器会创建 Node：节点是自己加入的。它的 kubelet（带着 system:node:node-4 的凭据，kubeadm join
会提供）创建自己的 Node 对象，写上机器的容量、可分配部分（容量减去 kube-reserved、system-reserved 和
硬驱逐阈值；默认只减阈值 memory.available<100Mi）、标签（hostname、os、arch、zone）和地址（随后节点
IPAM 控制器给它分配下一个 podCIDR）；接着在 kube-node-lease 里创建一个每 10s 续约一次的 Lease；然后
写它的状态，包含四个状况。一开始 Ready 是 False：节点还没有 podCIDR 时，CNI 插件（这里是 Flannel）没有网络
配置，containerd 报告 "container runtime network not ready: NetworkReady=false
reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"，节点生命
周期控制器给节点加上 node.kubernetes.io/not-ready:NoSchedule 污点，使用 Pod 网络的 Pod 不会在那里启动。
podCIDR 到达后片刻，kubelet 报告 Ready=True，污点随之移除。此外不会宣告任何事情：调度器 watch 着
Node，只是多了一个候选而已。已有的 Pod 留在原处（Kubernetes 不做再平衡）；下一个要调度的 Pod 可能落
到新节点上，按默认的打分（分配最少、分散），空节点最受青睐。

要看的信号：node-4 刚注册时 kubectl describe node node-4 显示 Ready False 和运行时网络的消息；随后
kubectl get nodes 列出 node-4 为 Ready；它的事件 Starting、NodeHasSufficientMemory、NodeNotReady、
NodeReady；Lease kube-node-lease/node-4；kubectl scale deployment nginx --replicas=4 之后，新 Pod
"Successfully assigned default/nginx-... to node-4"。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply -f nginx-deployment.yaml on the 3-node cluster":                                                                         "%d. 在 3 节点集群上 kubectl apply -f nginx-deployment.yaml",
			"%d. A new machine starts its kubelet: node-4 joins":                                                                                       "%d. 一台新机器启动 kubelet：node-4 加入集群",
			"%d. kubectl scale deployment nginx --replicas=4: the new pod goes to the empty node":                                                      "%d. kubectl scale deployment nginx --replicas=4：新 Pod 被调度到空闲的新节点",
			"%s Lease kube-node-lease/node-4 created: the node's heartbeat, renewed every 10s from now on":                                             "%s Lease kube-node-lease/node-4 已创建：这是节点的心跳，此后每 10 秒续约一次",
			"%s a pod of nginx runs on node-4 and is Ready":                                                                                            "%s 有一个 nginx Pod 运行在 node-4 上并且已就绪",
			"%s allocatable cpu %s, memory %s: capacity 4 and 8Gi minus the 100Mi eviction threshold (the kubelet reserves nothing else by default)":   "%s 可分配 cpu %s、内存 %s：容量 4 和 8Gi，只减去 100Mi 的驱逐阈值（kubelet 默认不再预留别的）",
			"%s event Scheduled: Successfully assigned default/%s to node-4":                                                                           "%s 事件 Scheduled：Successfully assigned default/%s to node-4",
			"%s kubectl describe node node-4: %s: %s":                                                                                                  "%s kubectl describe node node-4 显示：%s：%s",
			"%s kubectl get nodes: %d nodes":                                                                                                           "%s kubectl get nodes：%d 个节点",
			"%s kubectl get nodes: node-4 Ready, joined %s ago":                                                                                        "%s kubectl get nodes：node-4 Ready，%s 前加入",
			"%s no pod moved to node-4: Kubernetes does not rebalance running pods":                                                                    "%s 没有 Pod 挪到 node-4：Kubernetes 不会重新平衡正在运行的 Pod",
			"%s node-4 registered itself: labels kubernetes.io/hostname=node-4, kubernetes.io/arch=amd64; the node IPAM controller gave it podCIDR %s": "%s node-4 自己注册：标签 kubernetes.io/hostname=node-4、kubernetes.io/arch=amd64；节点 IPAM 控制器给它分配了 podCIDR %s",
			"%s kubectl describe node node-4, just registered: Ready %s (%s): %s":                                                                      "%s 刚注册时 kubectl describe node node-4：Ready %s（%s）：%s",
			"%s node-4 untainted: node.kubernetes.io/not-ready:NoSchedule removed once it is Ready":                                                    "%s node-4 的污点已移除：Ready 之后 node.kubernetes.io/not-ready:NoSchedule 被去掉",
		},
		Run: runNodeJoin,
	})
}

func runNodeJoin(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml on the 3-node cluster")
	if !applyFile(ctx, s, "nginx-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 2*time.Minute, "deployment nginx available") {
		return s.Err()
	}

	s.Step("A new machine starts its kubelet: node-4 joins")
	if _, err := s.StartNode(ctx, sim.NodeSpec{Name: "node-4", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-a"}, 4); err != nil {
		s.Expect(false, "node-4's kubelet starts: %v", err)
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("node-4 registered", func() (bool, error) {
		_, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-4")
		return err == nil, nil
	})) {
		return s.Err()
	}
	// Registered before the node IPAM controller has given it a podCIDR: the CNI plugin cannot work yet.
	if joined, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-4"); err == nil {
		ready := nodeCondition(joined, api.NodeReady)
		s.Expect(ready.Status == api.ConditionFalse && ready.Message == networkNotReady,
			"kubectl describe node node-4, just registered: Ready %s (%s): %s", ready.Status, ready.Reason, ready.Message)
	}
	if !until(ctx, s, time.Minute, "node node-4 ready") || !s.Until(ctx, time.Minute, sim.Check("node-4 has a podCIDR", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-4")
		return err == nil && n.Spec.PodCIDR != "", err
	})) {
		return s.Err()
	}
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-4")
	if err != nil {
		return err
	}
	s.Expect(true, "kubectl get nodes: node-4 Ready, joined %s ago", s.Now().Sub(node.CreationTimestamp.Time).Round(time.Second))
	nodes, err := sim.List[api.Node](ctx, s.Cluster, "", "", "")
	s.Expect(err == nil && len(nodes) == 4, "kubectl get nodes: %d nodes", len(nodes))
	s.Expect(node.Labels[api.LabelHostname] == "node-4" && node.Labels[api.LabelArchStable] == "amd64" && node.Spec.PodCIDR == "10.244.3.0/24",
		"node-4 registered itself: labels kubernetes.io/hostname=node-4, kubernetes.io/arch=amd64; the node IPAM controller gave it podCIDR %s", node.Spec.PodCIDR)
	cpu, mem := node.Status.Allocatable[resource.ResourceCPU], node.Status.Allocatable[resource.ResourceMemory]
	s.Expect(cpu.String() == "4" && mem.String() == "8092Mi",
		"allocatable cpu %s, memory %s: capacity 4 and 8Gi minus the 100Mi eviction threshold (the kubelet reserves nothing else by default)", cpu.String(), mem.String())
	if !s.Until(ctx, 10*time.Second, sim.Check("Lease kube-node-lease/node-4 created", func() (bool, error) {
		_, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-4")
		return err == nil, nil
	})) {
		return s.Err()
	}
	s.Expect(true, "Lease kube-node-lease/node-4 created: the node's heartbeat, renewed every 10s from now on")
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	for _, want := range []struct{ reason, message string }{
		{"Starting", "Starting kubelet."},
		{"NodeHasSufficientMemory", "Node node-4 status is now: NodeHasSufficientMemory"},
		{"NodeNotReady", "Node node-4 status is now: NodeNotReady"},
		{"NodeReady", "Node node-4 status is now: NodeReady"},
	} {
		s.Expect(sim.FindEvent(about(events, "node-4"), want.reason, want.message) != nil, "kubectl describe node node-4: %s: %s", want.reason, want.message)
	}
	if !s.Until(ctx, 10*time.Second, sim.Check("node-4 not tainted not-ready", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-4")
		return err == nil && len(n.Spec.Taints) == 0, err
	})) {
		return s.Err()
	}
	s.Expect(true, "node-4 untainted: node.kubernetes.io/not-ready:NoSchedule removed once it is Ready")
	s.Expect(podOnNode(ctx, s, "app=nginx", "node-4") == nil, "no pod moved to node-4: Kubernetes does not rebalance running pods")

	s.Step("kubectl scale deployment nginx --replicas=4: the new pod goes to the empty node")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 4); err != nil {
		s.Expect(false, "kubectl scale: %v", err)
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "deployment nginx available") {
		return s.Err()
	}
	p := podOnNode(ctx, s, "app=nginx", "node-4")
	s.Expect(p != nil && podReady(p) == api.ConditionTrue, "a pod of nginx runs on node-4 and is Ready")
	if p != nil {
		events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
		if err != nil {
			return err
		}
		s.Expect(sim.FindEvent(about(events, p.Name), "Scheduled", "Successfully assigned default/"+p.Name+" to node-4") != nil,
			"event Scheduled: Successfully assigned default/%s to node-4", p.Name)
	}
	return s.Err()
}

// networkNotReady is the Ready message of a node whose CNI plugin waits for the podCIDR: the
// kubelet's "container runtime network not ready" with containerd's NetworkReady condition.
const networkNotReady = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady " +
	"message:Network plugin returns error: cni plugin not initialized"
