// runtime_hung.go: runtime-hung, containerd stops answering on node-2 (article 2, section
// 6.3, "PLEG is not healthy"): the kubelet's relists stop completing, and three minutes later it
// reports the node NotReady; the containers, kept alive by their shims, go on running; once the
// runtime answers again the node is Ready and nothing was restarted.
package scenarios

import (
	"context"
	"fmt"
	"strings"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "runtime-hung",
		StepOnly: true,
		Summary:  "containerd on node-2 hangs: PLEG is not healthy after 3m, the node goes NotReady, its containers keep running",
		Teaches: `The kubelet never learns from containerd that something changed: it asks. Every 5 seconds it
checks the runtime's status, and every second its PLEG (pod lifecycle event generator) lists every
sandbox and container and compares with the last list. When containerd hangs, those calls wait for the
kubelet's runtimeRequestTimeout (2 minutes) before they fail. After 30 seconds without an answer the
kubelet reports the node Ready=False, reason KubeletNotReady, "container runtime is down"; after 3
minutes without a completed relist the message becomes "[container runtime is down, PLEG is not
healthy: pleg was last seen active 3m...s ago; threshold is 3m0s]". This is not node-down: the kubelet
is alive and still renews its Lease, so the node is NotReady (False), not Unknown. The node lifecycle
controller taints it node.kubernetes.io/not-ready (NoSchedule, and NoExecute, which evicts pods after
their 300s toleration). The containers themselves are not touched: each is kept running by its
containerd-shim, which does not need containerd. When containerd answers again (here soon after, well
within the 300s toleration), the next relist succeeds, the node is Ready, the taints go, and the pods
never restarted.

Signs to look for: node-2 Ready=False with "container runtime is down" about 30s after the hang and
the event NodeNotReady; the kubelet's trace "PLEG relist failed after 2m0s ... DeadlineExceeded"; the
"PLEG is not healthy" message after 3 minutes; the Lease still renewed; the taint
node.kubernetes.io/not-ready:NoExecute; the pod's container with the same ID, still running, restart
count 0, after the runtime recovers.`,
		SummaryZH: "node-2 上的 containerd 挂住：3m 后 PLEG is not healthy，节点变为 NotReady，容器照常运行",
		TeachesZH: `kubelet 从来不是由 containerd 通知有变化的：它是去问的。每 5 秒它检查一次运行时状态，每秒它的 PLEG
（Pod 生命周期事件生成器）列出所有沙箱和容器，与上一次的列表比较。containerd 挂住时，这些调用要等到
kubelet 的 runtimeRequestTimeout（2 分钟）才失败。30 秒没有回答后，kubelet 报告节点 Ready=False，原
因 KubeletNotReady，"container runtime is down"；3 分钟没有完成一次 relist 后，消息变成 "[container
runtime is down, PLEG is not healthy: pleg was last seen active 3m...s ago; threshold is 3m0s]"。这
不是 node-down：kubelet 还活着，仍在续约 Lease，所以节点是 NotReady（False），而不是 Unknown。节点生
命周期控制器给它打上污点 node.kubernetes.io/not-ready（NoSchedule，以及 NoExecute，后者在 Pod 的
300s 容忍到期后驱逐 Pod）。容器本身不受影响：每个容器由它的 containerd-shim 维持运行，shim 不需要
containerd。containerd 重新响应后（这里很快就恢复了，远在 300s 容忍期之内），下一次 relist 成功，节
点 Ready，污点移除，Pod 从未重启。

要看的信号：挂住约 30s 后 node-2 Ready=False，"container runtime is down"，以及事件 NodeNotReady；
kubelet 的 trace "PLEG relist failed after 2m0s ... DeadlineExceeded"；3 分钟后的 "PLEG is not
healthy" 消息；Lease 仍在续约；污点 node.kubernetes.io/not-ready:NoExecute；运行时恢复后，Pod 的容器
ID 不变，仍在运行，重启次数为 0。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. containerd on node-2 stops answering":                                                                                                                  "%d. node-2 上的 containerd 不再响应",
			"%d. 30 seconds without an answer: the kubelet reports the container runtime is down, node-2 NotReady":                                                      "%d. 30 秒没有应答：kubelet 报告 container runtime is down，node-2 变为 NotReady",
			"%d. Three minutes without a completed relist: PLEG is not healthy either":                                                                                  "%d. 三分钟没有完成一次 relist：PLEG 也不健康了",
			"%s %s after the runtime hung: 30s after the last status check (every 5s) that containerd answered":                                                         "%s 在运行时卡住 %s 之后：距 containerd 最后一次应答状态检查（每 5 秒一次）已有 30 秒",
			"%s kubectl describe node node-2: %s":                                                                                                                       "%s kubectl describe node node-2 显示：%s",
			"%d. containerd answers again: the next relist succeeds and node-2 is Ready":                                                                                "%d. containerd 恢复响应：下一次 relist 成功，node-2 恢复 Ready",
			"%d. The container ran through it all: ask containerd on node-2 directly (crictl ps)":                                                                       "%d. 容器一直在运行：直接问 node-2 上的 containerd（crictl ps）",
			"%s %s after the runtime hung":                                                                                                                              "%s 在运行时卡住 %s 之后",
			"%s Lease kube-node-lease/node-2 renewed %s ago: the kubelet is alive, so the node is NotReady, not Unknown":                                                "%s Lease kube-node-lease/node-2 在 %s 前续约过：kubelet 还活着，所以节点是 NotReady 而不是 Unknown",
			"%s crictl ps on node-2: the same container, running since before the hang (%d running)":                                                                    "%s 在 node-2 上 crictl ps：还是同一个容器，从卡住之前一直运行至今（%d 个在运行）",
			"%s event NodeNotReady: Node node-2 status is now: NodeNotReady, from the kubelet itself":                                                                   "%s 事件 NodeNotReady：Node node-2 status is now: NodeNotReady，来自 kubelet 自己",
			"%s kubectl describe node node-2: Ready False, KubeletNotReady, %s":                                                                                         "%s kubectl describe node node-2 显示：Ready False，KubeletNotReady，%s",
			"%s kubectl get pod %s: RESTARTS 0, same container ID":                                                                                                      "%s kubectl get pod %s：重启 0 次，容器 ID 不变",
			"%s kubelet log on node-2: PLEG relist failed ... rpc error: code = DeadlineExceeded desc = context deadline exceeded (after the 2m runtimeRequestTimeout)": "%s node-2 的 kubelet 日志：PLEG relist failed ... rpc error: code = DeadlineExceeded desc = context deadline exceeded（2 分钟的 runtimeRequestTimeout 之后）",
			"%s node-2 Ready, and the not-ready taints removed":                                                                                                         "%s node-2 Ready，not-ready 污点已去掉",
			"%s pod %s runs on node-2: container %s":                                                                                                                    "%s Pod %s 运行在 node-2 上：容器 %s",
			"%s pod %s: still Running, not evicted":                                                                                                                     "%s Pod %s：仍在 Running，没有被驱逐",
			"%s the node lifecycle controller tainted node-2 node.kubernetes.io/not-ready:NoExecute (pods tolerate it for 300s)":                                        "%s 节点生命周期控制器给 node-2 加上污点 node.kubernetes.io/not-ready:NoExecute（Pod 容忍它 300 秒）",
		},
		Run: runRuntimeHung,
	})
}

func runRuntimeHung(ctx context.Context, s *sim.Session) error {
	logs := kubeletLogs(s)

	pod := nginxWithAPodOn(ctx, s, "node-2")
	if pod == nil {
		return s.Err()
	}
	before := containerIDs(pod)
	s.Expect(true, "pod %s runs on node-2: container %s", pod.Name, strings.Join(before, ", "))

	s.Step("containerd on node-2 stops answering")
	hungAt := s.Now()
	if err := s.RuntimeFault("node-2", fakeruntime.FaultHung{}); err != nil {
		return err
	}

	s.Step("30 seconds without an answer: the kubelet reports the container runtime is down, node-2 NotReady")
	if !until(ctx, s, 5*time.Minute, "node node-2 notready") {
		return s.Err()
	}
	node, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
	if err != nil {
		return err
	}
	ready := nodeCondition(node, api.NodeReady)
	s.Expect(ready.Reason == "KubeletNotReady" && strings.HasPrefix(ready.Message, "container runtime is down"),
		"kubectl describe node node-2: Ready False, KubeletNotReady, %s", ready.Message)
	down := s.Now().Sub(hungAt)
	s.Expect(down > 25*time.Second && down < time.Minute,
		"%s after the runtime hung: 30s after the last status check (every 5s) that containerd answered", down.Round(time.Second))

	s.Step("Three minutes without a completed relist: PLEG is not healthy either")
	if !s.Until(ctx, 5*time.Minute, sim.Check("node-2's Ready message names the PLEG", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
		return err == nil && strings.Contains(nodeCondition(n, api.NodeReady).Message, "PLEG is not healthy"), err
	})) {
		return s.Err()
	}
	s.Expect(says(logs.Lines(), "kubelet/node-2", "PLEG relist failed after 2m0s: rpc error: code = DeadlineExceeded"),
		"kubelet log on node-2: PLEG relist failed ... rpc error: code = DeadlineExceeded desc = context deadline exceeded (after the 2m runtimeRequestTimeout)")
	if node, err = sim.Get[api.Node](ctx, s.Cluster, "", "node-2"); err != nil {
		return err
	}
	ready = nodeCondition(node, api.NodeReady)
	s.Expect(strings.HasPrefix(ready.Message, "[container runtime is down, PLEG is not healthy: pleg was last seen active 3m"),
		"kubectl describe node node-2: %s", ready.Message)
	s.Expect(s.Now().Sub(hungAt) >= 3*time.Minute, "%s after the runtime hung", s.Now().Sub(hungAt).Round(time.Second))
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	s.Expect(sim.FindEvent(about(events, "node-2"), "NodeNotReady", "Node node-2 status is now: NodeNotReady") != nil,
		"event NodeNotReady: Node node-2 status is now: NodeNotReady, from the kubelet itself")
	lease, err := sim.Get[api.Lease](ctx, s.Cluster, api.NamespaceNodeLease, "node-2")
	if err != nil {
		return err
	}
	age := s.Now().Sub(lease.Spec.RenewTime.Time)
	s.Expect(age <= 10*time.Second, "Lease kube-node-lease/node-2 renewed %s ago: the kubelet is alive, so the node is NotReady, not Unknown",
		age.Round(time.Second))
	if !until(ctx, s, time.Minute, "node node-2 tainted node.kubernetes.io/not-ready:NoExecute") {
		return s.Err()
	}
	s.Expect(true, "the node lifecycle controller tainted node-2 node.kubernetes.io/not-ready:NoExecute (pods tolerate it for 300s)")
	p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", pod.Name)
	s.Expect(err == nil && p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil,
		"pod %s: still Running, not evicted", pod.Name)

	s.Step("containerd answers again: the next relist succeeds and node-2 is Ready")
	if err := s.RuntimeFault("node-2", nil); err != nil {
		return err
	}
	if !until(ctx, s, time.Minute, "node node-2 ready") {
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("no NoExecute taint left on node-2", func() (bool, error) {
		n, err := sim.Get[api.Node](ctx, s.Cluster, "", "node-2")
		return err == nil && !hasTaint(n, api.TaintNodeNotReady, api.TaintEffectNoExecute), err
	})) {
		return s.Err()
	}
	s.Expect(true, "node-2 Ready, and the not-ready taints removed")

	s.Step("The container ran through it all: ask containerd on node-2 directly (crictl ps)")
	n, _ := s.Node("node-2")
	containers, err := n.Runtime.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: pod.UID}})
	if err != nil {
		return err
	}
	running := []string{}
	for _, c := range containers {
		if c.State == fakeruntime.ContainerRunning {
			running = append(running, "containerd://"+c.ID)
		}
	}
	s.Expect(strings.Join(running, ",") == strings.Join(before, ","),
		"crictl ps on node-2: the same container, running since before the hang (%d running)", len(running))
	p, err = sim.Get[api.Pod](ctx, s.Cluster, "default", pod.Name)
	s.Expect(err == nil && restarts(p) == 0 && fmt.Sprint(containerIDs(p)) == fmt.Sprint(before),
		"kubectl get pod %s: RESTARTS 0, same container ID", pod.Name)
	return s.Err()
}

// containerIDs are the pod's current container IDs ("containerd://..."), in spec order.
func containerIDs(p *api.Pod) []string {
	var ids []string
	for _, cs := range p.Status.ContainerStatuses {
		ids = append(ids, cs.ContainerID)
	}
	return ids
}
