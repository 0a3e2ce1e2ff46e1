// node_down.go: node-down, a node that stops answering (article 2, section 6.3, "a node
// goes NotReady"): its kubelet stops renewing its Lease; after the grace period the node lifecycle
// controller marks it Unknown and taints it unreachable; five minutes later the taint manager evicts
// its pods and their ReplicaSet recreates them on the other nodes; when the kubelet comes back the
// node is Ready again and the taint goes.
package scenarios

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "node-down",
		Summary: "node-2's kubelet stops: Lease not renewed, Ready=Unknown after 50s, unreachable taint, pods evicted after 300s and recreated elsewhere",
		Teaches: `Nobody tells the control plane that a node died: it notices what stopped happening. A kubelet
renews its Lease in kube-node-lease every 10s. The node lifecycle controller (in kube-controller-manager)
looks at every node every 5s; when a node's Lease has not moved for the grace period
(--node-monitor-grace-period, 50s since Kubernetes 1.32), it sets the node's conditions to Unknown
("Kubelet stopped posting node status."), records NodeNotReady, marks the node's pods not Ready, and
taints the node node.kubernetes.io/unreachable:NoExecute. Every pod carries a toleration of that taint
for 300s (added by the DefaultTolerationSeconds admission plugin), so the pods are not evicted at once:
a short network blip should not reshuffle the cluster. After 300s the taint manager deletes them
("Marking for deletion Pod ..."), and their ReplicaSet, seeing too few pods, creates replacements that
the scheduler puts on the nodes that are still Ready. The old pods stay Terminating: only a kubelet
can confirm its containers stopped, and this one is gone. When the kubelet starts again it renews its
Lease, the node is Ready, the controller removes the taint, and the kubelet finishes deleting the pods
it was asked to delete while it was away.

Signs to look for: the Lease's renewTime frozen; Ready=Unknown with reason NodeStatusUnknown about 50s
after the last renewal; the event NodeNotReady; the taint node.kubernetes.io/unreachable:NoExecute;
the event TaintManagerEviction "Marking for deletion Pod default/nginx-..." 300s after the taint; a
replacement pod on another node and the Deployment back at 3/3; after the restart, Ready=True, the
taint gone, and the old pod deleted.`,
		SummaryZH: "node-2 的 kubelet 停了：Lease 不再续约，50s 后 Ready=Unknown，打上 unreachable 污点，300s 后 Pod 被驱逐并在别处重建",
		TeachesZH: `没有人通知控制面某个节点死了：控制面是从“什么事不再发生”察觉的。kubelet 每 10s 在 kube-node-lease 里
续约一次自己的 Lease。节点生命周期控制器（在 kube-controller-manager 里）每 5s 检查一遍所有节点；如
果某个节点的 Lease 在宽限期内（--node-monitor-grace-period，Kubernetes 1.32 起为 50s）一直没动，它就
把该节点的状况设为 Unknown（"Kubelet stopped posting node status."），记录 NodeNotReady，把节点上的
Pod 标为未就绪，并给节点打上污点 node.kubernetes.io/unreachable:NoExecute。每个 Pod 都带着对这个污点
300s 的容忍（由 DefaultTolerationSeconds 准入插件添加），所以 Pod 不会立刻被驱逐：一次短暂的网络抖动
不该让整个集群重新洗牌。300s 后污点管理器删除这些 Pod（"Marking for deletion Pod ..."），它们的
ReplicaSet 发现 Pod 不够，创建替代的 Pod，由调度器放到仍然 Ready 的节点上。旧 Pod 停在 Terminating：
只有 kubelet 能确认自己的容器已经停止，而这个 kubelet 已经不在了。kubelet 重新启动后续约 Lease，节点
变回 Ready，控制器移除污点，kubelet 把它离开期间被要求删除的 Pod 删完。

要看的信号：Lease 的 renewTime 停住不动；最后一次续约约 50s 后 Ready=Unknown，原因
NodeStatusUnknown；事件 NodeNotReady；污点 node.kubernetes.io/unreachable:NoExecute；打污点 300s 后
的事件 TaintManagerEviction "Marking for deletion Pod default/nginx-..."；另一个节点上的替代 Pod，
Deployment 回到 3/3；重启之后 Ready=True，污点消失，旧 Pod 被删除。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. node-2's kubelet stops: no more Lease renewals, no more status":                                                                   "%d. node-2 的 kubelet 停止：不再续约 Lease，不再上报状态",
			"%d. The node lifecycle controller waits out the grace period, then marks node-2 Unknown":                                              "%d. 节点生命周期控制器等过宽限期，把 node-2 标记为 Unknown",
			"%d. node-2 is tainted unreachable:NoExecute; its pod tolerates that for 300s":                                                         "%d. node-2 被打上 unreachable:NoExecute 污点；它上面的 Pod 能容忍 300 秒",
			"%d. 300s later the taint manager evicts the pod, and the ReplicaSet replaces it on a Ready node":                                      "%d. 300 秒后污点管理器驱逐该 Pod，ReplicaSet 在 Ready 的节点上补一个新的",
			"%d. node-2's kubelet starts again":                                                                                                    "%d. node-2 的 kubelet 重新启动",
			"%s pod %s runs on node-2":                                                                                                             "%s Pod %s 运行在 node-2 上",
			"%s it tolerates node.kubernetes.io/unreachable:NoExecute for 300s (DefaultTolerationSeconds admission)":                               "%s 它容忍 node.kubernetes.io/unreachable:NoExecute 300 秒（DefaultTolerationSeconds 准入控制插件加上的）",
			"%s Lease kube-node-lease/node-2: renewTime still %s":                                                                                  "%s Lease kube-node-lease/node-2：renewTime 仍是 %s（心跳停了）",
			"%s node-2 went Unknown %s after its last renewal: the 50s grace period counts from the monitor pass (every 5s) that saw that renewal": "%s node-2 在最后一次续约 %s 后变为 Unknown：50 秒的宽限期从看到那次续约的那一轮检查（每 5 秒一轮）算起",
			"%s kubectl describe node node-2: Ready Unknown, NodeStatusUnknown, Kubelet stopped posting node status.":                              "%s kubectl describe node node-2：Ready Unknown，NodeStatusUnknown，Kubelet stopped posting node status.（kubelet 不再上报）",
			"%s event NodeNotReady: Node node-2 status is now: NodeNotReady":                                                                       "%s 事件 NodeNotReady：Node node-2 status is now: NodeNotReady",
			"%s pod %s: Ready=False (set by the controller), but still Running as far as the API knows":                                            "%s Pod %s：Ready=False（由控制器设置），但在 API 看来仍是 Running",
			"%s evicted %s after the taint: tolerationSeconds 300":                                                                                 "%s 加污点后驱逐了 %s：tolerationSeconds 300",
			"%s kubectl get pods: %s is Terminating: only node-2's kubelet can confirm its container stopped":                                      "%s kubectl get pods：%s 处于 Terminating：只有 node-2 的 kubelet 能确认它的容器已停止",
			"%s replacement %s runs on %s; the Deployment is back at 3/3 available":                                                                "%s 替补 %s 运行在 %s 上；Deployment 回到 3/3 可用（期望状态）",
			"%s node-2 is Ready again (after a first report of NotReady: a restarted kubelet's PLEG has not relisted yet)":                         "%s node-2 重新 Ready（之前先报了一次 NotReady：重启后的 kubelet 的 PLEG 还没 relist）",
			"%s node-2's kubelet stopped the old container and deleted %s":                                                                         "%s node-2 的 kubelet 停掉旧容器并删除了 %s",
			"%s the node lifecycle controller removed the NoExecute taint":                                                                         "%s 节点生命周期控制器去掉了 NoExecute 污点",
		},
		Run: runNodeDown,
	})
}

func runNodeDown(ctx context.Context, s *sim.Session) error {
	victim := nginxWithAPodOn(ctx, s, "node-2")
	if victim == nil {
		return s.Err()
	}
	s.Expect(true, "pod %s runs on node-2", victim.Name)
	s.Expect(tolerates(victim, api.TaintNodeUnreachable, 300),
		"it tolerates node.kubernetes.io/unreachable:NoExecute for 300s (DefaultTolerationSeconds admission)")

	s.Step("node-2's kubelet stops: no more Lease renewals, no more status")
	lease, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-2")
	if err != nil {
		return err
	}
	if err := s.Stop("kubelet/node-2"); err != nil {
		return err
	}

	s.Step("The node lifecycle controller waits out the grace period, then marks node-2 Unknown")
	if !until(ctx, s, 2*time.Minute, "node node-2 unknown") {
		return s.Err()
	}
	now, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-2")
	if err != nil {
		return err
	}
	s.Expect(now.Spec.RenewTime.Equal(lease.Spec.RenewTime.Time),
		"Lease kube-node-lease/node-2: renewTime still %s", lease.Spec.RenewTime.UTC().Format("15:04:05"))
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
	if err != nil {
		return err
	}
	ready := nodeCondition(node, api.NodeReady)
	// The times are the cluster's own (the condition's lastTransitionTime), not when this scenario
	// looked, which in real time trails them.
	silent := ready.LastTransitionTime.Sub(lease.Spec.RenewTime.Time)
	s.Expect(silent >= 50*time.Second && silent <= 60*time.Second+lateness(s),
		"node-2 went Unknown %s after its last renewal: the 50s grace period counts from the monitor pass (every 5s) that saw that renewal",
		silent.Round(time.Second))
	s.Expect(ready.Reason == "NodeStatusUnknown" && ready.Message == "Kubelet stopped posting node status.",
		"kubectl describe node node-2: Ready Unknown, NodeStatusUnknown, Kubelet stopped posting node status.")
	notReady := func() bool {
		events := objectsNow[api.Event](ctx, s, "default", "")
		return sim.FindEvent(about(events, "node-2"), "NodeNotReady", "Node node-2 status is now: NodeNotReady") != nil
	}
	s.Expect(settled(ctx, s, notReady), "event NodeNotReady: Node node-2 status is now: NodeNotReady")
	podNotReady := func() bool {
		p := objectNow[api.Pod](ctx, s, "default", victim.Name)
		return p != nil && podReady(p) == api.ConditionFalse && p.Status.Phase == api.PodRunning
	}
	s.Expect(settled(ctx, s, podNotReady), "pod %s: Ready=False (set by the controller), but still Running as far as the API knows", victim.Name)

	s.Step("node-2 is tainted unreachable:NoExecute; its pod tolerates that for 300s")
	if !until(ctx, s, time.Minute, "node node-2 tainted node.kubernetes.io/unreachable:NoExecute") {
		return s.Err()
	}
	node, err = sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
	if err != nil {
		return err
	}
	taintedAt := s.Now()
	for _, t := range node.Spec.Taints {
		if t.Key == api.TaintNodeUnreachable && t.Effect == api.TaintEffectNoExecute && t.TimeAdded != nil {
			taintedAt = t.TimeAdded.Time
		}
	}

	s.Step("300s later the taint manager evicts the pod, and the ReplicaSet replaces it on a Ready node")
	evicted := fmt.Sprintf("event TaintManagerEviction for pod/%s Marking for deletion Pod default/%s", victim.Name, victim.Name)
	if !until(ctx, s, 6*time.Minute, evicted) {
		return s.Err()
	}
	evictedAt := s.Now()
	if e := sim.FindEvent(objectsNow[api.Event](ctx, s, "default", ""), "TaintManagerEviction", "Marking for deletion Pod default/"+victim.Name); e != nil {
		evictedAt = e.FirstTimestamp.Time
	}
	waited := evictedAt.Sub(taintedAt)
	s.Expect(waited >= 295*time.Second && waited <= 305*time.Second+lateness(s), "evicted %s after the taint: tolerationSeconds 300", waited.Round(time.Second))
	if !until(ctx, s, time.Minute, "deployment nginx available") {
		return s.Err()
	}
	old, err := sim.Get[api.Pod](ctx, s.Cluster, "default", victim.Name)
	s.Expect(err == nil && old.DeletionTimestamp != nil,
		"kubectl get pods: %s is Terminating: only node-2's kubelet can confirm its container stopped", victim.Name)
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", "app=nginx", "")
	if err != nil {
		return err
	}
	for _, p := range pods {
		if p.DeletionTimestamp == nil && p.Spec.NodeName != "node-2" && p.CreationTimestamp.After(taintedAt) {
			s.Expect(true, "replacement %s runs on %s; the Deployment is back at 3/3 available", p.Name, p.Spec.NodeName)
		}
	}

	s.Step("node-2's kubelet starts again")
	if err := s.Start("kubelet/node-2"); err != nil {
		return err
	}
	if !until(ctx, s, time.Minute, "node node-2 ready") {
		return s.Err()
	}
	s.Expect(true, "node-2 is Ready again (after a first report of NotReady: a restarted kubelet's PLEG has not relisted yet)")
	if !s.Until(ctx, time.Minute, sim.Check("no NoExecute taint left on node-2", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
		return err == nil && !hasTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute) &&
			!hasTaint(n, api.TaintNodeNotReady, api.TaintEffectNoExecute), err
	})) {
		return s.Err()
	}
	s.Expect(true, "the node lifecycle controller removed the NoExecute taint")
	if !until(ctx, s, time.Minute, "pod "+victim.Name+" gone") {
		return s.Err()
	}
	s.Expect(true, "node-2's kubelet stopped the old container and deleted %s", victim.Name)
	return s.Err()
}

// nginxWithAPodOn is the node scenarios' common start: the articles' Deployment, 3 replicas one per
// node, available; it returns the pod on node, or nil with the unmet sign recorded.
func nginxWithAPodOn(ctx context.Context, s *sim.Session, node string) *api.Pod {
	s.Step("kubectl apply -f nginx-deployment.yaml: 3 replicas, one on each node")
	if !applyFile(ctx, s, "nginx-deployment.yaml") {
		return nil
	}
	if !until(ctx, s, 2*time.Minute, "deployment nginx available") {
		return nil
	}
	pod := podOnNode(ctx, s, "app=nginx", node)
	if pod == nil {
		s.Expect(false, "a pod of nginx runs on %s", node)
	}
	return pod
}

// podOnNode is a pod matching selector that runs on node and is not being deleted, or nil.
func podOnNode(ctx context.Context, s *sim.Session, selector, node string) *api.Pod {
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", selector, "")
	if err != nil {
		return nil
	}
	for _, p := range pods {
		if p.Spec.NodeName == node && p.DeletionTimestamp == nil {
			return p
		}
	}
	return nil
}

// tolerates reports whether the pod tolerates the NoExecute taint key for exactly seconds.
func tolerates(p *api.Pod, key string, seconds int64) bool {
	for _, t := range p.Spec.Tolerations {
		if t.Key == key && t.Effect == api.TaintEffectNoExecute && t.TolerationSeconds != nil && *t.TolerationSeconds == seconds {
			return true
		}
	}
	return false
}
