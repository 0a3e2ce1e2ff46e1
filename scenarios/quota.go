// quota.go: quota, a ResourceQuota in a namespace and one pod too many. The ResourceQuota
// admission plugin in kube-apiserver refuses the create that would pass a hard limit (403 "exceeded
// quota: ..., requested: ..., used: ..., limited: ..."), which holds a runaway creator (here a
// ReplicaSet asked for more pods than the quota allows) at the quota, and refuses a pod that does not
// say how much cpu and memory it needs ("failed quota: ...: must specify ..."). The quota's
// status.used moves at once with each create (admission charges it) and with each delete (the
// resourcequota controller recounts).
package scenarios

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// quotaNamespace is where the scenario's quota, Deployment and pods live.
const quotaNamespace = "team"

// QuotaDeploymentYAML is a Deployment of 5 replicas whose pods each request 200m cpu and 200Mi of
// memory and may use twice that: five fit the quota's cpu and memory, only the pod count holds them.
var QuotaDeploymentYAML = manifests.Read("quota-deployment.yaml")

func init() {
	register(sim.Scenario{
		Name:    "quota",
		Summary: "a ResourceQuota in a namespace, one pod too many: 403 exceeded quota, and a ReplicaSet held at the quota",
		Teaches: `A ResourceQuota caps what one namespace may hold: a number of pods, a total of cpu and memory
requests and limits. It is enforced at the door: the ResourceQuota admission plugin in kube-apiserver adds
each new pod to what the namespace already uses and refuses the create, 403 Forbidden, if any hard limit
would be passed. Nothing is evicted and nothing waits in a queue: a controller that wants more pods than
the quota allows is simply refused again at every retry, with a growing backoff, until something frees
room or the quota is raised. A quota on cpu or memory also makes every pod state its requests and
limits, since a pod that does not say what it needs cannot be counted.

The quota's status is the ledger both halves keep: the resourcequota controller in kube-controller-manager
copies spec.hard to status.hard and counts status.used from the objects themselves, and admission adds
each create to status.used in the same request, with a compare-and-swap on the quota, so that two
concurrent creates can never both take the last slot. Creates move status.used at once; deletes move it
when the controller recounts, as soon as the pods are gone.

Signs to look for: FailedCreate events on the ReplicaSet "Error creating: pods "web-..." is forbidden:
exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3"; its condition
ReplicaFailure=True (FailedCreate); the Deployment held at 3 of 5 ready however long it retries; a pod
without requests or limits refused with "failed quota: compute-resources: must specify limits.cpu for:
...; ..."; after the quota is raised to 5 pods, the ReplicaSet's next retry creates the last 2; kubectl describe quota
shows Used beside Hard: pods 3 of 3 right after the creates, 2 of 5 right after a scale-down deletes 3.`,
		SummaryZH: "命名空间里的 ResourceQuota，多一个 Pod 就超了：403 exceeded quota，ReplicaSet 被卡在配额上",
		TeachesZH: `ResourceQuota 限定一个命名空间能占用多少：Pod 个数、cpu 和内存 requests 与 limits 的总量。它在门口执
行：kube-apiserver 里的 ResourceQuota 准入插件把每个新 Pod 加到命名空间已用的量上，只要会超过任何一
个硬上限，就以 403 Forbidden 拒绝创建。不会驱逐任何东西，也没有什么在队列里等：想要的 Pod 比配额允许
的多的控制器，每次重试都只是再被拒绝一次，退避越来越长，直到有东西腾出空间或配额被调高。对 cpu 或内
存设了配额，每个 Pod 也就必须写明它的 requests 和 limits，因为不说明需要多少的 Pod 没法计数。

要看的信号：ReplicaSet 上的 FailedCreate 事件 "Error creating: pods "web-..." is forbidden: exceeded
quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3"；它的状况
ReplicaFailure=True（FailedCreate）；无论重试多久，Deployment 都停在 5 个中 3 个就绪；一个没有
requests 或 limits 的 Pod 被拒绝，提示 "failed quota: compute-resources: must specify limits.cpu
for: ...; ..."；配额调到 5 个 Pod 后，ReplicaSet 的下一次重试创建出最后 2 个；kubectl describe quota
在 Hard 旁显示 Used：创建之后马上是 pods 3/3，缩容删掉 3 个之后马上是 2/5。`,
		Cluster: sim.FullCluster(2),
		ZH: catalog{
			"%d. kubectl create namespace team; the serviceaccount controller gives it a default ServiceAccount":                                 "%d. kubectl create namespace team；serviceaccount 控制器为它创建 default ServiceAccount",
			"%d. kubectl create quota compute-resources -n team --hard=pods=3,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi": "%d. 创建配额：kubectl create quota compute-resources -n team --hard=pods=3,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi",
			"%d. kubectl apply a Deployment web of 5 replicas in team: the ReplicaSet creates 3 pods, the 4th is refused":                        "%d. 在 team 中 kubectl apply 一个 5 副本的 Deployment web：ReplicaSet 建出 3 个 Pod，第 4 个被拒绝",
			"%d. Let a minute pass: the ReplicaSet keeps retrying with backoff, and the quota holds it at 3":                                     "%d. 让一分钟过去：ReplicaSet 带退避不断重试，配额把它卡在 3 个",
			"%d. kubectl run two pods by hand: one more sized pod, and one with no requests or limits":                                           "%d. 手工 kubectl run 两个 Pod：一个写了 requests/limits，一个什么都没写",
			"%d. kubectl edit quota compute-resources -n team: hard pods 5; the ReplicaSet's next retry creates the last 2":                      "%d. kubectl edit quota compute-resources -n team：hard pods 改为 5；ReplicaSet 下一次重试建出剩下的 2 个",
			"%d. kubectl scale deployment web -n team --replicas=2: 3 pods are deleted, and the resourcequota controller gives their share back": "%d. kubectl scale deployment web -n team --replicas=2：删除 3 个 Pod，resourcequota 控制器把它们占的份额还回配额",
			"%s the resourcequota controller counts the new quota: status.used %s":                                                               "%s resourcequota 控制器统计新配额：status.used %s",
			"%s status.used right after the 3 creates (admission charged each): %s":                                                              "%s 3 次创建刚结束时的 status.used（准入逐个计入）：%s",
			"%s status.used right after the last 2 creates: %s":                                                                                  "%s 最后 2 次创建刚结束时的 status.used：%s",
			"%s status.used right after the deletes (the resourcequota controller recounted): %s":                                                "%s 删除刚结束时的 status.used（resourcequota 控制器重新统计）：%s",
			"%s kubectl describe quota compute-resources -n team, Used beside Hard: %s":                                                          "%s kubectl describe quota compute-resources -n team，已用与上限并列：%s",
			"%s 3 SuccessfulCreate events on the ReplicaSet":                                                                                     "%s ReplicaSet 上有 3 个 SuccessfulCreate 事件",
			"%s 5 SuccessfulCreate events in all":                                                                                                "%s 一共 5 个 SuccessfulCreate 事件",
			"%s event FailedCreate on the ReplicaSet: Error creating: pods \"web-...\" %s":                                                       "%s ReplicaSet 上的事件 FailedCreate：Error creating: pods \"web-...\" %s",
			"%s kubectl describe rs: condition ReplicaFailure=True (FailedCreate) with the quota's message":                                      "%s kubectl describe rs：状况 ReplicaFailure=True（FailedCreate），带着配额的消息",
			"%s kubectl get deployment web -n team: READY 3/5":                                                                                   "%s kubectl get deployment web -n team：READY 3/5（未达期望状态）",
			"%s kubectl get pods -n team: 5 pods: %s":                                                                                            "%s kubectl get pods -n team：5 个 Pod：%s",
			"%s kubectl get pods -n team: still 3 pods: %s":                                                                                      "%s kubectl get pods -n team：仍是 3 个 Pod：%s",
			"%s the refusals repeat: %d FailedCreate events":                                                                                     "%s 拒绝一再发生：%d 个 FailedCreate 事件",
		},
		Run: runQuota,
	})
}

