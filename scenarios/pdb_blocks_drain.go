// pdb_blocks_drain.go: pdb-blocks-drain, a drain held back by a PodDisruptionBudget. web runs six
// pods, two per node, under a budget of maxUnavailable 1. Draining node-1 evicts its first web pod at
// once (the budget allows one disruption, and the apiserver takes it); the second eviction is
// refused with 429 until the first pod's replacement is Ready on another node, and kubectl drain
// retries every 5 seconds, saying so, until it may go.
package scenarios

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:     "pdb-blocks-drain",
		StepOnly: true,
		Summary:  "drain node-1 under a PodDisruptionBudget (maxUnavailable 1): the second eviction gets 429 \"Cannot evict pod as it would violate the pod's disruption budget.\", and drain retries until a replacement is Ready elsewhere",
		Teaches: `A PodDisruptionBudget limits voluntary disruptions: how many of the pods its selector picks may be
down at once because someone asked (a drain, an eviction), not because a node failed. Its status is
the disruption controller's count: expectedPods (here the Deployment's 6 replicas), desiredHealthy (6
minus maxUnavailable 1 = 5), currentHealthy (pods that are Ready and not going away), and
disruptionsAllowed, the difference. kubectl drain does not delete pods: it asks the Eviction API,
which reads that number. Draining node-1, whose two web pods count toward the budget: the first
eviction finds disruptionsAllowed 1, takes it (the apiserver writes 0 and records the pod in
disruptedPods before deleting it, so two evictions cannot both take the last disruption) and the pod
goes. The second finds 0 and is refused with 429 TooManyRequests, "Cannot evict pod as it would
violate the pod's disruption budget." with a DisruptionBudget cause; kubectl drain says so and
retries every 5 seconds. Meanwhile the ReplicaSet replaces the evicted pod on another node (node-1 is
cordoned); once the replacement is Ready, the controller counts 6 healthy and allows one disruption
again, and drain's next retry evicts the second pod.

Signs to look for: the budget's status (expected 6, desired 5, healthy 6, disruptionsAllowed 1,
DisruptionAllowed=True); the apiserver allowing the first eviction "by PodDisruptionBudget web-pdb
(disruptionsAllowed now 0)"; kubectl's "error when evicting pods/"web-..." -n "default" (will retry
after 5s): Cannot evict pod as it would violate the pod's disruption budget."; the second eviction
allowed once the replacement is Ready; node-1 empty and web 6/6 available at the end.`,
		SummaryZH: "在 PodDisruptionBudget（maxUnavailable 1）下 drain node-1：第二次驱逐得到 429 \"Cannot evict pod as it would violate the pod's disruption budget.\"，drain 一直重试，直到别处的替代 Pod 就绪",
		TeachesZH: `PodDisruptionBudget 限制的是自愿中断：它的选择器选中的 Pod 里，最多能有几个因为有人要求（drain、驱逐）
而同时不可用，而不是因为节点故障。它的 status 是 disruption 控制器数出来的：expectedPods（这里是
Deployment 的 6 个副本）、desiredHealthy（6 减去 maxUnavailable 1 = 5）、currentHealthy（Ready 且没在
离开的 Pod），以及两者之差 disruptionsAllowed。kubectl drain 并不删除 Pod：它请求 Eviction API，而后者
读的就是这个数。drain node-1 时，它上面的两个 web Pod 都受这个预算约束：第一次驱逐看到
disruptionsAllowed 为 1，就占用它（apiserver 先写入 0、把这个 Pod 记进 disruptedPods，再删除 Pod，这样
两次驱逐不可能同时用掉最后一次中断），Pod 离开。第二次看到 0，被以 429 TooManyRequests 拒绝："Cannot
evict pod as it would violate the pod's disruption budget."，附带 DisruptionBudget 原因；kubectl drain
打印这条信息，每 5 秒重试一次。与此同时 ReplicaSet 在另一个节点上（node-1 已被 cordon）替换被驱逐的
Pod；替代 Pod Ready 之后，控制器数到 6 个健康的，又允许一次中断，drain 的下一次重试就驱逐了第二个 Pod。

要看的信号：预算的 status（expected 6、desired 5、healthy 6、disruptionsAllowed 1、DisruptionAllowed=True）；
apiserver 允许第一次驱逐 "by PodDisruptionBudget web-pdb (disruptionsAllowed now 0)"；kubectl 的
"error when evicting pods/"web-..." -n "default" (will retry after 5s): Cannot evict pod as it would
violate the pod's disruption budget."；替代 Pod Ready 后第二次驱逐被允许；最后 node-1 上没有 Pod，web 6/6 可用。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f web.yaml: 6 web pods and PodDisruptionBudget web-pdb (maxUnavailable 1)": "%d. kubectl apply -f web.yaml：6 个 web Pod 和 PodDisruptionBudget web-pdb（maxUnavailable 1）",
			"%d. kubectl drain node-1 --ignore-daemonsets":                                                 "%d. kubectl drain node-1 --ignore-daemonsets：腾空 node-1",
			"%s web runs two pods per node (%s)":                                                           "%s web 每个节点运行两个 Pod（%s）",
			"%s kubectl get pdb web-pdb: %s":                                                               "%s kubectl get pdb web-pdb（中断预算）：%s",
			"%s the first eviction was allowed and took the one disruption: %s":                            "%s 第一次驱逐被允许，用掉了唯一一次中断：%s",
			"%s kubectl drain: %s":                                                                         "%s kubectl drain（驱逐被拒后的输出）：%s",
			"%s drain evicted %s once its replacement was Ready (%d retries, %s)":                          "%s 替代 Pod Ready 之后，drain 驱逐了 %s（重试 %d 次，%s）",
			"%s node-1 runs no web pod; deployment web: %d/%d available":                                   "%s node-1 上没有 web Pod；deployment web：%d/%d 可用",
		},
		Run: runPDBBlocksDrain,
	})
}

func runPDBBlocksDrain(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f web.yaml: 6 web pods and PodDisruptionBudget web-pdb (maxUnavailable 1)")
	if !applyFile(ctx, s, "web-pdb.yaml") || !until(ctx, s, 0, "deployment web available") {
		return s.Err()
	}
	_, placement, _ := schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web"))
	s.Expect(placement == "node-1: 2, node-2: 2, node-3: 2", "web runs two pods per node (%s)", placement)
	var pdb *api.PodDisruptionBudget
	settled(ctx, s, func() bool {
		pdb = objectNow[api.PodDisruptionBudget](ctx, s, "default", "web-pdb")
		return pdb != nil && pdb.Status.CurrentHealthy == 6
	})
	st := pdb.Status
	s.Expect(st.ExpectedPods == 6 && st.DesiredHealthy == 5 && st.CurrentHealthy == 6 && st.DisruptionsAllowed == 1 && allowed(pdb) == "True",
		"kubectl get pdb web-pdb: %s", fmt.Sprintf("MAX UNAVAILABLE 1, ALLOWED DISRUPTIONS %d (expected %d, desired %d, healthy %d; DisruptionAllowed=%s)",
			st.DisruptionsAllowed, st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, allowed(pdb)))

	s.Step("kubectl drain node-1 --ignore-daemonsets")
	tap := s.Tap(func(e trace.Event) bool { return e.Action == "evict" || e.Action == "drain" })
	start := s.Now()
	evicted, err := s.Kubectl.Drain(ctx, "node-1")
	if err != nil || len(evicted) != 2 {
		s.Expect(false, "kubectl drain: %s", fmt.Sprint(err))
		return s.Err()
	}
	lines := tap.Lines()
	first, _ := sim.FindLine(lines, "kube-apiserver", "allowed by PodDisruptionBudget web-pdb (disruptionsAllowed now 0)")
	s.Expect(first.Message != "", "the first eviction was allowed and took the one disruption: %s", first.Message)
	second := strings.TrimPrefix(evicted[1], "default/")
	refusal := fmt.Sprintf("error when evicting pods/%q -n %q (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.", second, "default")
	s.Expect(says(lines, "kubectl", refusal), "kubectl drain: %s", refusal)
	retries := 0
	for _, e := range lines {
		if e.Component == "kubectl" && strings.HasPrefix(e.Message, "error when evicting") {
			retries++
		}
	}
	s.Expect(retries > 0, "drain evicted %s once its replacement was Ready (%d retries, %s)", second, retries, s.Now().Sub(start))
	if !until(ctx, s, 0, "deployment web available", "pods -l app=web count 6") {
		return s.Err()
	}
	perNode, _, _ := schedPlacement(live(objectsNow[api.Pod](ctx, s, "default", "app=web")))
	d := objectNow[api.Deployment](ctx, s, "default", "web")
	s.Expect(perNode["node-1"] == 0 && d.Status.AvailableReplicas == 6, "node-1 runs no web pod; deployment web: %d/%d available", d.Status.AvailableReplicas, *d.Spec.Replicas)
	return s.Err()
}

// allowed is the status of the budget's DisruptionAllowed condition.
func allowed(pdb *api.PodDisruptionBudget) string {
	for _, c := range pdb.Status.Conditions {
		if c.Type == api.DisruptionAllowedCondition {
			return string(c.Status)
		}
	}
	return "none"
}
