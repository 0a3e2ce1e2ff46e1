// topology_spread.go: topology-spread, replicas kept even across zones by a
// topologySpreadConstraint (maxSkew 1 on topology.kubernetes.io/zone, DoNotSchedule): they spread
// evenly even where scoring alone would pile them on the biggest node, and when the only node left
// would break the skew, the PodTopologySpread filter rejects it and the pod waits.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/sim"
)

// spreadNodes: one node per zone; node-1 has twice the CPU, so NodeResourcesFit alone would favour it.
var spreadNodes = []sim.NodeSpec{
	{Name: "node-1", CPU: "8", Memory: "16Gi", Pods: 110, Zone: "zone-a"},
	{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-b"},
	{Name: "node-3", CPU: "4", Memory: "8Gi", Pods: 110, Zone: "zone-c"},
}

func init() {
	register(sim.Scenario{
		Name:    "topology-spread",
		Summary: "maxSkew 1 across zones: replicas spread evenly; a placement that would break the skew is filtered",
		Teaches: `A topologySpreadConstraint counts the matching pods in each topology domain (here each zone) and,
with whenUnsatisfiable: DoNotSchedule, the PodTopologySpread filter rejects any node whose domain
would then hold more than maxSkew pods above the emptiest domain. node-1 has twice the CPU of the
others, so scoring alone would pile replicas on it; the constraint keeps the zones 2/2/2. Then two
nodes are cordoned and the Deployment scaled up: the seventh replica may still go to zone-a (3 vs 2),
but the eighth would make it 4 vs 2, so node-1 fails the filter and the pod stays Pending until a node
in another zone takes pods again.

Signs to look for: 6 replicas, 2 per zone; after the cordons, "0/3 nodes are available: 1 node(s)
didn't match pod topology spread constraints, 2 node(s) were unschedulable."; after kubectl uncordon
node-2, the pending replica bound to node-2.`,
		SummaryZH: "跨 zone 的 maxSkew 1：副本均匀分布；会破坏倾斜度的放置被过滤掉",
		TeachesZH: `topologySpreadConstraint 统计每个拓扑域（这里是每个 zone）里匹配的 Pod 数；whenUnsatisfiable:
DoNotSchedule 时，PodTopologySpread 过滤器会排除这样的节点：放上去后它所在的域比最空的域多出超过
maxSkew 个 Pod。node-1 的 CPU 是其他节点的两倍，只靠打分会把副本都堆到它上面；这条约束让各 zone 保持
2/2/2。然后 cordon 两个节点再给 Deployment 扩容：第七个副本仍可以去 zone-a（3 比 2），但第八个会变成
4 比 2，所以 node-1 没通过过滤，Pod 一直 Pending，直到另一个 zone 里有节点重新接收 Pod。

要看的信号：6 个副本，每个 zone 2 个；cordon 之后 "0/3 nodes are available: 1 node(s) didn't match
pod topology spread constraints, 2 node(s) were unschedulable."；kubectl uncordon node-2 之后，挂起
的副本绑定到 node-2。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: spreadNodes},
		ZH: catalog{
			"%d. kubectl apply -f spread.yaml: 6 replicas, maxSkew 1 across topology.kubernetes.io/zone":         "%d. kubectl apply -f spread.yaml：6 个副本，按 topology.kubernetes.io/zone 分布，maxSkew 1",
			"%d. kubectl cordon node-2 and node-3, then kubectl scale deployment spread --replicas=8":            "%d. kubectl cordon node-2 和 node-3，然后 kubectl scale deployment spread --replicas=8",
			"%d. kubectl uncordon node-2: zone-b takes pods again":                                               "%d. kubectl uncordon node-2：zone-b 又能接收 Pod 了",
			"%s %s is bound to node-2: zones now 3/3/2":                                                          "%s %s 绑定到 node-2：各可用区现在是 3/3/2",
			"%s %s: FailedScheduling %s (zone-a would hold 4 against 2)":                                         "%s %s：FailedScheduling %s（zone-a 会有 4 个，而别处是 2 个）",
			"%s 2 replicas per zone (%s), although node-1 has twice the CPU":                                     "%s 每个可用区 2 个副本（%s），尽管 node-1 的 CPU 是别人的两倍",
			"%s the seventh replica went to node-1 (zone-a 3, the others 2: skew 1), the eighth is Pending (%s)": "%s 第七个副本去了 node-1（zone-a 3 个，其他 2 个：偏差 1），第八个 Pending（%s）",
		},
		Run: runTopologySpread,
	})
}

func runTopologySpread(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f spread.yaml: 6 replicas, maxSkew 1 across topology.kubernetes.io/zone")
	if !applyFile(ctx, s, "spread-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment spread available") {
		return s.Err()
	}
	perNode, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=spread"))
	s.Expect(perNode["node-1"] == 2 && perNode["node-2"] == 2 && perNode["node-3"] == 2,
		"2 replicas per zone (%s), although node-1 has twice the CPU", placement)

	s.Step("kubectl cordon node-2 and node-3, then kubectl scale deployment spread --replicas=8")
	for _, n := range []string{"node-2", "node-3"} {
		if err := s.Kubectl.Cordon(ctx, n); err != nil {
			return s.Err()
		}
	}
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "spread", 8); err != nil {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedScheduling for pod/spread-*") || !until(ctx, s, 0, "pods -l app=spread count 8") {
		return s.Err()
	}
	const skewed = "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 2 node(s) were unschedulable."
	var (
		pending            int
		stuck, stuckOrSeen string
	)
	settled(ctx, s, func() bool {
		pods := objectsNow[api.Pod](ctx, s, "default", "app=spread")
		perNode, placement, pending = schedPlacement(pods)
		stuck, stuckOrSeen = schedStuck(ctx, s, pods, skewed)
		return perNode["node-1"] == 3 && pending == 1 && stuck != ""
	})
	s.Expect(perNode["node-1"] == 3 && pending == 1, "the seventh replica went to node-1 (zone-a 3, the others 2: skew 1), the eighth is Pending (%s)", placement)
	s.Expect(stuck != "", "%s: FailedScheduling %s (zone-a would hold 4 against 2)", stuckOrSeen, skewed)

	s.Step("kubectl uncordon node-2: zone-b takes pods again")
	if err := s.Kubectl.Uncordon(ctx, "node-2"); err != nil {
		return s.Err()
	}
	if stuck == "" || !until(ctx, s, 0, "pod "+stuck+" bound") {
		return s.Err()
	}
	s.Expect(objectNow[api.Pod](ctx, s, "default", stuck).Spec.NodeName == "node-2", "%s is bound to node-2: zones now 3/3/2", stuck)
	return s.Err()
}
