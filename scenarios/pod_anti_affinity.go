// pod_anti_affinity.go: pod-anti-affinity, replicas that keep away from each other. With a
// required anti-affinity on kubernetes.io/hostname, no two replicas may share a node, so a fourth
// replica on three nodes has nowhere to go and stays Pending; with a preferred one, the scheduler
// spreads the replicas as far as it can and still places them all.
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
		Name:    "pod-anti-affinity",
		Summary: "required anti-affinity on hostname with more replicas than nodes: the extra replica stays Pending; preferred anti-affinity spreads and schedules all",
		Teaches: `Pod anti-affinity keeps a pod out of the topology domains (here nodes: topologyKey
kubernetes.io/hostname) where pods matching its labelSelector already run; pointing it at the pod's
own labels spreads the replicas of one Deployment, so that losing a node loses at most one. Required
anti-affinity is a filter (InterPodAffinity): with 4 replicas and 3 nodes, the fourth has no node left
and waits until a node is added or a replica goes. Preferred anti-affinity is a score: nodes without a
replica score higher, but a node with one still passes, so every replica is placed.

Signs to look for: web-ha with 3 replicas on 3 different nodes and one Pending with "0/3 nodes are
available: 3 node(s) didn't match pod anti-affinity rules."; web-soft with all 4 replicas Running, on
all 3 nodes (one node gets two).`,
		SummaryZH: "按 hostname 的必需反亲和性，副本比节点多：多出的副本一直 Pending；偏好的反亲和性把副本打散并全部调度",
		TeachesZH: `Pod 反亲和性让 Pod 远离那些已经运行着与其 labelSelector 匹配的 Pod 的拓扑域（这里是节点：topologyKey
kubernetes.io/hostname）；让它指向 Pod 自己的标签，就能把同一个 Deployment 的副本打散，丢一个节点最
多丢一个副本。必需的反亲和性是过滤器（InterPodAffinity）：4 个副本、3 个节点，第四个副本没有节点可
去，要等到加了节点或某个副本离开。偏好的反亲和性是打分：没有副本的节点得分更高，但已有副本的节点仍然
通过，所以每个副本都能被放下。

要看的信号：web-ha 的 3 个副本在 3 个不同节点上，1 个 Pending，提示 "0/3 nodes are available: 3
node(s) didn't match pod anti-affinity rules."；web-soft 的 4 个副本全部 Running，分布在全部 3 个节
点上（有一个节点上有两个）。`,
		Cluster: sim.Config{ControllerManager: true, Scheduler: true, NodeSpecs: sim.DefaultNodes(3)},
		ZH: catalog{
			"%d. kubectl apply -f web-ha.yaml: 4 replicas with required anti-affinity on kubernetes.io/hostname, 3 nodes": "%d. kubectl apply -f web-ha.yaml：4 个副本，在 kubernetes.io/hostname 上有 required anti-affinity，只有 3 个节点",
			"%d. Time passes: nothing changes for it (it waits in unschedulablePods for a node or a replica to go)":       "%d. 时间流逝：它的处境没有变化（它在 unschedulablePods 里等待新节点或某个副本离开）",
			"%d. kubectl apply -f web-soft.yaml: 4 replicas with preferred anti-affinity (weight 100) instead":            "%d. kubectl apply -f web-soft.yaml：改用 preferred anti-affinity（weight 100）的 4 个副本",
			"%s 3 replicas are bound, one per node (%s)":                                                                  "%s 3 个副本已绑定，每个节点一个（%s）",
			"%s 30s later, still one web-ha replica Pending":                                                              "%s 30 秒后，仍有一个 web-ha 副本 Pending",
			"%s all 4 web-soft replicas are scheduled, spread over all 3 nodes (%s)":                                      "%s web-soft 的 4 个副本全部调度完毕，分布在 3 个节点上（%s）",
			"%s no FailedScheduling event for web-soft: a preference never keeps a pod Pending":                           "%s web-soft 没有 FailedScheduling 事件：偏好从不会让 Pod 一直 Pending",
			"%s the fourth, %s, stays Pending: FailedScheduling %s":                                                       "%s 第四个 %s 保持 Pending：FailedScheduling %s",
		},
		Run: runPodAntiAffinity,
	})
}

func runPodAntiAffinity(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f web-ha.yaml: 4 replicas with required anti-affinity on kubernetes.io/hostname, 3 nodes")
	if !applyFile(ctx, s, "ha-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "event FailedScheduling for pod/web-ha-*") {
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -l app=web-ha count 4") {
		return s.Err()
	}
	const antiAffinity = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."
	var (
		perNode            map[string]int
		placement          string
		pending            int
		stuck, stuckOrSeen string
	)
	settled(ctx, s, func() bool {
		pods := objectsNow[api.Pod](ctx, s, "default", "app=web-ha")
		perNode, placement, pending = schedPlacement(pods)
		stuck, stuckOrSeen = schedStuck(ctx, s, pods, antiAffinity)
		return len(perNode) == 3 && pending == 1 && stuck != ""
	})
	s.Expect(len(perNode) == 3 && perNode["node-1"] == 1 && perNode["node-2"] == 1 && perNode["node-3"] == 1,
		"3 replicas are bound, one per node (%s)", placement)
	s.Expect(pending == 1 && stuck != "", "the fourth, %s, stays Pending: FailedScheduling %s", stuckOrSeen, antiAffinity)

	s.Step("Time passes: nothing changes for it (it waits in unschedulablePods for a node or a replica to go)")
	if err := s.Driver.Advance(ctx, 30*time.Second); err != nil {
		return err
	}
	_, _, pending = schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web-ha"))
	s.Expect(pending == 1, "30s later, still one web-ha replica Pending")

	s.Step("kubectl apply -f web-soft.yaml: 4 replicas with preferred anti-affinity (weight 100) instead")
	if !applyFile(ctx, s, "soft-deployment.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 0, "deployment web-soft available") {
		return s.Err()
	}
	perNode, placement, pending = schedPlacement(objectsNow[api.Pod](ctx, s, "default", "app=web-soft"))
	s.Expect(pending == 0 && len(perNode) == 3, "all 4 web-soft replicas are scheduled, spread over all 3 nodes (%s)", placement)
	failed := 0
	for _, e := range schedEvents(ctx, s, "FailedScheduling", "") {
		if strings.HasPrefix(e.InvolvedObject.Name, "web-soft-") {
			failed++
		}
	}
	s.Expect(failed == 0, "no FailedScheduling event for web-soft: a preference never keeps a pod Pending")
	return s.Err()
}
