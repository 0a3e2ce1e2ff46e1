// rolling_update.go: rolling-update (article 1, section 6.2; article 2, section 6.3): `kubectl
// set image deployment/nginx nginx=nginx:1.27` changes the pod template, so the Deployment controller
// makes a new ReplicaSet and moves the replicas over one at a time, never more than maxSurge above
// nor maxUnavailable below the desired 3; then `kubectl rollout undo` brings the old template back as
// a new revision. The scenario checks the bounds after every single unit of work.
package scenarios

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:     "rolling-update",
		StepOnly: true,
		Summary:  "kubectl set image nginx=nginx:1.27: a new ReplicaSet scales up as the old one scales down, then rollout undo",
		Teaches: `A Deployment keeps one ReplicaSet per version of its pod template, named after the template's hash.
Changing the image makes a new template, so the Deployment controller creates a new ReplicaSet
(revision 2) and shifts replicas from the old one to it under the RollingUpdate strategy's defaults:
maxSurge 25% (of 3, rounded up: 1 pod above 3) and maxUnavailable 25% (of 3, rounded down: 0 pods
below 3). So it adds one new pod, waits until it is available, removes one old pod, and so on. The old
ReplicaSet stays, scaled to 0: it is the rollout history. kubectl rollout undo copies the previous
ReplicaSet's template back into the Deployment; that ReplicaSet becomes the new one again, under the
next revision number (3), and the same rolling update runs in the other direction.

Signs to look for: "Scaled up replica set nginx-<new> from 0 to 1" and "Scaled down replica set
nginx-<old> from 3 to 2" alternating; at every step at most 4 pods wanted (3 + maxSurge) and at least 3
ready (3 - maxUnavailable); the annotations deployment.kubernetes.io/revision 1 and 2, then 3 (with
revision-history 1) after the undo; every pod running nginx:1.27, then nginx:1.25 again.`,
		SummaryZH: "kubectl set image nginx=nginx:1.27：新 ReplicaSet 扩容、旧的同步缩容，然后 rollout undo",
		TeachesZH: `Deployment 为 Pod 模板的每个版本保留一个 ReplicaSet，以模板的哈希命名。改镜像就是一个新模板，于是
Deployment 控制器创建一个新的 ReplicaSet（revision 2），按 RollingUpdate 策略的默认值把副本从旧的挪
到新的：maxSurge 25%（3 的 25% 向上取整：最多比 3 多 1 个 Pod），maxUnavailable 25%（3 的 25% 向下取
整：最少不低于 3 个）。所以它先加一个新 Pod，等它可用，再删一个旧 Pod，如此往复。旧的 ReplicaSet 留
着，缩到 0：它就是发布历史。kubectl rollout undo 把上一个 ReplicaSet 的模板拷回 Deployment；那个
ReplicaSet 又成了新的，使用下一个修订号（3），同样的滚动更新反方向再跑一遍。

要看的信号："Scaled up replica set nginx-<new> from 0 to 1" 和 "Scaled down replica set nginx-<old>
from 3 to 2" 交替出现；每一步期望的 Pod 至多 4 个（3 + maxSurge），就绪的至少 3 个
（3 - maxUnavailable）；注解 deployment.kubernetes.io/revision 先是 1 和 2，undo 之后变成 3（带
revision-history 1）；所有 Pod 先都跑 nginx:1.27，之后又都回到 nginx:1.25。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply -f nginx-deployment.yaml (nginx:1.25) and wait until 3/3 pods are available":                                                                "%d. kubectl apply -f nginx-deployment.yaml（nginx:1.25），等到 3/3 个 Pod 可用",
			"%d. kubectl set image deployment/nginx nginx=nginx:1.27: a new ReplicaSet takes over, one pod at a time":                                                      "%d. kubectl set image deployment/nginx nginx=nginx:1.27：新的 ReplicaSet 一次一个 Pod 地接手",
			"%d. The rollout history: the old ReplicaSet is kept at 0 replicas, the revisions are annotations":                                                             "%d. 发布历史：旧 ReplicaSet 保留为 0 副本，revision 记在注解里",
			"%d. kubectl rollout undo deployment/nginx: the nginx:1.25 template comes back, as revision 3":                                                                 "%d. kubectl rollout undo deployment/nginx：nginx:1.25 的模板回来了，成为 revision 3",
			"%s ReplicaSet %s has deployment.kubernetes.io/revision: 1":                                                                                                    "%s ReplicaSet %s 带有 deployment.kubernetes.io/revision: 1",
			"%s event ScalingReplicaSet: Scaled up replica set %s from 0 to 1":                                                                                             "%s 事件 ScalingReplicaSet：Scaled up replica set %s from 0 to 1",
			"%s event ScalingReplicaSet: Scaled down replica set %s from 3 to 2":                                                                                           "%s 事件 ScalingReplicaSet：Scaled down replica set %s from 3 to 2",
			"%s after each of %d units of work: at most %d pods wanted (3 + maxSurge 1; at most %d seen) and at least %d ready (3 - maxUnavailable 0; at least %d seen)%s": "%s %d 个工作单元中的每一个之后：期望的 Pod 最多 %d 个（3 + maxSurge 1；实际最多 %d 个），就绪的至少 %d 个（3 - maxUnavailable 0；实际至少 %d 个）%s",
			"%s ReplicaSet %s (nginx:1.27): replicas 3, deployment.kubernetes.io/revision: 2":                                                                              "%s 新 ReplicaSet %s（nginx:1.27）：副本数 3，deployment.kubernetes.io/revision: 2",
			"%s ReplicaSet %s (nginx:1.25): replicas 0, deployment.kubernetes.io/revision: 1":                                                                              "%s 旧 ReplicaSet %s（nginx:1.25）：副本数 0，deployment.kubernetes.io/revision: 1",
			"%s the Deployment carries deployment.kubernetes.io/revision: 2":                                                                                               "%s Deployment 带有 deployment.kubernetes.io/revision: 2",
			"%s the Deployment carries deployment.kubernetes.io/revision: 3":                                                                                               "%s Deployment 带有 deployment.kubernetes.io/revision: 3",
			"%s kubectl get pods -l app=nginx: 3 pods, every one Running %s":                                                                                               "%s kubectl get pods -l app=nginx：3 个 Pod，全部 Running %s",
			"%s ReplicaSet %s is the new one again: replicas 3, revision 3, revision-history 1 (no third ReplicaSet)":                                                      "%s ReplicaSet %s 重新成为新的那个：replicas 3，revision 3，revision-history 1（没有第三个 ReplicaSet）",
			"%s ReplicaSet %s (nginx:1.27) is scaled to 0 and kept as revision 2":                                                                                          "%s ReplicaSet %s（nginx:1.27）缩到 0，作为 revision 2 保留",
		},
		Run: runRollingUpdate,
	})
}

// rolloutBounds watches a rolling update of the nginx Deployment after every unit of work: the
// ReplicaSets' replicas must stay within replicas + maxSurge, and the ready pods that are not
// terminating must stay at replicas - maxUnavailable or more.
type rolloutBounds struct {
	maxWanted, minReady  int // the bounds
	highWanted, lowReady int // the extremes seen
	steps                int
	broken               []string // the first few violations
}

func (b *rolloutBounds) check(ctx context.Context, s *sim.Session) {
	rss, err1 := replicaSetsOf(ctx, s, "nginx-")
	pods, err2 := livePods(ctx, s, "app=nginx")
	if err1 != nil || err2 != nil {
		b.broken = append(b.broken, fmt.Sprintf("could not read the cluster: %v %v", err1, err2))
		return
	}
	wanted, ready := 0, 0
	for _, rs := range rss {
		if rs.Spec.Replicas != nil {
			wanted += int(*rs.Spec.Replicas)
		}
	}
	for _, p := range pods {
		if podReady(p) == api.ConditionTrue {
			ready++
		}
	}
	b.steps++
	b.highWanted, b.lowReady = max(b.highWanted, wanted), min(b.lowReady, ready)
	if (wanted > b.maxWanted || ready < b.minReady) && len(b.broken) < 3 {
		b.broken = append(b.broken, fmt.Sprintf("after step %d: %d wanted, %d ready", s.Driver.Steps(), wanted, ready))
	}
}

// rollout runs the cluster until the Deployment's rollout is complete, checking the bounds after
// every unit of work.
func rollout(ctx context.Context, s *sim.Session, image string) bool {
	b := &rolloutBounds{maxWanted: 3 + 1, minReady: 3 - 0, lowReady: 3}
	after := s.Driver.AfterStep
	s.Driver.AfterStep = func() {
		b.check(ctx, s)
		if after != nil {
			after()
		}
	}
	ok := until(ctx, s, 0, "deployment nginx complete", "pods -l app=nginx count 3")
	s.Driver.AfterStep = after
	if !ok {
		return false
	}
	s.Expect(len(b.broken) == 0 && b.steps > 0,
		"after each of %d units of work: at most %d pods wanted (3 + maxSurge 1; at most %d seen) and at least %d ready (3 - maxUnavailable 0; at least %d seen)%s",
		b.steps, b.maxWanted, b.highWanted, b.minReady, b.lowReady, strings.Join(append([]string{""}, b.broken...), "; "))
	pods, err := livePods(ctx, s, "app=nginx")
	sameImage := err == nil && len(pods) == 3
	for _, p := range pods {
		sameImage = sameImage && p.Spec.Containers[0].Image == image && p.Status.Phase == api.PodRunning
	}
	s.Expect(sameImage, "kubectl get pods -l app=nginx: 3 pods, every one Running %s", image)
	return true
}

func runRollingUpdate(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml (nginx:1.25) and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	rss, err := replicaSetsOf(ctx, s, "nginx-")
	if err != nil {
		return err
	}
	if len(rss) != 1 {
		s.Expect(false, "one ReplicaSet, revision 1 (found %d)", len(rss))
		return s.Err()
	}
	first := rss[0].Name
	s.Expect(rss[0].Annotations[api.RevisionAnnotation] == "1", "ReplicaSet %s has deployment.kubernetes.io/revision: 1", first)

	s.Step("kubectl set image deployment/nginx nginx=nginx:1.27: a new ReplicaSet takes over, one pod at a time")
	if err := s.Kubectl.SetImage(ctx, "default", "nginx", "nginx", "nginx:1.27"); err != nil {
		s.Expect(false, "kubectl set image: %v", err)
		return s.Err()
	}
	if !rollout(ctx, s, "nginx:1.27") {
		return s.Err()
	}

	s.Step("The rollout history: the old ReplicaSet is kept at 0 replicas, the revisions are annotations")
	rss, err = replicaSetsOf(ctx, s, "nginx-")
	if err != nil {
		return err
	}
	if len(rss) != 2 {
		s.Expect(false, "two ReplicaSets (found %d)", len(rss))
		return s.Err()
	}
	old, cur := rss[0], rss[1]
	second := cur.Name
	s.Expect(old.Name == first && *old.Spec.Replicas == 0 && old.Annotations[api.RevisionAnnotation] == "1",
		"ReplicaSet %s (nginx:1.25): replicas 0, deployment.kubernetes.io/revision: 1", old.Name)
	s.Expect(*cur.Spec.Replicas == 3 && cur.Annotations[api.RevisionAnnotation] == "2",
		"ReplicaSet %s (nginx:1.27): replicas 3, deployment.kubernetes.io/revision: 2", cur.Name)
	d := objectNow[api.Deployment](ctx, s, "default", "nginx")
	s.Expect(d != nil && d.Annotations[api.RevisionAnnotation] == "2", "the Deployment carries deployment.kubernetes.io/revision: 2")
	events := objectsNow[api.Event](ctx, s, "default", "")
	s.Expect(sim.FindEvent(events, "ScalingReplicaSet", "Scaled up replica set "+second+" from 0 to 1") != nil,
		"event ScalingReplicaSet: Scaled up replica set %s from 0 to 1", second)
	s.Expect(sim.FindEvent(events, "ScalingReplicaSet", "Scaled down replica set "+first+" from 3 to 2") != nil,
		"event ScalingReplicaSet: Scaled down replica set %s from 3 to 2", first)

	s.Step("kubectl rollout undo deployment/nginx: the nginx:1.25 template comes back, as revision 3")
	if err := s.Kubectl.RolloutUndo(ctx, "default", "nginx", 0); err != nil {
		s.Expect(false, "kubectl rollout undo: %v", err)
		return s.Err()
	}
	if !rollout(ctx, s, "nginx:1.25") {
		return s.Err()
	}
	rss, err = replicaSetsOf(ctx, s, "nginx-")
	if err != nil {
		return err
	}
	if len(rss) != 2 {
		s.Expect(false, "still two ReplicaSets: the old one was reused, not a third made (found %d)", len(rss))
		return s.Err()
	}
	back, prev := rss[1], rss[0]
	s.Expect(back.Name == first && *back.Spec.Replicas == 3 && back.Annotations[api.RevisionAnnotation] == "3" &&
		back.Annotations["deployment.kubernetes.io/revision-history"] == "1",
		"ReplicaSet %s is the new one again: replicas 3, revision 3, revision-history 1 (no third ReplicaSet)", back.Name)
	s.Expect(prev.Name == second && *prev.Spec.Replicas == 0, "ReplicaSet %s (nginx:1.27) is scaled to 0 and kept as revision 2", prev.Name)
	d = objectNow[api.Deployment](ctx, s, "default", "nginx")
	s.Expect(d != nil && d.Annotations[api.RevisionAnnotation] == "3", "the Deployment carries deployment.kubernetes.io/revision: 3")
	return s.Err()
}
