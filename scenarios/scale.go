// scale.go: scale (article 1, section 6.2; article 2, section 6.2): `kubectl scale` the nginx
// Deployment from 3 to 5 and then to 2. The Deployment controller passes the number on to its
// ReplicaSet, and the ReplicaSet controller creates or deletes pods. Scaling up happens while every
// node is cordoned, so the two new pods cannot be scheduled; scaling down then shows which pods a
// ReplicaSet removes first: the ones that serve least (unscheduled, then not ready, then ready for
// the shortest time).
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "scale",
		StepOnly: true,
		Summary:  "kubectl scale the nginx Deployment 3 -> 5 -> 2: which pods are created, and which are deleted first",
		Teaches: `kubectl scale writes spec.replicas through the Deployment's scale subresource. The Deployment
controller resizes its ReplicaSet ("Scaled up replica set nginx-<hash> from 3 to 5"), and the ReplicaSet
controller creates the missing pods. Here the nodes are cordoned first (a maintenance window), so the two
new pods stay Pending: the scheduler reports "0/3 nodes are available: 3 node(s) were unschedulable."
Scaling down to 2 then makes the ReplicaSet choose 3 pods to delete. It ranks them as Kubernetes'
ActivePodsWithRanks does: unscheduled before scheduled, Pending before Running, not ready before ready,
ready for less time before longer, more restarts before fewer, newer before older.

Signs to look for: "Scaled up replica set ... from 3 to 5" and two "Created pod" events; the
FailedScheduling message; "Scaled down replica set ... from 5 to 2"; the ReplicaSet controller's
"delete 3 pods" line listing the two unassigned Pending pods first; the 2 pods left are Running ones.`,
		SummaryZH: "kubectl scale 把 nginx Deployment 从 3 扩到 5 再缩到 2：新建哪些 Pod，先删哪些",
		TeachesZH: `kubectl scale 通过 Deployment 的 scale 子资源写 spec.replicas。Deployment 控制器调整它的 ReplicaSet
的大小（"Scaled up replica set nginx-<hash> from 3 to 5"），ReplicaSet 控制器再补建缺的 Pod。这里先
把节点都 cordon 了（一个维护窗口），所以两个新 Pod 一直 Pending：调度器报告 "0/3 nodes are
available: 3 node(s) were unschedulable."。接着缩到 2，ReplicaSet 要挑 3 个 Pod 删掉。挑法和
Kubernetes 的 ActivePodsWithRanks 一样：未调度的先于已调度的，Pending 先于 Running，未就绪先于已就
绪，就绪时间短的先于时间长的，重启次数多的先于少的，新的先于旧的。

要看的信号："Scaled up replica set ... from 3 to 5" 和两条 "Created pod" 事件；FailedScheduling 的消
息；"Scaled down replica set ... from 5 to 2"；ReplicaSet 控制器 "delete 3 pods" 那一行，排在最前的
是两个未分配节点的 Pending Pod；剩下的 2 个 Pod 都是 Running 的。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl cordon every node (a maintenance window): running pods stay, new ones cannot land":      "%d. kubectl cordon 所有节点（维护窗口）：已运行的 Pod 留着，新的 Pod 无处可去",
			"%d. kubectl scale deployment/nginx --replicas=5: the ReplicaSet creates 2 pods, which stay Pending": "%d. kubectl scale deployment/nginx --replicas=5：ReplicaSet 新建 2 个 Pod，它们一直 Pending",
			"%d. kubectl scale deployment/nginx --replicas=2: the ReplicaSet deletes 3, the least useful first":  "%d. kubectl scale deployment/nginx --replicas=2：ReplicaSet 删掉 3 个，最没用的先删",
			"%d. kubectl uncordon every node: nothing is Pending any more, the Deployment is 2/2":                "%d. kubectl uncordon 所有节点：没有 Pending 的 Pod 了，Deployment 为 2/2",
			"%s event ScalingReplicaSet: Scaled up replica set nginx-... from 3 to 5":                            "%s 事件 ScalingReplicaSet：Scaled up replica set nginx-... from 3 to 5",
			"%s 2 more SuccessfulCreate events (5 in all)":                                                       "%s 又多了 2 个 SuccessfulCreate 事件（共 5 个）",
			"%s kubectl get pods: 5 pods, 2 of them Pending with no node: %v":                                    "%s kubectl get pods：5 个 Pod，其中 2 个 Pending、没有节点：%v",
			"%s event FailedScheduling: 0/3 nodes are available: 3 node(s) were unschedulable.":                  "%s 事件 FailedScheduling：0/3 nodes are available: 3 node(s) were unschedulable.（调度器找不到可用节点）",
			"%s event ScalingReplicaSet: Scaled down replica set nginx-... from 5 to 2":                          "%s 事件 ScalingReplicaSet：Scaled down replica set nginx-... from 5 to 2",
			"%s 3 SuccessfulDelete events: the 2 Pending pods and one Running pod":                               "%s 3 个 SuccessfulDelete 事件：2 个 Pending 的 Pod 和 1 个 Running 的 Pod",
			"%s the unscheduled pod %s was deleted":                                                              "%s 未调度的 Pod %s 被删除",
			"%s the Running pod deleted, %s, ties with the others on ready time and age and comes first by UID":  "%s 被删除的 Running Pod %s 与其他 Pod 的就绪时间和存活时间都相同，按 UID 排在最前",
			"%s the 2 pods kept are original, Running ones: %s":                                                  "%s 保留下来的 2 个 Pod 都是原来 Running 的：%s",
			"%s kubectl get deployment nginx: READY 2/2, AVAILABLE 2":                                            "%s kubectl get deployment nginx：READY 2/2，AVAILABLE 2（达到期望状态）",
		},
		Run: runScale,
	})
}

func runScale(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	original, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}

	s.Step("kubectl cordon every node (a maintenance window): running pods stay, new ones cannot land")
	for _, node := range s.NodeNames() {
		if err := s.Kubectl.Cordon(ctx, node); err != nil {
			s.Expect(false, "kubectl cordon %s: %v", node, err)
			return s.Err()
		}
	}

	s.Step("kubectl scale deployment/nginx --replicas=5: the ReplicaSet creates 2 pods, which stay Pending")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 5); err != nil {
		s.Expect(false, "kubectl scale --replicas=5: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=nginx count 5", "event FailedScheduling") {
		return s.Err()
	}
	pods, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	var pending []string
	for _, p := range pods {
		if p.Spec.NodeName == "" {
			pending = append(pending, p.Name)
		}
	}
	events := objectsNow[api.Event](ctx, s, "default", "")
	s.Expect(sim.CountEvents(events, "ScalingReplicaSet", "from 3 to 5") == 1, "event ScalingReplicaSet: Scaled up replica set nginx-... from 3 to 5")
	s.Expect(sim.CountEvents(events, "SuccessfulCreate", "Created pod: nginx-") == 5, "2 more SuccessfulCreate events (5 in all)")
	s.Expect(len(pods) == 5 && len(pending) == 2, "kubectl get pods: 5 pods, 2 of them Pending with no node: %v", pending)
	s.Expect(sim.FindEvent(events, "FailedScheduling", "0/3 nodes are available: 3 node(s) were unschedulable.") != nil,
		"event FailedScheduling: 0/3 nodes are available: 3 node(s) were unschedulable.")

	s.Step("kubectl scale deployment/nginx --replicas=2: the ReplicaSet deletes 3, the least useful first")
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 2); err != nil {
		s.Expect(false, "kubectl scale --replicas=2: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=nginx count 2") {
		return s.Err()
	}
	left, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	events = objectsNow[api.Event](ctx, s, "default", "")
	s.Expect(sim.CountEvents(events, "ScalingReplicaSet", "from 5 to 2") == 1, "event ScalingReplicaSet: Scaled down replica set nginx-... from 5 to 2")
	for _, name := range pending {
		s.Expect(sim.FindEvent(events, "SuccessfulDelete", "Deleted pod: "+name) != nil, "the unscheduled pod %s was deleted", name)
	}
	allRunning := len(left) == 2
	for _, p := range left {
		allRunning = allRunning && p.Spec.NodeName != "" && p.Status.Phase == api.PodRunning && containsPod(original, p.Name)
	}
	s.Expect(allRunning, "the 2 pods kept are original, Running ones: %s", podNames(left))
	s.Expect(sim.CountEvents(events, "SuccessfulDelete", "Deleted pod: nginx-") == 3, "3 SuccessfulDelete events: the 2 Pending pods and one Running pod")
	// Which Running pod: the one ready for the shortest time (in log2 buckets), then the newest. The
	// three original pods became ready and were created at the same instant, one per node, so the tie
	// goes to the smallest UID (controller.ActivePodsWithRanks with LogarithmicScaleDown).
	var third *api.Pod
	for _, p := range original {
		if !containsPod(left, p.Name) {
			third = p
		}
	}
	s.Expect(third != nil && third.UID == smallestUID(original) && sameAge(original),
		"the Running pod deleted, %s, ties with the others on ready time and age and comes first by UID", nameOf(third))

	s.Step("kubectl uncordon every node: nothing is Pending any more, the Deployment is 2/2")
	for _, node := range s.NodeNames() {
		if err := s.Kubectl.Uncordon(ctx, node); err != nil {
			s.Expect(false, "kubectl uncordon %s: %v", node, err)
			return s.Err()
		}
	}
	if !until(ctx, s, 0, "deployment nginx available", "pods -l app=nginx count 2") {
		return s.Err()
	}
	d := objectNow[api.Deployment](ctx, s, "default", "nginx")
	s.Expect(d != nil && d.Status.ReadyReplicas == 2 && d.Status.AvailableReplicas == 2 && *d.Spec.Replicas == 2,
		"kubectl get deployment nginx: READY 2/2, AVAILABLE 2")
	return s.Err()
}

// sameAge reports whether the pods were created and became ready at the same instants.
// smallestUID is the UID that wins a tie in the ReplicaSet controller's scale-down ranking.
func smallestUID(pods []*api.Pod) string {
	least := pods[0].UID
	for _, p := range pods[1:] {
		least = min(least, p.UID)
	}
	return least
}

func sameAge(pods []*api.Pod) bool {
	for _, p := range pods[1:] {
		if !p.CreationTimestamp.Equal(pods[0].CreationTimestamp.Time) || !readySince(p).Equal(readySince(pods[0])) {
			return false
		}
	}
	return true
}

func readySince(p *api.Pod) time.Time {
	if c := api.GetPodCondition(p, api.PodReady); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}
