// self_healing.go: self-healing (article 1, section 6.2): delete one pod of the nginx
// Deployment and watch the ReplicaSet controller notice that it has 2 of 3 and make a new one, which
// the scheduler places like any other. Nobody "restarts" the deleted pod: a new pod, with a new name,
// takes its place.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "self-healing",
		Summary: "delete one pod of the nginx Deployment: the ReplicaSet controller makes a new one",
		Teaches: `A ReplicaSet does not remember pods, it counts them. When a pod of the nginx Deployment is deleted,
the ReplicaSet controller's informer sees the pod go (first its deletionTimestamp, then its removal),
it reconciles the ReplicaSet, finds 2 pods where 3 are wanted, and creates one more from its template.
The new pod gets a new generated name (nginx-<hash>-<new suffix>): nothing of the old pod is reused.
The scheduler then places it on a node and that node's kubelet starts it, as for any new pod.

Signs to look for: the ReplicaSet controller's "wants 3, has 2 -> create 1 pods"; the event "Created
pod: nginx-<hash>-<suffix>" with a name that was not there before; "Successfully assigned
default/nginx-... to node-N" for it; the Deployment back at 3/3 available, the deleted pod gone.`,
		SummaryZH: "删掉 nginx Deployment 的一个 Pod：ReplicaSet 控制器补建一个新的",
		TeachesZH: `ReplicaSet 不记住具体的 Pod，它只数个数。nginx Deployment 的一个 Pod 被删除后，ReplicaSet 控制器的
informer 看到这个 Pod 消失（先是 deletionTimestamp，然后是真正移除），于是调谐这个 ReplicaSet：期望
3 个，实际 2 个，就按模板再创建一个。新 Pod 有一个新生成的名字（nginx-<hash>-<新后缀>）：旧 Pod 的
东西一样也不复用。之后调度器把它放到某个节点上，由该节点的 kubelet 启动，和任何新 Pod 一样。

要看的信号：ReplicaSet 控制器的 "wants 3, has 2 -> create 1 pods"；事件 "Created pod:
nginx-<hash>-<suffix>"，名字是之前没有的；这个新 Pod 的 "Successfully assigned default/nginx-... to
node-N"；Deployment 回到 3/3 可用，被删的 Pod 不见了。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl delete pod %s (it runs on %s)":                                                      "%d. kubectl delete pod %s（它运行在 %s 上）",
			"%d. The ReplicaSet controller counts 2 of 3 and creates a replacement; the scheduler places it": "%d. ReplicaSet 控制器数到 3 个里只剩 2 个，于是新建一个补上；调度器为它选节点",
			"%d. What kubectl get pods and the events now show":                                              "%d. 现在 kubectl get pods 和事件能看到什么",
			"%s 3 nginx pods run: %s":                                                                        "%s 3 个 nginx Pod 在运行：%s",
			"%s kubectl get pods -l app=nginx: 3 pods again: %s":                                             "%s kubectl get pods -l app=nginx：又是 3 个 Pod 了（回到期望状态）：%s",
			"%s one of them is new: %s, a new name (the deleted pod was %s)":                                 "%s 其中一个是新的：%s，一个新名字（被删的 Pod 是 %s）",
			"%s event SuccessfulCreate: Created pod: %s":                                                     "%s 事件 SuccessfulCreate：Created pod: %s",
			"%s event Scheduled: Successfully assigned default/%s to %s":                                     "%s 事件 Scheduled：Successfully assigned default/%s to %s",
			"%s the scheduler bound %s to %s and it is Running":                                              "%s 调度器把 %s 绑定到 %s，它已 Running",
		},
		Run: runSelfHealing,
	})
}

func runSelfHealing(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	before, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	s.Expect(len(before) == 3, "3 nginx pods run: %s", podNames(before))
	if len(before) != 3 {
		return s.Err()
	}
	victim := before[1]

	s.Step("kubectl delete pod %s (it runs on %s)", victim.Name, victim.Spec.NodeName)
	if err := s.Kubectl.Delete(ctx, "pods", "default", victim.Name, client.DeleteOptions{}); err != nil {
		s.Expect(false, "the pod is deleted: %v", err)
		return s.Err()
	}

	s.Step("The ReplicaSet controller counts 2 of 3 and creates a replacement; the scheduler places it")
	if !until(ctx, s, 0, "pod "+victim.Name+" gone", "pods -l app=nginx count 3", "pods -l app=nginx ready", "deployment nginx available") {
		return s.Err()
	}

	s.Step("What kubectl get pods and the events now show")
	after, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	var replacement *api.Pod
	for _, p := range after {
		if !containsPod(before, p.Name) {
			replacement = p
		}
	}
	s.Expect(len(after) == 3, "kubectl get pods -l app=nginx: 3 pods again: %s", podNames(after))
	s.Expect(replacement != nil && replacement.Name != victim.Name, "one of them is new: %s, a new name (the deleted pod was %s)",
		nameOf(replacement), victim.Name)
	if replacement == nil {
		return s.Err()
	}
	s.Expect(replacement.Spec.NodeName != "" && replacement.Status.Phase == api.PodRunning,
		"the scheduler bound %s to %s and it is Running", replacement.Name, replacement.Spec.NodeName)
	s.Expect(sim.FindEvent(objectsNow[api.Event](ctx, s, "default", ""), "SuccessfulCreate", "Created pod: "+replacement.Name) != nil,
		"event SuccessfulCreate: Created pod: %s", replacement.Name)
	s.Expect(sim.FindEvent(objectsNow[api.Event](ctx, s, "default", ""), "Scheduled", "Successfully assigned default/"+replacement.Name+" to "+replacement.Spec.NodeName) != nil,
		"event Scheduled: Successfully assigned default/%s to %s", replacement.Name, replacement.Spec.NodeName)
	return s.Err()
}

func containsPod(pods []*api.Pod, name string) bool {
	for _, p := range pods {
		if p.Name == name {
			return true
		}
	}
	return false
}

func nameOf(p *api.Pod) string {
	if p == nil {
		return "<none>"
	}
	return p.Name
}
