// scenario_host_port.go: host-port, pods that claim a port on their node's own address. Only one
// pod per node can hold hostPort 8080, so the NodePorts filter sends the second pod elsewhere, and
// once every node's 8080 is taken the next pod stays Pending.
package sim

import (
	"context"
	"kubesim/scenarios/manifests"
	"strings"

	"kubesim/scheduler/plugins"
)

// proxyPod is proxy-pod.yaml, a pod listening on its node's port 8080, named name.
func proxyPod(name string) []byte {
	return []byte(strings.Replace(manifests.Read("proxy-pod.yaml"), "name: proxy-a", "name: "+name, 1))
}

func init() {
	Register(Scenario{
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
		Cluster: Config{ControllerManager: true, NodeSpecs: DefaultNodes(3)},
		Run:     runHostPort,
	})
}

func runHostPort(ctx context.Context, s *Session) error {
	s.Step("kube-scheduler starts; the scenario keeps a handle on it to ask it to explain its decisions")
	sched := schedStartScheduler(ctx, s)
	if sched == nil {
		return s.Err()
	}

	s.Step("kubectl apply -f proxy-a.yaml: hostPort 8080")
	if _, err := s.Kubectl.Apply(ctx, proxyPod("proxy-a")); err != nil {
		return s.Err()
	}
	if !schedWait(ctx, s, "pod proxy-a bound") {
		return s.Err()
	}
	first := schedPod(ctx, s, "proxy-a").Spec.NodeName
	s.Expect(first != "", "proxy-a is bound to %s, which now has port 8080 taken", first)

	s.Step("kubectl apply -f proxy-b.yaml: hostPort 8080 too; the scheduler explains, then decides")
	ex := schedApplyAndExplain(ctx, s, sched, string(proxyPod("proxy-b")))
	if ex == nil {
		return s.Err()
	}
	taken := schedNodeVerdict(ex, first)
	s.Expect(taken != nil && !taken.Feasible && taken.RejectedBy == plugins.NodePortsName && taken.Reason == plugins.ErrReasonPorts,
		"%s fails Filter NodePorts: %s", first, plugins.ErrReasonPorts)
	s.Expect(ex.Feasible == 2, "the other 2 nodes pass")
	if !schedWait(ctx, s, "pod proxy-b bound") {
		return s.Err()
	}
	second := schedPod(ctx, s, "proxy-b").Spec.NodeName
	s.Expect(second != "" && second != first, "proxy-b is bound to %s, not %s", second, first)

	s.Step("kubectl apply -f proxy-c.yaml and proxy-d.yaml: a third takes the last free 8080, a fourth fits nowhere")
	for _, name := range []string{"proxy-c", "proxy-d"} {
		if _, err := s.Kubectl.Apply(ctx, proxyPod(name)); err != nil {
			return s.Err()
		}
	}
	if !schedWait(ctx, s, "pod proxy-c bound") || !schedWait(ctx, s, "event FailedScheduling for pod/proxy-d") {
		return s.Err()
	}
	perNode, placement, _ := schedPlacement(schedPods(ctx, s, "app=proxy"))
	s.Expect(len(perNode) == 3 && perNode["node-1"] == 1 && perNode["node-2"] == 1 && perNode["node-3"] == 1,
		"one proxy per node (%s)", placement)
	const noPorts = "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports."
	s.Expect(schedUnschedulable(schedPod(ctx, s, "proxy-d"), noPorts) && schedFailedScheduling(ctx, s, "proxy-d", noPorts),
		"proxy-d is Pending: FailedScheduling %s", noPorts)
	return s.Err()
}