func runQuota(ctx context.Context, s *sim.Session) error {
	k := s.Kubectl

	s.Step("kubectl create namespace team; the serviceaccount controller gives it a default ServiceAccount")
	if _, err := k.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: quotaNamespace}}); err != nil {
		s.Expect(false, "namespace team is created: %v", err)
		return s.Err()
	}
	hasSA := func() (bool, error) {
		return objectNow[api.ServiceAccount](ctx, s, quotaNamespace, "default") != nil, nil
	}
	if !s.Until(ctx, 0, sim.Check("serviceaccount team/default exists", hasSA)) {
		return s.Err()
	}

	s.Step("kubectl create quota compute-resources -n team --hard=pods=3,requests.cpu=1,requests.memory=1Gi,limits.cpu=2,limits.memory=2Gi")
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "compute-resources", Namespace: quotaNamespace},
		Spec: api.ResourceQuotaSpec{Hard: resource.ResourceList{
			resource.ResourcePods:      resource.MustParse("3"),
			api.ResourceRequestsCPU:    resource.MustParse("1"),
			api.ResourceRequestsMemory: resource.MustParse("1Gi"),
			api.ResourceLimitsCPU:      resource.MustParse("2"),
			api.ResourceLimitsMemory:   resource.MustParse("2Gi"),
		}}}
	if _, err := k.Create(ctx, q); err != nil {
		s.Expect(false, "ResourceQuota compute-resources is created: %v", err)
		return s.Err()
	}
	counted := func() (bool, error) { return quotaUsed(ctx, s) != "", nil }
	if !s.Until(ctx, 0, sim.Check("quota compute-resources has a status", counted)) {
		return s.Err()
	}
	used := quotaUsed(ctx, s)
	s.Expect(used == "limits.cpu=0,limits.memory=0,pods=0,requests.cpu=0,requests.memory=0",
		"the resourcequota controller counts the new quota: status.used %s", used)

	s.Step("kubectl apply a Deployment web of 5 replicas in team: the ReplicaSet creates 3 pods, the 4th is refused")
	if !apply(ctx, s, QuotaDeploymentYAML) {
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -n team -l app=web count 3", "pods -n team -l app=web ready", "event FailedCreate -n team exceeded quota") {
		return s.Err()
	}
	events := objectsNow[api.Event](ctx, s, quotaNamespace, "")
	refused := `is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3`
	s.Expect(sim.CountEvents(events, "SuccessfulCreate", "Created pod: web-") == 3, "3 SuccessfulCreate events on the ReplicaSet")
	failed := sim.FindEvent(events, "FailedCreate", refused)
	s.Expect(failed != nil && failed.InvolvedObject.Kind == "ReplicaSet" && strings.HasPrefix(failed.Message, `Error creating: pods "web-`),
		`event FailedCreate on the ReplicaSet: Error creating: pods "web-..." %s`, refused)
	used = quotaUsed(ctx, s)
	s.Expect(used == "limits.cpu=1200m,limits.memory=1200Mi,pods=3,requests.cpu=600m,requests.memory=600Mi",
		"status.used right after the 3 creates (admission charged each): %s", used)

	s.Step("Let a minute pass: the ReplicaSet keeps retrying with backoff, and the quota holds it at 3")
	if err := s.Driver.Advance(ctx, time.Minute); err != nil {
		return err
	}
	pods := live(objectsNow[api.Pod](ctx, s, quotaNamespace, "app=web"))
	events = objectsNow[api.Event](ctx, s, quotaNamespace, "")
	s.Expect(len(pods) == 3, "kubectl get pods -n team: still 3 pods: %s", podNames(pods))
	s.Expect(sim.CountEvents(events, "FailedCreate", refused) > 1, "the refusals repeat: %d FailedCreate events", sim.CountEvents(events, "FailedCreate", refused))
	rs := quotaReplicaSet(ctx, s)
	s.Expect(rs != nil && hasReplicaFailure(rs), "kubectl describe rs: condition ReplicaFailure=True (FailedCreate) with the quota's message")
	d := objectNow[api.Deployment](ctx, s, quotaNamespace, "web")
	s.Expect(d != nil && d.Status.ReadyReplicas == 3 && *d.Spec.Replicas == 5, "kubectl get deployment web -n team: READY 3/5")

	s.Step("kubectl run two pods by hand: one more sized pod, and one with no requests or limits")
	extra := quotaPod("extra")
	extra.Spec.Containers[0].Resources = api.DeepCopy(d).Spec.Template.Spec.Containers[0].Resources
	_, err := k.Create(ctx, extra)
	s.ExpectError(err, 403, `pods "extra" is forbidden: exceeded quota: compute-resources, requested: pods=1, used: pods=3, limited: pods=3`)
	_, err = k.Create(ctx, quotaPod("bare"))
	s.ExpectError(err, 403, `pods "bare" is forbidden: failed quota: compute-resources: must specify limits.cpu for: bare; limits.memory for: bare; requests.cpu for: bare; requests.memory for: bare`)

	s.Step("kubectl edit quota compute-resources -n team: hard pods 5; the ReplicaSet's next retry creates the last 2")
	current, err := sim.Get[api.ResourceQuota](ctx, s.Cluster, quotaNamespace, "compute-resources")
	if err != nil {
		return err
	}
	raised := api.DeepCopy(current)
	raised.Spec.Hard[resource.ResourcePods] = resource.MustParse("5")
	if _, err := k.Update(ctx, raised); err != nil {
		s.Expect(false, "the quota is raised: %v", err)
		return s.Err()
	}
	if !until(ctx, s, 0, "pods -n team -l app=web count 5", "pods -n team -l app=web ready") {
		return s.Err()
	}
	pods = live(objectsNow[api.Pod](ctx, s, quotaNamespace, "app=web"))
	events = objectsNow[api.Event](ctx, s, quotaNamespace, "")
	s.Expect(len(pods) == 5, "kubectl get pods -n team: 5 pods: %s", podNames(pods))
	s.Expect(sim.CountEvents(events, "SuccessfulCreate", "Created pod: web-") == 5, "5 SuccessfulCreate events in all")
	used = quotaUsed(ctx, s)
	s.Expect(used == "limits.cpu=2,limits.memory=2000Mi,pods=5,requests.cpu=1,requests.memory=1000Mi",
		"status.used right after the last 2 creates: %s", used)

	s.Step("kubectl scale deployment web -n team --replicas=2: 3 pods are deleted, and the resourcequota controller gives their share back")
	if err := k.Scale(ctx, "deployments", quotaNamespace, "web", 2); err != nil {
		s.Expect(false, "Deployment web is scaled: %v", err)
		return s.Err()
	}
	gone := func() (bool, error) {
		return len(objectsNow[api.Pod](ctx, s, quotaNamespace, "app=web")) == 2 && strings.Contains(quotaUsed(ctx, s), ",pods=2,"), nil
	}
	if !s.Until(ctx, 0, sim.Check("3 pods are gone and the quota recounted", gone)) {
		return s.Err()
	}
	used = quotaUsed(ctx, s)
	s.Expect(used == "limits.cpu=800m,limits.memory=800Mi,pods=2,requests.cpu=400m,requests.memory=400Mi",
		"status.used right after the deletes (the resourcequota controller recounted): %s", used)
	described, err := k.Describe(ctx, "quota", quotaNamespace, "compute-resources")
	if err != nil {
		return err
	}
	row := regexp.MustCompile(`(?m)^pods +2 +5$`)
	s.Expect(row.MatchString(described), "kubectl describe quota compute-resources -n team, Used beside Hard: %s", "pods  2  5")
	return s.Err()
}

