// pod_network.go: the pod network (article 3, section 7): the node IPAM controller cuts the
// cluster CIDR into one podCIDR per node; on each node the CNI plugin (host-local IPAM) gives every
// sandbox an IP from that range (CNI ADD) and takes it back when the sandbox goes (CNI DEL). A full
// range fails new sandboxes with FailedCreatePodSandBox until an IP is released.
package scenarios

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "pod-network",
		Summary: "podCIDRs from node IPAM, pod IPs from CNI ADD/DEL, a full /29 fails the sandbox until an IP is freed",
		Teaches: `kube-controller-manager runs with --cluster-cidr 10.244.0.0/16 and, here, --node-cidr-mask-size 29, so
that a node's range fills up quickly: each node gets a /29 (8 addresses: the network, the bridge cni0 at
.1, the broadcast, and 5 for pods). In a default cluster the ranges are /24 (254 pods per node, 256
nodes in the /16; a wider cluster CIDR such as 10.0.0.0/8 holds more nodes).

The kubelet hands its node's podCIDR to the runtime (CRI UpdateRuntimeConfig); for every sandbox containerd
runs the CNI plugin: ADD gives eth0 the next free address of the range, DEL returns it. Six pods are
pinned to node-1: five get 10.244.0.2 to .6, the sixth's sandbox fails, and the kubelet retries it. When
one of the five is deleted, CNI DEL releases its IP and the retry gets it: no IP is ever held by two
pods at once.

Signs to look for: "assign 10.244.0.0/29" and "assign 10.244.0.8/29" from node-ipam-controller; CNI ADD
lines; every pod IP inside its node's podCIDR and unique; the event FailedCreatePodSandBox "failed to
allocate for range 0: no IP addresses available in range set: 10.244.0.2-10.244.0.6"; CNI DEL of a
deleted pod's IP and the stuck pod Running with that IP.`,
		SummaryZH: "podCIDR 来自节点 IPAM，Pod IP 来自 CNI ADD/DEL，/29 用满后沙箱创建失败，直到有 IP 被释放",
		TeachesZH: `kube-controller-manager 以 --cluster-cidr 10.244.0.0/16 运行，这里还用了 --node-cidr-mask-size 29，
让节点的地址段很快用满：每个节点分到一个 /29（8 个地址：网络地址、网桥 cni0 占 .1、广播地址，剩下 5
个给 Pod）。默认集群里地址段是 /24（每个节点 254 个 Pod，/16 里能放 256 个节点；更大的集群 CIDR，比
如 10.0.0.0/8，能容纳更多节点）。

kubelet 把本节点的 podCIDR 交给容器运行时（CRI UpdateRuntimeConfig）；containerd 为每个沙箱运行 CNI
插件：ADD 给 eth0 分配地址段里下一个空闲地址，DEL 把它还回去。六个 Pod 被固定在 node-1 上：五个拿到
10.244.0.2 到 .6，第六个的沙箱创建失败，kubelet 不断重试。五个中的一个被删除时，CNI DEL 释放它的
IP，重试就拿到了这个 IP：任何时候都不会有两个 Pod 同时持有同一个 IP。

要看的信号：node-ipam-controller 的 "assign 10.244.0.0/29" 和 "assign 10.244.0.8/29"；CNI ADD 日志
行；每个 Pod IP 都在其节点的 podCIDR 内且不重复；事件 FailedCreatePodSandBox "failed to allocate for
range 0: no IP addresses available in range set: 10.244.0.2-10.244.0.6"；被删 Pod 的 IP 的 CNI DEL，
以及卡住的 Pod 拿着这个 IP 变为 Running。`,
		Cluster: sim.Config{Nodes: 2, ControllerManager: true, Scheduler: true, NodeCIDRMaskSize: 29},
		Run:     runPodNetwork,
		ZH: catalog{
			"%d. The node IPAM controller gave each node a /29 of 10.244.0.0/16":                              "%d. 节点 IPAM 控制器从 10.244.0.0/16 中给每个节点分了一个 /29",
			"%s kubectl get node %s -o jsonpath='{.spec.podCIDR}': %s":                                        "%s kubectl get node %s -o jsonpath='{.spec.podCIDR}' 的结果：%s",
			"%s node-1 has 10.244.0.0/29, node-2 has 10.244.0.8/29: consecutive ranges, no overlap":           "%s node-1 是 10.244.0.0/29，node-2 是 10.244.0.8/29：前后相接的网段，互不重叠",
			"%d. Six pods pinned to node-1 (5 free IPs) and one to node-2":                                    "%d. 六个 Pod 固定到 node-1（它只有 5 个空闲 IP），一个固定到 node-2",
			"%s pod filler-%d is created: %v":                                                                 "%s Pod filler-%d 创建成功：%v",
			"%s pod other is created: %v":                                                                     "%s Pod other 创建成功：%v",
			"%s %s and %s share %s":                                                                           "%s %s 和 %s 共用了 %s",
			"%s kubectl get pods -o wide: 6 IPs, each inside its node's podCIDR, all different":               "%s kubectl get pods -o wide：6 个 IP，各自落在所在节点的 podCIDR 内，互不相同",
			"%s kubectl describe pod %s: Warning FailedCreatePodSandBox: %s":                                  "%s kubectl describe pod %s 显示：Warning FailedCreatePodSandBox: %s",
			"%d. kubectl delete pod filler-1: CNI DEL releases its IP, and the retried sandbox of %s gets it": "%d. kubectl delete pod filler-1：CNI DEL 释放它的 IP，%s 重试创建的沙箱拿到了这个 IP",
			"%s filler-1 is deleted: %v":                                                                      "%s filler-1 删除成功：%v",
			"%s %s is Running with %s, the address filler-1 released: one pod per IP, ever":                   "%s %s 已 Running，IP 是 %s，正是 filler-1 释放的地址：一个 IP 任何时候都只属于一个 Pod",
			"%s its IP is in node-1's range":                                                                  "%s 它的 IP 在 node-1 的网段内",
		},
	})
}

