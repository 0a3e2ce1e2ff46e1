// watch_expired.go: watch-expired (article 2, section 2.4): etcd keeps a bounded history
// (kube-apiserver compacts it every 5 minutes), and the watch cache keeps a bounded window of it. An
// informer that was away longer than that cannot resume: its watch is answered 410 Gone ("too old
// resource version"), and it must list everything again (a relist), which the apiserver's request
// counts show as an extra LIST. It gets the present state, not the history it missed.
package scenarios

import (
	"context"
	"strings"

	"kubesim/api"
	"kubesim/sim"
	"kubesim/wire"
)

func init() {
	register(sim.Scenario{
		Name:     "watch-expired",
		StepOnly: true,
		Summary:  "etcd is compacted past an informer's resourceVersion: 410 Gone, a relist (an extra LIST), the present state",
		Teaches: `A watch resumes from a resourceVersion only while the history after it still exists. etcd compacts
old revisions away (kube-apiserver asks it to every 5 minutes), and the watch cache keeps only a window
of recent events. An informer that asks to resume from a compacted revision is answered 410 Gone,
"too old resource version". It then lists everything again (in client-go, the reflector's relist), which
replaces its cache and calls its handlers for the differences; and it watches from the new list's
resourceVersion. It never sees the intermediate events: a Deployment created and deleted while it was
away never appears at all. Controllers are written level-based (compare desired and actual state, not
events) exactly so that this costs nothing but a LIST. Many informers relisting at once is the "relist
storm" that a large cluster's apiserver fears.

Signs to look for: etcd's "compacted history up to revision N"; the informer's "watch from
resourceVersion ... answered 410 Gone (too old resource version ...)"; Relists() = 1; the apiserver's
apiserver_request_total for LIST deployments.apps one higher, and one WATCH with code 410; the handlers
seeing nginx's final state once and nothing of web.`,
		SummaryZH: "etcd 被压缩到 informer 的 resourceVersion 之后：410 Gone，重新 list（多一次 LIST），得到当前状态",
		TeachesZH: `watch 只有在某个 resourceVersion 之后的历史还在时，才能从它继续。etcd 会把旧的 revision 压缩掉
（kube-apiserver 每 5 分钟要求它做一次），watch 缓存也只保留最近一段事件。要求从已被压缩的 revision
继续的 informer 得到 410 Gone，"too old resource version"。于是它重新 list 全部对象（在 client-go 里
是 reflector 的 relist），替换自己的缓存，对差异调用处理函数；然后从新 list 的 resourceVersion 开始
watch。它永远看不到中间的事件：它离开期间创建又删除的 Deployment 根本不会出现。控制器之所以写成基于
水平（比较期望状态和实际状态，而不是事件），正是为了让这件事只花一次 LIST 的代价。大量 informer 同时
relist，就是大集群的 apiserver 最怕的“relist 风暴”。

要看的信号：etcd 的 "compacted history up to revision N"；informer 的 "watch from resourceVersion
... answered 410 Gone (too old resource version ...)"；Relists() = 1；apiserver 的
apiserver_request_total 中 LIST deployments.apps 多了一次，还有一次 code 为 410 的 WATCH；处理函数只
看到 nginx 的最终状态一次，完全看不到 web。`,
		ZH: catalog{
			"%d. The watch connection breaks at resourceVersion %s, and stays down a while":                           "%d. watch 连接在 resourceVersion %s 处断开，而且断了好一阵",
			"%d. Meanwhile kube-apiserver has etcd compact its history up to the current revision":                    "%d. 与此同时 kube-apiserver 让 etcd 把历史压缩到当前 revision",
			"%d. The informer tries to resume: 410 Gone, so it lists everything again":                                "%d. informer 试图续传：410 Gone，只好重新全量 list",
			"%d. What the handlers saw: the present state, not the history":                                           "%d. 处理函数看到的是现状，而不是历史",
			"%s apiserver_request_total{verb=\"LIST\", resource=\"deployments\", code=\"200\"}: %d -> %d, the relist": "%s apiserver_request_total{verb=\"LIST\", resource=\"deployments\", code=\"200\"}：%d -> %d，这就是重新 list",
			"%s apiserver_request_total{verb=\"WATCH\", resource=\"deployments\", code=\"410\"}: %d -> %d":            "%s apiserver_request_total{verb=\"WATCH\", resource=\"deployments\", code=\"410\"}：%d -> %d（多了一次 410 Gone）",
			"%s its cache equals etcd: nginx with 4 replicas of nginx:1.27":                                           "%s 它的缓存与 etcd 一致：nginx，4 个 nginx:1.27 副本",
			"%s one call, for nginx as it is now (resourceVersion %s): %s":                                            "%s 只调用一次，针对 nginx 的当前状态（resourceVersion %s）：%s",
			"%s the informer relisted once (Relists() = 1)":                                                           "%s informer 重新 list 了一次（Relists() = 1）",
			"%s web, created and deleted while it was away, never appeared":                                           "%s web 在它离开期间被创建又删除，从未出现",
		},
		Run: runWatchExpired,
	})
}

