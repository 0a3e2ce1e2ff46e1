// node_pressure_eviction.go: node-pressure-eviction, node-1 runs out of memory because pods
// without memory limits keep growing (article 2, section 6.3, "Evicted"): the kubelet's eviction
// manager sees memory.available under its hard threshold, reports MemoryPressure, and evicts pods in
// Kubernetes' order: those using more than they requested first, the largest excess first; the
// Guaranteed pod that stays within its request is left alone.
package scenarios

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	nodes := sim.DefaultNodes(3)
	nodes[0].Memory = "1Gi"
	register(sim.Scenario{
		Name:    "node-pressure-eviction",
		Summary: "pods without memory limits fill node-1: MemoryPressure, EvictionThresholdMet, BestEffort then Burstable-over-request evicted, Guaranteed kept",
		Teaches: `node-1 has 1Gi of memory. Three pods are pinned to it: cache (BestEffort: no requests, no limits,
growing 5Mi/s), api (Burstable: requests 64Mi, no limit, growing 4Mi/s) and db (Guaranteed: requests
equal to limits, 256Mi, steady). Without limits nothing stops the growth inside the containers, so the
node itself runs short. Every 10s the kubelet's eviction manager computes memory.available = capacity
minus the working set of every container; when it falls under the hard threshold (memory.available<100Mi
by default) it records EvictionThresholdMet ("Attempting to reclaim memory"), the node reports
MemoryPressure=True (and gets the node.kubernetes.io/memory-pressure:NoSchedule taint, so no new pods
come), and it evicts one pod per round. It ranks pods as Kubernetes does: first those whose usage
exceeds their request (BestEffort pods request nothing, so they always do), then by priority, then by
how far usage exceeds the request. cache goes first; api, still growing past its request, follows when
memory runs short again; db, within its request, is never chosen. An evicted pod is killed at once (no
grace period under a hard threshold) and stays in the API as Failed with reason Evicted, for a
controller, if it has one, to replace. MemoryPressure stays True for 5 minutes after the last shortage
(evictionPressureTransitionPeriod), so the node does not flap.

Signs to look for: node-1 MemoryPressure=True (KubeletHasInsufficientMemory); the node event
EvictionThresholdMet "Attempting to reclaim memory"; the taint node.kubernetes.io/memory-pressure;
cache and then api with STATUS Evicted and the message "The node was low on resource: memory.
Threshold quantity: 100Mi, available: ...Ki. Container cache was using ...Ki, request is 0, has larger
consumption of memory."; db still Running.`,
		SummaryZH: "没有内存 limits 的 Pod 把 node-1 占满：MemoryPressure、EvictionThresholdMet，先驱逐 BestEffort，再驱逐超出 request 的 Burstable，保留 Guaranteed",
		TeachesZH: `node-1 有 1Gi 内存。三个 Pod 被固定在它上面：cache（BestEffort：没有 requests 也没有 limits，每秒涨
5Mi）、api（Burstable：requests 64Mi，没有 limit，每秒涨 4Mi）和 db（Guaranteed：requests 等于
limits，256Mi，保持不变）。没有 limits，容器内部没有什么能阻止增长，于是节点本身的内存不够了。
kubelet 的驱逐管理器每 10s 计算一次 memory.available = 容量减去所有容器的 working set；低于硬阈值
（默认 memory.available<100Mi）时，它记录 EvictionThresholdMet（"Attempting to reclaim memory"），节
点报告 MemoryPressure=True（并被打上 node.kubernetes.io/memory-pressure:NoSchedule 污点，新 Pod 不再
进来），然后每轮驱逐一个 Pod。它的排序和 Kubernetes 一样：先是用量超过 request 的（BestEffort 的
request 为零，所以总是超过），再按优先级，再按用量超出 request 的多少。cache 最先被驱逐；api 继续涨
过它的 request，内存再次不足时随后被驱逐；db 在 request 之内，永远不会被选中。被驱逐的 Pod 立即被杀
（硬阈值下没有宽限期），以 Failed、原因 Evicted 留在 API 里，如果有控制器，由控制器来替换它。最后一
次内存不足之后 MemoryPressure 还会保持 True 5 分钟（evictionPressureTransitionPeriod），以免节点状态
来回抖动。

要看的信号：node-1 MemoryPressure=True（KubeletHasInsufficientMemory）；节点事件
EvictionThresholdMet "Attempting to reclaim memory"；污点 node.kubernetes.io/memory-pressure；cache
和随后的 api STATUS 为 Evicted，消息为 "The node was low on resource: memory. Threshold quantity:
100Mi, available: ...Ki. Container cache was using ...Ki, request is 0, has larger consumption of
memory."；db 仍然 Running。`,
		Cluster: sim.Config{NodeSpecs: nodes, ControllerManager: true, Scheduler: true},
		ZH: catalog{
			"%d. kubectl apply: cache (BestEffort, growing), api (Burstable, growing past its request), db (Guaranteed), all on node-1": "%d. kubectl apply：cache（BestEffort，内存不断增长）、api（Burstable，增长超过 request）、db（Guaranteed），都在 node-1 上",
			"%d. memory.available on node-1 falls under 100Mi: the eviction manager evicts the BestEffort pod":                          "%d. node-1 的 memory.available 低于 100Mi：驱逐管理器驱逐 BestEffort 的 Pod",
			"%d. node-1 reports MemoryPressure and is tainted: no new pods go there":                                                    "%d. node-1 报告 MemoryPressure 并被打上污点：新 Pod 不再调度过来",
			"%d. api keeps growing past its 64Mi request: at the next shortage it is the one evicted; db never is":                      "%d. api 继续增长、超过 64Mi 的 request：下一次内存不足时被驱逐的是它；db 始终不会被驱逐",
			"%s %s still Running":            "%s %s 仍在 Running",
			"%s %s: QoS class %s, on node-1": "%s %s：QoS 类别 %s，在 node-1 上",
			"%s db (Guaranteed, within its request) still Running: evicted %s":                            "%s db（Guaranteed，用量在 requests 之内）仍在 Running：被驱逐的是 %s",
			"%s kubectl describe node node-1: MemoryPressure True, %s, %s":                                "%s kubectl describe node node-1 显示：MemoryPressure True，%s，%s",
			"%s kubectl describe node node-1: Warning EvictionThresholdMet: Attempting to reclaim memory": "%s kubectl describe node node-1：Warning EvictionThresholdMet: Attempting to reclaim memory（达到驱逐阈值）",
			"%s kubectl describe pod cache: Warning Evicted: The node was low on resource: memory. ...":   "%s kubectl describe pod cache：Warning Evicted: The node was low on resource: memory. ...（被驱逐）",
			"%s kubectl get pod api: STATUS Evicted: %s":                                                  "%s kubectl get pod api：STATUS Evicted（已驱逐）：%s",
			"%s kubectl get pod cache: STATUS Evicted: %s":                                                "%s kubectl get pod cache：STATUS Evicted（已驱逐）：%s",
			"%s node-1 tainted node.kubernetes.io/memory-pressure:NoSchedule":                             "%s node-1 加上了污点 node.kubernetes.io/memory-pressure:NoSchedule",
		},
		Run: runNodePressureEviction,
	})
}