// podNetworkPod is one pod pinned to a node.
func podNetworkPod(name, node string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "filler"}},
		Spec: api.PodSpec{NodeName: node, TerminationGracePeriodSeconds: api.Ptr(int64(0)),
			Containers: []api.Container{{Name: "shell", Image: "busybox:1.36", Command: []string{"sleep", "3600"}}}}}
}

func runPodNetwork(ctx context.Context, s *sim.Session) error {
	s.Step("The node IPAM controller gave each node a /29 of 10.244.0.0/16")
	cidrs := map[string]netip.Prefix{}
	for _, name := range []string{"node-1", "node-2"} {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", name)
		if err != nil {
			return err
		}
		p, err := netip.ParsePrefix(n.Spec.PodCIDR)
		cidrs[name] = p
		s.Expect(err == nil && p.Bits() == 29, "kubectl get node %s -o jsonpath='{.spec.podCIDR}': %s", name, n.Spec.PodCIDR)
	}
	s.Expect(cidrs["node-1"].String() == "10.244.0.0/29" && cidrs["node-2"].String() == "10.244.0.8/29",
		"node-1 has 10.244.0.0/29, node-2 has 10.244.0.8/29: consecutive ranges, no overlap")

	s.Step("Six pods pinned to node-1 (5 free IPs) and one to node-2")
	for i := 1; i <= 6; i++ {
		if _, err := s.Kubectl.Create(ctx, podNetworkPod(fmt.Sprintf("filler-%d", i), "node-1")); err != nil {
			s.Expect(false, "pod filler-%d is created: %v", i, err)
			return s.Err()
		}
	}
	if _, err := s.Kubectl.Create(ctx, podNetworkPod("other", "node-2")); err != nil {
		s.Expect(false, "pod other is created: %v", err)
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "event FailedCreatePodSandBox no IP addresses available") ||
		!s.Until(ctx, time.Minute, sim.Check("5 filler pods running on node-1 and other on node-2", func() (bool, error) {
			pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=filler", "")
			running := 0
			for _, p := range pods {
				if p.Status.Phase == api.PodRunning {
					running++
				}
			}
			return err == nil && running == 6, err
		})) {
		return s.Err()
	}
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=filler", "")
	if err != nil {
		return err
	}
	seen := map[string]string{}
	inRange, unique := true, true
	var stuck string
	for _, p := range pods {
		if p.Status.PodIP == "" {
			stuck = p.Name
			continue
		}
		ip, err := netip.ParseAddr(p.Status.PodIP)
		inRange = inRange && err == nil && cidrs[p.Spec.NodeName].Contains(ip)
		if other, dup := seen[p.Status.PodIP]; dup {
			unique = false
			s.Expect(false, "%s and %s share %s", other, p.Name, p.Status.PodIP)
		}
		seen[p.Status.PodIP] = p.Name
	}
	s.Expect(inRange && unique && len(seen) == 6, "kubectl get pods -o wide: 6 IPs, each inside its node's podCIDR, all different")
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	e := sim.FindEvent(events, "FailedCreatePodSandBox", "no IP addresses available in range set: 10.244.0.2-10.244.0.6")
	s.Expect(e != nil && stuck != "", "kubectl describe pod %s: Warning FailedCreatePodSandBox: %s", stuck,
		eventMessage(e, "Failed to create pod sandbox: ... no IP addresses available in range set: 10.244.0.2-10.244.0.6"))

	s.Step("kubectl delete pod filler-1: CNI DEL releases its IP, and the retried sandbox of %s gets it", stuck)
	freed, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "filler-1")
	if err := s.Kubectl.Delete(ctx, "pods", "default", "filler-1", client.DeleteOptions{}); err != nil {
		s.Expect(false, "filler-1 is deleted: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 2*time.Minute, "pod "+stuck+" running") {
		return s.Err()
	}
	p, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", stuck)
	s.Expect(freed != nil && p != nil && p.Status.PodIP == freed.Status.PodIP,
		"%s is Running with %s, the address filler-1 released: one pod per IP, ever", stuck, p.Status.PodIP)
	s.Expect(strings.HasPrefix(p.Status.PodIP, "10.244.0."), "its IP is in node-1's range")
	return s.Err()
}
