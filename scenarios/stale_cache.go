// stale_cache.go: stale-cache (article 2, section 4.2): a controller reads the world from its
// informer's cache, and that cache lags behind the controller's own writes. Right after creating 3
// pods, the ReplicaSet controller's cache may still show none; a controller that trusted it would
// create 3 more. Expectations (ControllerExpectations in Kubernetes) stop it: it remembers the adds it
// asked for and does not act on that ReplicaSet again until its informer has shown them all.
//
// To hold the cache still, this scenario runs its own ReplicaSet controller outside the step driver and
// pumps its informers by hand, as the controller's own tests do.
package scenarios

import (
	"context"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/replicaset"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:     "stale-cache",
		StepOnly: true,
		Summary:  "a ReplicaSet controller whose pod informer lags: expectations stop it from creating the pods twice",
		Teaches: `Controllers never ask the apiserver "how many pods do I have?" on every reconcile; they read their
informer's cache, which a watch keeps up to date, a little late. The ReplicaSet controller's own creates
come back to it through that watch. Between its create calls and the watch events, its cache says the
pods do not exist, and any reconcile in that gap (another event for the same ReplicaSet, a resync, a
second worker) would see 0 of 3 and create 3 more. So before creating, the controller records
expectations (3 adds for this ReplicaSet); its pod handler ticks one off per pod it sees; and Reconcile
acts only when none are outstanding (or after 5 minutes, in case a watch event was lost).

Here the controller's informers are pumped by hand: the scenario creates a ReplicaSet, lets the
controller see it and reconcile (3 creates), then reconciles again before letting the pod informer
deliver the 3 pods.

Signs to look for: "wants 3, has 0 -> create 3 pods (expecting 3 adds)"; the pod informer holding 3
undelivered events; "wants 3, its cache shows 0, but 3 adds and 0 deletes it made are not in the cache
yet -> wait (expectations)"; its status update, made from its stale copy of the ReplicaSet, answered 409
Conflict (optimistic concurrency guarding the same gap); after the pump, "(0 more adds expected)" and "wants 3, has 3: nothing to
do"; kubectl get pods showing 3 pods throughout, never 6.`,
		SummaryZH: "pod informer 滞后的 ReplicaSet 控制器：expectations 阻止它把 Pod 创建两遍",
		TeachesZH: `控制器从不在每次调谐时问 apiserver“我有几个 Pod？”；它们读 informer 的缓存，缓存由一个 watch 保持更
新，只是稍有延迟。ReplicaSet 控制器自己创建的 Pod 也要经由这个 watch 回到它那里。在它发出创建调用和
收到 watch 事件之间，它的缓存说这些 Pod 不存在，这段空档里的任何一次调谐（同一 ReplicaSet 的另一个事
件、一次 resync、第二个 worker）都会看到 3 个里有 0 个，再创建 3 个。所以创建之前，控制器先记下
expectations（这个 ReplicaSet 要等 3 次 add）；它的 Pod 处理函数每看到一个 Pod 就勾掉一个；Reconcile
只在没有未兑现的期望时才行动（或者 5 分钟后，以防某个 watch 事件丢了）。

这里控制器的 informer 由手工驱动：场景创建一个 ReplicaSet，让控制器看到它并调谐（3 次创建），然后在
让 pod informer 送达这 3 个 Pod 之前再调谐一次。

要看的信号："wants 3, has 0 -> create 3 pods (expecting 3 adds)"；pod informer 攒着 3 个未送达的事
件；"wants 3, its cache shows 0, but 3 adds and 0 deletes it made are not in the cache yet -> wait
(expectations)"；它基于过时的 ReplicaSet 副本做的状态更新得到 409 Conflict（乐观并发守住了同一个空
档）；驱动之后 "(0 more adds expected)" 和 "wants 3, has 3: nothing to do"；kubectl get pods 自始至
终显示 3 个 Pod，从来不是 6 个。`,
		ZH: catalog{
			"%d. A ReplicaSet controller whose informers we pump by hand; kubectl create a ReplicaSet web of 3 pods": "%d. 一个由我们手动推进 informer 的 ReplicaSet 控制器；kubectl create 一个 3 副本的 ReplicaSet web",
			"%d. Reconcile default/web: the cache shows 0 of 3 pods, so it creates 3":                                "%d. Reconcile default/web：缓存里 3 个 Pod 一个都没有，于是创建 3 个",
			"%d. Its pod informer lags: the 3 pods have not reached its cache yet. Reconcile default/web again":      "%d. 它的 Pod informer 滞后：3 个 Pod 还没进缓存。再 Reconcile 一次 default/web",
			"%d. Its informers catch up: each pod ticks off one expected add; reconcile default/web once more":       "%d. 它的 informer 追上进度：每个 Pod 抵消一个预期的新增；再 reconcile 一次 default/web",
			"%s kubectl get pods -l app=web: 3 pods":                                                                 "%s kubectl get pods -l app=web：3 个 Pod",
			"%s kubectl get pods -l app=web: 3 pods, the ReplicaSet's replicas":                                      "%s kubectl get pods -l app=web：3 个 Pod，正是 ReplicaSet 的副本数",
			"%s kubectl get pods -l app=web: still 3 pods, not 6":                                                    "%s kubectl get pods -l app=web：仍是 3 个 Pod，不是 6 个",
			"%s reconcile default/web: wants 3, has 3: nothing to do":                                                "%s 调谐 default/web：期望 3 个，现有 3 个：无需操作",
			"%s the controller waits: 3 adds it made are not in its cache yet (expectations)":                        "%s 控制器在等：它发出的 3 个创建还没进缓存（expectations）",
			"%s the pod handler saw the third pod: 0 more adds expected":                                             "%s Pod 处理函数看到了第三个 Pod：不再等待新增",
			"%s the pod informer holds %d events it has not applied: its cache still shows no pods":                  "%s Pod informer 积压着 %d 个尚未应用的事件：它的缓存里仍然没有 Pod",
		},
		Run: runStaleCache,
	})
}