// quotaUsed is the status.used of quota compute-resources, sorted, as "pods=3,requests.cpu=600m";
// "" before the resourcequota controller has counted.
func quotaUsed(ctx context.Context, s *sim.Session) string {
	q := objectNow[api.ResourceQuota](ctx, s, quotaNamespace, "compute-resources")
	if q == nil || len(q.Status.Used) == 0 {
		return ""
	}
	parts := make([]string, 0, len(q.Status.Used))
	for _, name := range slices.Sorted(maps.Keys(q.Status.Used)) {
		v := q.Status.Used[name]
		parts = append(parts, fmt.Sprintf("%s=%s", name, v.String()))
	}
	return strings.Join(parts, ",")
}

// quotaPod is a pod as `kubectl run NAME --image=nginx:1.25 -n team` makes it: one container named
// after the pod, no requests, no limits.
func quotaPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: quotaNamespace, Labels: map[string]string{"run": name}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: name, Image: "nginx:1.25"}}}}
}

// quotaReplicaSet is Deployment web's one ReplicaSet.
func quotaReplicaSet(ctx context.Context, s *sim.Session) *api.ReplicaSet {
	rss := objectsNow[api.ReplicaSet](ctx, s, quotaNamespace, "app=web")
	if len(rss) != 1 {
		return nil
	}
	return rss[0]
}

func hasReplicaFailure(rs *api.ReplicaSet) bool {
	for _, c := range rs.Status.Conditions {
		if c.Type == api.ReplicaSetReplicaFailure && c.Status == api.ConditionTrue && c.Reason == "FailedCreate" &&
			strings.Contains(c.Message, "exceeded quota: compute-resources") {
			return true
		}
	}
	return false
}