// requestCount is apiserver_request_total for one verb, resource and code.
func requestCount(s *sim.Session, verb, resource string, code int) int64 {
	for _, r := range s.APIServer.Requests() {
		if r.Verb == verb && r.Resource == resource && r.Code == code {
			return r.Count
		}
	}
	return 0
}

func runWatchExpired(ctx context.Context, s *sim.Session) error {
	inf, log, err := myInformer(ctx, s)
	if err != nil {
		return err
	}
	defer inf.Stop()
	if err := catchUp(ctx, s, inf); err != nil {
		return err
	}
	s.Expect(len(log.seen) == 1, "the handlers saw: %s", strings.Join(log.seen, ", "))

	s.Step("The watch connection breaks at resourceVersion %s, and stays down a while", inf.LastResourceVersion())
	inf.Disconnect()
	before := len(log.seen)
	if _, err := missedChanges(ctx, s); err != nil {
		s.Expect(false, "the four changes are made: %v", err)
		return s.Err()
	}

	s.Step("Meanwhile kube-apiserver has etcd compact its history up to the current revision")
	if err := s.CompactEtcd(ctx); err != nil {
		return err
	}

	s.Step("The informer tries to resume: 410 Gone, so it lists everything again")
	lists := requestCount(s, wire.VerbList, "deployments.apps", 200)
	gone := requestCount(s, wire.VerbWatch, "deployments.apps", 410)
	if err := catchUp(ctx, s, inf); err != nil {
		s.Expect(false, "the informer catches up: %v", err)
		return s.Err()
	}
	s.Expect(inf.Relists() == 1, "the informer relisted once (Relists() = 1)")
	listsAfter := requestCount(s, wire.VerbList, "deployments.apps", 200)
	goneAfter := requestCount(s, wire.VerbWatch, "deployments.apps", 410)
	s.Expect(goneAfter == gone+1, `apiserver_request_total{verb="WATCH", resource="deployments", code="410"}: %d -> %d`, gone, goneAfter)
	s.Expect(listsAfter == lists+1, `apiserver_request_total{verb="LIST", resource="deployments", code="200"}: %d -> %d, the relist`, lists, listsAfter)

	s.Step("What the handlers saw: the present state, not the history")
	got := log.seen[before:]
	rv := "?"
	if d := objectNow[api.Deployment](ctx, s, "default", "nginx"); d != nil {
		rv = d.ResourceVersion
	}
	s.Expect(len(got) == 1 && got[0] == "MODIFIED default/nginx@"+rv,
		"one call, for nginx as it is now (resourceVersion %s): %s", rv, strings.Join(got, ", "))
	s.Expect(!strings.Contains(strings.Join(got, " "), "web"), "web, created and deleted while it was away, never appeared")
	cached, ok := inf.Get("default/nginx")
	s.Expect(ok && *cached.Spec.Replicas == 4 && cached.Spec.Template.Spec.Containers[0].Image == "nginx:1.27" && inf.Len() == 1,
		"its cache equals etcd: nginx with 4 replicas of nginx:1.27")
	return s.Err()
}