// pendingEvents is an informer's count of events that have arrived but not been applied.
type pendingEvents interface{ Pending() int }

func runStaleCache(ctx context.Context, s *sim.Session) error {
	s.Step("A ReplicaSet controller whose informers we pump by hand; kubectl create a ReplicaSet web of 3 pods")
	cl := s.Client(sim.ControllerManagerUser, replicaset.Name)
	rsc := replicaset.New(cl, client.NewInformerFactory(cl, s.Clock, s.Trace), s.Clock, s.Trace, client.NewEventRecorder(cl, replicaset.Name, "", s.Clock, s.Trace))
	informers := rsc.Informers() // the ReplicaSet informer, then the Pod informer
	for _, inf := range informers {
		if err := inf.Sync(ctx); err != nil {
			return err
		}
	}
	rsInformer, podInformer := informers[0], informers[1]
	if _, err := s.Kubectl.Create(ctx, webReplicaSet()); err != nil {
		s.Expect(false, "ReplicaSet web is created: %v", err)
		return s.Err()
	}
	if err := deliver(ctx, s, rsInformer); err != nil {
		return err
	}
	lines := s.Tap(func(e trace.Event) bool {
		return e.Component == replicaset.Name && (e.Action == "reconcile" || e.Action == "watch")
	})

	s.Step("Reconcile default/web: the cache shows 0 of 3 pods, so it creates 3")
	if err := rsc.Reconcile(ctx, "default/web"); err != nil {
		return err
	}
	s.Expect(countWebPods(ctx, s) == 3, "kubectl get pods -l app=web: 3 pods")

	s.Step("Its pod informer lags: the 3 pods have not reached its cache yet. Reconcile default/web again")
	if err := s.APIServer.WaitForRevision(ctx, currentRevision(ctx, s)); err != nil {
		return err
	}
	lagging := podInformer.(pendingEvents).Pending()
	s.Expect(lagging == 3, "the pod informer holds %d events it has not applied: its cache still shows no pods", lagging)
	if err := rsc.Reconcile(ctx, "default/web"); err != nil {
		return err
	}
	s.Expect(says(lines.Lines(), "", "wants 3, its cache shows 0, but 3 adds and 0 deletes it made are not in the cache yet -> wait (expectations)"),
		"the controller waits: 3 adds it made are not in its cache yet (expectations)")
	s.Expect(countWebPods(ctx, s) == 3, "kubectl get pods -l app=web: still 3 pods, not 6")

	s.Step("Its informers catch up: each pod ticks off one expected add; reconcile default/web once more")
	for _, inf := range informers {
		if err := deliver(ctx, s, inf); err != nil {
			return err
		}
	}
	if err := rsc.Reconcile(ctx, "default/web"); err != nil {
		return err
	}
	seen := lines.Lines()
	s.Expect(says(seen, "", "(0 more adds expected)"), "the pod handler saw the third pod: 0 more adds expected")
	s.Expect(says(seen, "", "reconcile default/web: wants 3, has 3: nothing to do"), "reconcile default/web: wants 3, has 3: nothing to do")
	s.Expect(countWebPods(ctx, s) == 3, "kubectl get pods -l app=web: 3 pods, the ReplicaSet's replicas")
	return s.Err()
}

// deliver lets an informer apply everything etcd holds now.
func deliver(ctx context.Context, s *sim.Session, inf client.InformerHandle) error {
	if err := s.APIServer.WaitForRevision(ctx, currentRevision(ctx, s)); err != nil {
		return err
	}
	_, err := inf.Pump(ctx)
	return err
}

func countWebPods(ctx context.Context, s *sim.Session) int {
	pods, err := livePods(ctx, s, "app=web")
	if err != nil {
		return -1
	}
	return len(pods)
}

// webReplicaSet is a ReplicaSet "web" of 3 nginx pods labelled app=web.
func webReplicaSet() *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{
			Replicas: api.Ptr(int32(3)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}},
			},
		},
	}
}
