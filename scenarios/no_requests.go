// no_requests.go: no-requests, pods that declare no resource requests. The scheduler's
// accounting (what kubectl describe node calls "Allocated resources") sees them as free, so they pass
// NodeResourcesFit on any node; for scoring only, each counts as 100m CPU and 200Mi of memory, so they
// are spread by count, never by what they really use.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler/framework"
	"kubesim/sim"
)

// smallNodes: two nodes with one CPU each (900m allocatable).
var smallNodes = []sim.NodeSpec{
	{Name: "node-1", CPU: "1", Memory: "4Gi", Pods: 110, Zone: "zone-a"},
	{Name: "node-2", CPU: "1", Memory: "4Gi", Pods: 110, Zone: "zone-b"},
}

func init() {
	register(sim.Scenario{
		Name:    "no-requests",
		Summary: "pods with no requests: the scheduler counts them as (almost) free, so they crowd onto nodes regardless of real use",
		Teaches: `The scheduler never looks at what pods use, only at what they request. A pod without requests
adds nothing to a node's requested resources, so NodeResourcesFit lets any number of them onto a
node (up to its pod limit). For scoring only, the scheduler pretends each asks for 100m CPU and
200Mi of memory (the non-zero defaults), so that such pods are at least spread by count. Here two
nodes with one CPU each (900m allocatable) take 20 replicas, 10 or so each, while kubectl describe
node reports 0 CPU and 0 memory requested. And the node where a leaky pod already uses a gigabyte
gets as many as the other: the scheduler cannot see it. (The QoS class of such pods is BestEffort:
the kubelet evicts them first when memory runs out.)

Signs to look for: all 20 crowd pods Running on two 1-CPU nodes; "Allocated resources: cpu 0 (0%),
memory 0 (0%)" on both; more pods on a node than 900m / 100m would allow if they asked for the
scoring defaults; the leaky pod's node with about 1Gi in use per the container runtime and about
as many crowd pods as the idle node; the pods' QoS class BestEffort.`,
		SummaryZH: "没有 requests 的 Pod：调度器把它们当作（几乎）不占资源，于是不管实际用量，都挤到节点上",
		TeachesZH: `调度器从不看 Pod 用了多少，只看它们请求了多少。没有 requests 的 Pod 不增加节点已请求的资源，所以
NodeResourcesFit 允许任意多个这样的 Pod 上一个节点（直到节点的 Pod 数上限）。仅在打分时，调度器假装
每个这样的 Pod 请求 100m CPU 和 200Mi 内存（非零默认值），好让它们至少按个数分散。这里两个各有一个
CPU （可分配 900m）的节点接收了 20 个副本，每个大约 10 个，而 kubectl describe node 报告已请求 0
CPU、0 内存。一个漏内存的 Pod 已经用掉 1G 的那个节点，分到的和另一个一样多：调度器看不到实际用量。
（这类 Pod 的 QoS 类别是 BestEffort：内存耗尽时 kubelet 最先驱逐它们。）

要看的信号：全部 20 个 crowd Pod 在两个 1 CPU 的节点上 Running；两个节点上都是 "Allocated resources:
cpu 0 (0%), memory 0 (0%)"；一个节点上的 Pod 数超过按打分默认值请求时 900m / 100m 所允许的数目；按容
器运行时的数据，漏内存 Pod 所在节点已用约 1Gi，而 crowd Pod 的数量和空闲节点差不多；这些 Pod 的 QoS
类别为 BestEffort。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: smallNodes},
		ZH: catalog{
			"%d. kubectl apply -f leaky.yaml: no requests, and its memory grows 50Mi a second":                                        "%d. kubectl apply -f leaky.yaml：没有 requests，内存每秒增长 50Mi",
			"%d. Let 20 seconds pass: leaky now uses about a gigabyte on its node":                                                    "%d. 过 20 秒：leaky 在它的节点上已经用了大约 1GiB 内存",
			"%d. kubectl apply -f crowd.yaml: 20 replicas, no requests, onto two nodes with 900m CPU allocatable each":                "%d. kubectl apply -f crowd.yaml：20 个没有 requests 的副本，放到两个各有 900m 可分配 CPU 的节点上",
			"%d. What kubectl describe node shows, against what the nodes really use":                                                 "%d. kubectl describe node 显示的，与节点实际使用的对比",
			"%s %d pods on one node: had each asked for the %dm CPU the scheduler assumes when scoring, at most %d would fit in 900m": "%s 一个节点上 %d 个 Pod：假如每个都申请调度器打分时假定的 %dm CPU，900m 里最多只放得下 %d 个",
			"%s %s, using %dMi, holds %d pods (leaky included) and %s, using %dMi, %d: balanced by count, blind to use":               "%s %s 用了 %dMi，有 %d 个 Pod（包括 leaky），%s 用了 %dMi，有 %d 个：按数量均衡，看不见实际用量",
			"%s all 20 crowd pods are Running (pods per node: %s)":                                                                    "%s 全部 20 个 crowd Pod 都在 Running（每个节点的 Pod 数：%s）",
			"%s kubectl describe node %s: %d pods, Allocated resources: cpu 0 (0%%), memory 0 (0%%); in use %dMi":                     "%s kubectl describe node %s：%d 个 Pod，Allocated resources：cpu 0 (0%%)，memory 0 (0%%)；实际使用 %dMi",
			"%s kubectl get pod -o jsonpath={.status.qosClass}: BestEffort":                                                           "%s kubectl get pod -o jsonpath={.status.qosClass}：BestEffort（没有 requests 和 limits）",
			"%s the container runtime on %s reports %dMi in use":                                                                      "%s %s 上的容器运行时报告使用了 %dMi",
		},
		Run: runNoRequests,
	})
}

func runNoRequests(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f leaky.yaml: no requests, and its memory grows 50Mi a second")
	if !applyFile(ctx, s, "leaky-pod.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod leaky running") {
		return s.Err()
	}
	leakyNode := objectNow[api.Pod](ctx, s, "default", "leaky").Spec.NodeName

	s.Step("Let 20 seconds pass: leaky now uses about a gigabyte on its node")
	if err := s.Driver.Advance(ctx, 20*time.Second); err != nil {
		return err
	}
	inUse := schedMemoryInUse(ctx, s)
	s.Expect(inUse[leakyNode] > 900<<20, "the container runtime on %s reports %dMi in use", leakyNode, inUse[leakyNode]>>20)

	s.Step("kubectl apply -f crowd.yaml: 20 replicas, no requests, onto two nodes with 900m CPU allocatable each")
	if !applyFile(ctx, s, "crowd-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment crowd available") {
		return s.Err()
	}

	s.Step("What kubectl describe node shows, against what the nodes really use")
	all := objectsNow[api.Pod](ctx, s, "default", "")
	perNode, placement, pending := schedPlacement(all)
	s.Expect(pending == 0 && len(objectsNow[api.Pod](ctx, s, "default", "app=crowd")) == 20, "all 20 crowd pods are Running (pods per node: %s)", placement)
	inUse = schedMemoryInUse(ctx, s)
	for _, n := range s.NodeNames() {
		cpu, mem := schedRequested(all, n)
		s.Expect(cpu.IsZero() && mem.IsZero(), "kubectl describe node %s: %d pods, Allocated resources: cpu 0 (0%%), memory 0 (0%%); in use %dMi",
			n, perNode[n], inUse[n]>>20)
	}
	most := max(perNode["node-1"], perNode["node-2"])
	s.Expect(int64(most)*framework.DefaultMilliCPURequest > 900,
		"%d pods on one node: had each asked for the %dm CPU the scheduler assumes when scoring, at most %d would fit in 900m",
		most, framework.DefaultMilliCPURequest, 900/framework.DefaultMilliCPURequest)
	other := "node-1"
	if leakyNode == "node-1" {
		other = "node-2"
	}
	diff := perNode[leakyNode] - perNode[other]
	s.Expect(diff >= -1 && diff <= 1 && inUse[leakyNode] > 4*inUse[other],
		"%s, using %dMi, holds %d pods (leaky included) and %s, using %dMi, %d: balanced by count, blind to use",
		leakyNode, inUse[leakyNode]>>20, perNode[leakyNode], other, inUse[other]>>20, perNode[other])
	crowd := objectsNow[api.Pod](ctx, s, "default", "app=crowd")
	s.Expect(len(crowd) > 0 && crowd[0].Status.QOSClass == api.PodQOSBestEffort, "kubectl get pod -o jsonpath={.status.qosClass}: BestEffort")
	return s.Err()
}

// schedRequested sums the requests of the pods bound to node (terminated pods excluded), as kubectl
// describe node's "Allocated resources" does.
func schedRequested(pods []*api.Pod, node string) (cpu, mem resource.Quantity) {
	for _, p := range pods {
		if p.Spec.NodeName != node || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		for _, c := range p.Spec.Containers {
			cpu.Add(c.Resources.Requests.Cpu())
			mem.Add(c.Resources.Requests.Memory())
		}
	}
	return cpu, mem
}

// schedMemoryInUse asks each node's container runtime for the memory its containers use (what the
// kubelet's eviction manager and kubectl top read), in bytes.
func schedMemoryInUse(ctx context.Context, s *sim.Session) map[string]uint64 {
	out := map[string]uint64{}
	for _, name := range s.NodeNames() {
		n, _ := s.Node(name)
		st, err := n.Runtime.Stats(ctx)
		if err != nil {
			s.Expect(false, "%s: runtime stats: %v", name, err)
			continue
		}
		out[name] = st.MemoryWorkingSetBytes
	}
	return out
}
