// host_port.go: host-port, pods that claim a port on their node's own address. Only one
// pod per node can hold hostPort 8080, so the NodePorts filter sends the second pod elsewhere, and
// once every node's 8080 is taken the next pod stays Pending.
package scenarios

import (
	"context"
	"strings"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/scheduler/plugins"
	"kubesim/sim"
)

// proxyPod is proxy-pod.yaml, a pod listening on its node's port 8080, named name.
func proxyPod(name string) string {
	return strings.Replace(manifests.Read("proxy-pod.yaml"), "name: proxy-a", "name: "+name, 1)
}

func init() {
	register(sim.Scenario{
		Name:     "host-port",
		StepOnly: true,
		Summary:  "two pods want hostPort 8080: the second avoids the first one's node; a fourth on 3 nodes stays Pending",
		Teaches: `A hostPort maps a container port to the same port on the node's address, so two pods on one node
cannot both have hostPort 8080 (same protocol and hostIP). The NodePorts filter knows every port
the node's pods already hold and rejects a node where the pod's host ports are taken. The scenario
asks the scheduler to explain the second pod before it decides: the first pod's node fails NodePorts.
With 3 nodes, a fourth such pod fits nowhere. (This is why hostPort is best left to DaemonSets,
one per node.)

Signs to look for: proxy-b's explanation with NodePorts FAIL on proxy-a's node, "node(s) didn't have
free ports for the requested pod ports", and proxy-b bound elsewhere; proxy-d Pending with "0/3 nodes
are available: 3 node(s) didn't have free ports for the requested pod ports."`,
		SummaryZH: "两个 Pod 都要 hostPort 8080：第二个避开第一个所在的节点；3 个节点上的第四个一直 Pending",
		TeachesZH: `hostPort 把容器端口映射到节点地址上的同一个端口，所以一个节点上的两个 Pod 不能都用 hostPort 8080
（协议和 hostIP 相同时）。NodePorts 过滤器知道节点上的 Pod 已经占用的每个端口，会排除 Pod 所需主机端
口已被占用的节点。场景在调度器决定第二个 Pod 之前先请它解释：第一个 Pod 所在的节点没通过 NodePorts。
3 个节点时，第四个这样的 Pod 哪儿都放不下。（所以 hostPort 最好留给 DaemonSet，每个节点一个。）

要看的信号：proxy-b 的解释中 proxy-a 所在节点 NodePorts FAIL，"node(s) didn't have free ports for
the requested pod ports"，proxy-b 绑定到了别的节点；proxy-d Pending，提示 "0/3 nodes are available:
3 node(s) didn't have free ports for the requested pod ports."。`,
		Cluster: sim.Config{ControllerManager: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f proxy-a.yaml: hostPort 8080":                                                            "%d. kubectl apply -f proxy-a.yaml：要占用节点的 hostPort 8080",
			"%d. kubectl apply -f proxy-b.yaml: hostPort 8080 too; the scheduler explains, then decides":                  "%d. kubectl apply -f proxy-b.yaml：同样要 hostPort 8080；调度器先解释，再决定",
			"%d. kubectl apply -f proxy-c.yaml and proxy-d.yaml: a third takes the last free 8080, a fourth fits nowhere": "%d. kubectl apply -f proxy-c.yaml 和 proxy-d.yaml：第三个占用最后一个空闲的 8080，第四个哪里都放不下",
			"%s %s fails Filter NodePorts: %s":                                                                            "%s %s 没有通过 Filter NodePorts：%s",
			"%s one proxy per node (%s)":                                                                                  "%s 每个节点一个 proxy（%s）",
			"%s proxy-a is bound to %s, which now has port 8080 taken":                                                    "%s proxy-a 绑定到 %s，该节点的 8080 端口从此被占用",
			"%s proxy-b is bound to %s, not %s":                                                                           "%s proxy-b 绑定到 %s，而不是 %s",
			"%s proxy-d is Pending: FailedScheduling %s":                                                                  "%s proxy-d 处于 Pending：FailedScheduling %s",
			"%s the other 2 nodes pass":                                                                                   "%s 另外 2 个节点通过",
		},
		Run: runHostPort,
	})
}

func runHostPort(ctx context.Context, s *sim.Session) error {
	sched := schedStartScheduler(ctx, s)
	if sched == nil {
		return s.Err()
	}

	s.Step("kubectl apply -f proxy-a.yaml: hostPort 8080")
	if !apply(ctx, s, proxyPod("proxy-a")) {
		return s.Err()
	}
	if !until(ctx, s, 0, "pod proxy-a bound") {
		return s.Err()
	}
	first := objectNow[api.Pod](ctx, s, "default", "proxy-a").Spec.NodeName
	s.Expect(first != "", "proxy-a is bound to %s, which now has port 8080 taken", first)

	s.Step("kubectl apply -f proxy-b.yaml: hostPort 8080 too; the scheduler explains, then decides")
	ex := schedApplyAndExplain(ctx, s, sched, proxyPod("proxy-b"))
	if ex == nil {
		return s.Err()
	}
	taken := schedNodeVerdict(ex, first)
	s.Expect(taken != nil && !taken.Feasible && taken.RejectedBy == plugins.NodePortsName && taken.Reason == plugins.ErrReasonPorts,
		"%s fails Filter NodePorts: %s", first, plugins.ErrReasonPorts)
	s.Expect(ex.Feasible == 2, "the other 2 nodes pass")
	if !until(ctx, s, 0, "pod proxy-b bound") {
		return s.Err()
	}
	second := objectNow[api.Pod](ctx, s, "default", "proxy-b").Spec.NodeName
	s.Expect(second != "" && second != first, "proxy-b is bound to %s, not %s", second, first)

	s.Step("kubectl apply -f proxy-c.yaml and proxy-d.yaml: a third takes the last free 8080, a fourth fits nowhere")
	for _, name := range []string{"proxy-c", "proxy-d"} {
		if !apply(ctx, s, proxyPod(name)) {
			return s.Err()
		}
	}
	if !until(ctx, s, 0, "pod proxy-c bound") || !until(ctx, s, 0, "event FailedScheduling for pod/proxy-d") {
		return s.Err()
	}
	perNode, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=proxy"))
	s.Expect(len(perNode) == 3 && perNode["node-1"] == 1 && perNode["node-2"] == 1 && perNode["node-3"] == 1,
		"one proxy per node (%s)", placement)
	const noPorts = "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports."
	s.Expect(schedUnschedulable(objectNow[api.Pod](ctx, s, "default", "proxy-d"), noPorts) && schedFailedScheduling(ctx, s, "proxy-d", noPorts),
		"proxy-d is Pending: FailedScheduling %s", noPorts)
	return s.Err()
}
