// cordon_drain.go: cordon-drain, taking node-1 out for maintenance (article 2, section 7,
// the operations checklist): kubectl cordon marks it unschedulable, kubectl drain --ignore-daemonsets
// evicts its pods through the Eviction API, their controllers recreate them on the other nodes, and
// the DaemonSet's pod stays.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "cordon-drain",
		Summary: "kubectl cordon and drain node-1: unschedulable + taint, pods evicted through the Eviction API and recreated elsewhere, the DaemonSet pod left",
		Teaches: `Before maintenance a node is emptied in two moves. kubectl cordon sets spec.unschedulable=true;
the node lifecycle controller turns that into the taint node.kubernetes.io/unschedulable:NoSchedule,
and the scheduler no longer places pods there (kubectl get nodes shows Ready,SchedulingDisabled).
Nothing running is touched. kubectl drain then cordons (already done) and evicts every pod on the node
through the Eviction API (POST pods/NAME/eviction), which, unlike a plain delete, respects
PodDisruptionBudgets (there is none here, so each eviction is allowed at once). The kubelet stops
each evicted pod gracefully; its ReplicaSet, one pod short, creates a replacement, which the scheduler
places on another node. Pods owned by a DaemonSet are left alone with --ignore-daemonsets: evicting
them would be pointless, since their DaemonSet wants exactly one on every node, and DaemonSet pods
tolerate the unschedulable taint. kubectl uncordon makes the node schedulable again; nothing moves
back by itself.

Signs to look for: node-1 with spec.unschedulable and the taint node.kubernetes.io/unschedulable:
NoSchedule; kubectl's "ignoring DaemonSet-managed pod default/log-agent-..." and "evicting pod
default/nginx-..."; the apiserver's "eviction of pod ... allowed (no PodDisruptionBudget)"; the nginx
pod replaced on node-2 or node-3 and the Deployment back at 3/3; log-agent still running on node-1.`,
		SummaryZH: "kubectl cordon 再 drain node-1：不可调度 + 污点，Pod 通过 Eviction API 被驱逐并在别处重建，DaemonSet 的 Pod 留下",
		TeachesZH: `维护之前，清空一个节点分两步。kubectl cordon 设置 spec.unschedulable=true；节点生命周期控制器把它变
成污点 node.kubernetes.io/unschedulable:NoSchedule，调度器不再往这里放 Pod（kubectl get nodes 显示
Ready,SchedulingDisabled）。正在运行的东西一概不动。然后 kubectl drain 先 cordon（已经做过了），再通
过 Eviction API（POST pods/NAME/eviction）驱逐节点上的每个 Pod；和直接 delete 不同，驱逐会遵守
PodDisruptionBudget（这里没有，所以每次驱逐都立刻被允许）。kubelet 优雅地停止每个被驱逐的 Pod；它的
ReplicaSet 少了一个 Pod，就创建一个替代的，由调度器放到别的节点上。用了 --ignore-daemonsets 时，
DaemonSet 管理的 Pod 不动：驱逐它们毫无意义，因为 DaemonSet 要求每个节点上正好一个，而且 DaemonSet
的 Pod 容忍 unschedulable 污点。kubectl uncordon 让节点重新可调度；但什么都不会自己搬回来。

要看的信号：node-1 带有 spec.unschedulable 和污点 node.kubernetes.io/unschedulable:NoSchedule；
kubectl 的 "ignoring DaemonSet-managed pod default/log-agent-..." 和 "evicting pod
default/nginx-..."；apiserver 的 "eviction of pod ... allowed (no PodDisruptionBudget)"；nginx Pod
在 node-2 或 node-3 上被替代，Deployment 回到 3/3；log-agent 仍在 node-1 上运行。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply: the log-agent DaemonSet (one pod per node) and nginx-deployment.yaml":           "%d. kubectl apply：log-agent DaemonSet（每个节点一个 Pod）和 nginx-deployment.yaml",
			"%d. kubectl cordon node-1: no new pods there, running ones untouched":                              "%d. kubectl cordon node-1：不再调度新 Pod 过去，已在运行的不受影响",
			"%d. kubectl drain node-1 --ignore-daemonsets: every other pod is evicted through the Eviction API": "%d. kubectl drain node-1 --ignore-daemonsets：其余 Pod 都通过 Eviction API 被驱逐",
			"%d. The kubelet stops the evicted pod, the ReplicaSet replaces it, the scheduler avoids node-1":    "%d. kubelet 停掉被驱逐的 Pod，ReplicaSet 补上新的，调度器避开 node-1",
			"%d. Maintenance done: kubectl uncordon node-1":                                                     "%d. 维护完成：kubectl uncordon node-1",
			"%s %s still Running on node-1 (--ignore-daemonsets)":                                               "%s %s 仍在 node-1 上 Running（--ignore-daemonsets）",
			"%s %s still Running on node-1: cordon evicts nothing":                                              "%s %s 仍在 node-1 上 Running：cordon 不驱逐任何 Pod",
			"%s evicted: %s; left: the DaemonSet's %s":                                                          "%s 被驱逐：%s；留下：DaemonSet 的 %s",
			"%s kubectl get deployment nginx: 3/3 again, none on node-1":                                        "%s kubectl get deployment nginx：又是 3/3，没有一个在 node-1 上",
			"%s kubectl get node node-1: Ready,SchedulingDisabled (spec.unschedulable true)":                    "%s kubectl get node node-1：Ready,SchedulingDisabled（spec.unschedulable 为 true）",
			"%s node-1 runs %s and %s": "%s node-1 上运行着 %s 和 %s",
			"%s node-1 schedulable again, taint removed; nginx stays where it is: nothing moves back by itself": "%s node-1 重新可调度，污点已去掉；nginx 留在原处：不会自己搬回来",
			"%s replacement %s runs on %s": "%s 替补 %s 运行在 %s 上",
			"%s the node lifecycle controller added the taint node.kubernetes.io/unschedulable:NoSchedule": "%s 节点生命周期控制器加上了污点 node.kubernetes.io/unschedulable:NoSchedule",
		},
		Run: runCordonDrain,
	})
}

func runCordonDrain(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: the log-agent DaemonSet (one pod per node) and nginx-deployment.yaml")
	for _, file := range []string{"log-agent.yaml", "nginx-deployment.yaml"} {
		if !applyFile(ctx, s, file) {
			return s.Err()
		}
	}
	if !until(ctx, s, 2*time.Minute, "deployment nginx available") || !until(ctx, s, time.Minute, "pods -l app=log-agent count 3") ||
		!until(ctx, s, time.Minute, "pods -l app=log-agent ready") {
		return s.Err()
	}
	onNode1 := podOnNode(ctx, s, "app=nginx", "node-1")
	agent := podOnNode(ctx, s, "app=log-agent", "node-1")
	if onNode1 == nil || agent == nil {
		s.Expect(false, "node-1 runs a pod of nginx and one of log-agent")
		return s.Err()
	}
	s.Expect(true, "node-1 runs %s and %s", onNode1.Name, agent.Name)

	s.Step("kubectl cordon node-1: no new pods there, running ones untouched")
	if err := s.Kubectl.Cordon(ctx, "node-1"); err != nil {
		s.Expect(false, "kubectl cordon node-1: %v", err)
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "node node-1 tainted node.kubernetes.io/unschedulable:NoSchedule") {
		return s.Err()
	}
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
	if err != nil {
		return err
	}
	s.Expect(node.Spec.Unschedulable, "kubectl get node node-1: Ready,SchedulingDisabled (spec.unschedulable true)")
	s.Expect(true, "the node lifecycle controller added the taint node.kubernetes.io/unschedulable:NoSchedule")
	p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", onNode1.Name)
	s.Expect(err == nil && p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning,
		"%s still Running on node-1: cordon evicts nothing", onNode1.Name)

	s.Step("kubectl drain node-1 --ignore-daemonsets: every other pod is evicted through the Eviction API")
	before := map[string]bool{}
	if pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=nginx", ""); err == nil {
		for _, p := range pods {
			before[p.Name] = true
		}
	}
	evicted, err := s.Kubectl.Drain(ctx, "node-1")
	if err != nil {
		s.Expect(false, "kubectl drain node-1: %v", err)
		return s.Err()
	}
	s.Expect(strings.Join(evicted, ",") == "default/"+onNode1.Name, "evicted: %s; left: the DaemonSet's %s", strings.Join(evicted, ", "), agent.Name)

	s.Step("The kubelet stops the evicted pod, the ReplicaSet replaces it, the scheduler avoids node-1")
	if !until(ctx, s, time.Minute, "pod "+onNode1.Name+" gone") || !until(ctx, s, time.Minute, "deployment nginx available") {
		return s.Err()
	}
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=nginx", "")
	if err != nil {
		return err
	}
	for _, p := range pods {
		if !before[p.Name] {
			s.Expect(p.Spec.NodeName != "node-1", "replacement %s runs on %s", p.Name, p.Spec.NodeName)
		}
		if p.Spec.NodeName == "node-1" {
			s.Expect(false, "no nginx pod left on node-1 (found %s)", p.Name)
		}
	}
	s.Expect(len(pods) == 3, "kubectl get deployment nginx: 3/3 again, none on node-1")
	a, err := sim.Get[api.Pod](ctx, s.Cluster, "default", agent.Name)
	s.Expect(err == nil && a.DeletionTimestamp == nil && a.Status.Phase == api.PodRunning && a.Spec.NodeName == "node-1",
		"%s still Running on node-1 (--ignore-daemonsets)", agent.Name)

	s.Step("Maintenance done: kubectl uncordon node-1")
	if err := s.Kubectl.Uncordon(ctx, "node-1"); err != nil {
		s.Expect(false, "kubectl uncordon node-1: %v", err)
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("the unschedulable taint removed from node-1", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-1")
		return err == nil && !n.Spec.Unschedulable && !hasTaint(n, api.TaintNodeUnschedulable, api.TaintEffectNoSchedule), err
	})) {
		return s.Err()
	}
	s.Expect(podOnNode(ctx, s, "app=nginx", "node-1") == nil,
		"node-1 schedulable again, taint removed; nginx stays where it is: nothing moves back by itself")
	return s.Err()
}