func runNodePressureEviction(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: cache (BestEffort, growing), api (Burstable, growing past its request), db (Guaranteed), all on node-1")
	if !applyFile(ctx, s, "memory-pressure.yaml") {
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "pods running") {
		return s.Err()
	}
	for _, want := range []struct {
		name string
		qos  api.PodQOSClass
	}{{"cache", api.PodQOSBestEffort}, {"api", api.PodQOSBurstable}, {"db", api.PodQOSGuaranteed}} {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", want.name)
		s.Expect(err == nil && p.Status.QOSClass == want.qos && p.Spec.NodeName == "node-1", "%s: QoS class %s, on node-1", want.name, want.qos)
	}

	s.Step("memory.available on node-1 falls under 100Mi: the eviction manager evicts the BestEffort pod")
	if !until(ctx, s, 3*time.Minute, "pod cache reason Evicted") {
		return s.Err()
	}
	cache, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "cache")
	s.Expect(cache.Status.Phase == api.PodFailed && strings.HasPrefix(cache.Status.Message,
		"The node was low on resource: memory. Threshold quantity: 100Mi, available: ") &&
		strings.Contains(cache.Status.Message, "Container cache was using ") &&
		strings.Contains(cache.Status.Message, "request is 0, has larger consumption of memory."),
		"kubectl get pod cache: STATUS Evicted: %s", cache.Status.Message)
	for _, name := range []string{"api", "db"} {
		p, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", name)
		s.Expect(p != nil && p.Status.Phase == api.PodRunning, "%s still Running", name)
	}
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	s.Expect(sim.FindEvent(about(events, "node-1"), "EvictionThresholdMet", "Attempting to reclaim memory") != nil,
		"kubectl describe node node-1: Warning EvictionThresholdMet: Attempting to reclaim memory")
	s.Expect(sim.FindEvent(about(events, "cache"), "Evicted", "The node was low on resource: memory.") != nil,
		"kubectl describe pod cache: Warning Evicted: The node was low on resource: memory. ...")

	s.Step("node-1 reports MemoryPressure and is tainted: no new pods go there")
	if !s.Until(ctx, time.Minute, sim.Check("node-1 MemoryPressure=True", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
		return err == nil && nodeCondition(n, api.NodeMemoryPressure).Status == api.ConditionTrue, err
	})) {
		return s.Err()
	}
	node, _ := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	pressure := nodeCondition(node, api.NodeMemoryPressure)
	s.Expect(pressure.Reason == "KubeletHasInsufficientMemory",
		"kubectl describe node node-1: MemoryPressure True, %s, %s", pressure.Reason, pressure.Message)
	if !until(ctx, s, time.Minute, "node node-1 tainted node.kubernetes.io/memory-pressure:NoSchedule") {
		return s.Err()
	}
	s.Expect(true, "node-1 tainted node.kubernetes.io/memory-pressure:NoSchedule")

	s.Step("api keeps growing past its 64Mi request: at the next shortage it is the one evicted; db never is")
	if !until(ctx, s, 5*time.Minute, "pod api reason Evicted") {
		return s.Err()
	}
	apiPod, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "api")
	s.Expect(strings.Contains(apiPod.Status.Message, "Container api was using ") && strings.Contains(apiPod.Status.Message, "request is 64Mi"),
		"kubectl get pod api: STATUS Evicted: %s", apiPod.Status.Message)
	db, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "db")
	s.Expect(db != nil && db.Status.Phase == api.PodRunning && restarts(db) == 0,
		"db (Guaranteed, within its request) still Running: evicted %s", evictionOrder(ctx, s))
	return s.Err()
}

// evictionOrder lists the evicted pods in default by the time they were evicted.
func evictionOrder(ctx context.Context, s *sim.Session) string {
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return "?"
	}
	var evicted []*api.Event
	for _, e := range events {
		if e.Reason == "Evicted" {
			evicted = append(evicted, e)
		}
	}
	sort.SliceStable(evicted, func(i, j int) bool { return evicted[i].FirstTimestamp.Before(evicted[j].FirstTimestamp.Time) })
	var order []string
	for _, e := range evicted {
		order = append(order, fmt.Sprintf("%s at %s", e.InvolvedObject.Name, e.FirstTimestamp.Sub(sim.Epoch)))
	}
	return strings.Join(order, ", then ")
}
