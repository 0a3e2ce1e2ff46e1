// watch_resume.go: watch-resume (article 2, section 2.4): an informer (client-go's reflector,
// in kubesim's client.Informer) loses its watch connection. It remembers the resourceVersion of the
// last event it applied and watches again from there, so it receives exactly the events it missed, in
// the order etcd made them, and none twice. This is what lets every controller survive a broken
// connection without a full LIST.
package scenarios

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:     "watch-resume",
		StepOnly: true,
		Summary:  "an informer's watch breaks; it resumes from its last resourceVersion and gets exactly the missed events",
		Teaches: `An informer lists once, then watches from the list's resourceVersion; each event it applies moves
its resourceVersion on. When the connection breaks, it does not list again: it opens a new watch with
?resourceVersion=<the last one it saw>, and the apiserver's watch cache replays every change after that
revision, in revision order, then carries on live. So the informer's handlers see each change exactly
once, even the ones made while it was disconnected, and its cache ends equal to etcd.

Signs to look for: the handlers' lines before the break; the informer's resourceVersion at the break;
four changes made while it is away (scale, create, set image, delete); after the resume, exactly those
four, in order, each with the revision etcd gave it, and nothing from before the break repeated; the
informer's resourceVersion equal to etcd's revision at the end.`,
		SummaryZH: "informer 的 watch 断了；它从最后的 resourceVersion 继续，恰好收到错过的那些事件",
		TeachesZH: `informer 先 list 一次，再从 list 的 resourceVersion 开始 watch；每应用一个事件，它的 resourceVersion
就往前走。连接断开时，它不重新 list：它用 ?resourceVersion=<它看到的最后一个> 打开一个新 watch，
apiserver 的 watch 缓存按 revision 顺序重放该 revision 之后的每个变化，然后继续实时推送。所以
informer 的处理函数对每个变化恰好看到一次，连断开期间发生的也不例外，它的缓存最终与 etcd 一致。

要看的信号：断开之前处理函数的日志行；断开时 informer 的 resourceVersion；它离开期间做的四个改动
（scale、create、set image、delete）；继续之后恰好是这四个，按顺序，各带 etcd 给它的 revision，断开
前的事件一个也不重复；最后 informer 的 resourceVersion 等于 etcd 的 revision。`,
		ZH: catalog{
			"%d. The watch connection breaks at resourceVersion %s":                             "%d. watch 连接在 resourceVersion %s 处断开",
			"%d. While it is away: scale nginx to 4, create web, set nginx's image, delete web": "%d. 它断开期间：把 nginx 扩到 4、创建 web、修改 nginx 的镜像、删除 web",
			"%d. The informer watches again from its last resourceVersion and catches up":       "%d. informer 从上次的 resourceVersion 重新 watch，追上进度",
			"OnDelete %s (its final state, resourceVersion %s: the deletion's revision)":        "OnDelete %s（最终状态，resourceVersion %s：删除发生时的 revision）",
			"%s: the watch connection is lost; last resourceVersion applied: %s":                "%s：watch 连接断了；最后应用的 resourceVersion：%s",
			"%s exactly the missed events, in etcd's order, none twice: %s (expected %s)":       "%s 恰好是错过的那些事件，按 etcd 的顺序，没有重复：%s（期望 %s）",
			"%s it did not list again: the watch cache still had the history":                   "%s 它没有重新 list：watch 缓存里还有这段历史",
			"%s its cache equals etcd: nginx with 4 replicas of nginx:1.27, no web":             "%s 它的缓存与 etcd 一致：nginx，4 个 nginx:1.27 副本，没有 web",
			"%s its resourceVersion is etcd's revision, %d":                                     "%s 它的 resourceVersion 就是 etcd 的 revision，%d",
			"%s the disconnected informer's handlers saw nothing":                               "%s 断开连接的 informer 的处理函数什么也没看到",
		},
		Run: runWatchResume,
	})
}

// handlerLog is what an informer's handlers saw, in order: "MODIFIED default/nginx@25".
type handlerLog struct {
	s    *sim.Session
	seen []string
}

// handlerNames are client-go's names for the handler each kind of change calls.
var handlerNames = map[string]string{"ADDED": "OnAdd", "MODIFIED": "OnUpdate", "DELETED": "OnDelete"}

func (h *handlerLog) record(kind string, d *api.Deployment) {
	h.seen = append(h.seen, fmt.Sprintf("%s %s@%s", kind, d.Key(), d.ResourceVersion))
	e := trace.Event{Component: "my-controller", Action: "handler", Object: "deployments/" + d.Key(), ResourceVersion: d.ResourceVersion}
	if kind == "DELETED" {
		h.s.Trace.Record(e.Msgf("OnDelete %s (its final state, resourceVersion %s: the deletion's revision)", d.Key(), d.ResourceVersion))
		return
	}
	h.s.Trace.Record(e.Msgf("%s %s (resourceVersion %s, replicas %d, image %s)", handlerNames[kind], d.Key(), d.ResourceVersion,
		*d.Spec.Replicas, d.Spec.Template.Spec.Containers[0].Image))
}

// handlers are the informer's event handlers, logging every call. A delete reports the object's final
// state as the deletion event carried it, as client-go's OnDelete does.
func (h *handlerLog) handlers() client.Handler[*api.Deployment] {
	return client.Handler[*api.Deployment]{
		OnAdd:    func(d *api.Deployment) { h.record("ADDED", d) },
		OnUpdate: func(_, d *api.Deployment) { h.record("MODIFIED", d) },
		OnDelete: func(d *api.Deployment) { h.record("DELETED", d) },
	}
}

// myInformer is the watch scenarios' first step: the nginx Deployment, then a Deployment informer of
// a learner's own controller ("my-controller", running with the admin's credentials) that lists and
// starts watching, logging what its handlers see.
func myInformer(ctx context.Context, s *sim.Session) (*client.Informer[api.Deployment, *api.Deployment], *handlerLog, error) {
	s.Step("kubectl apply -f nginx-deployment.yaml; my-controller's informer lists and starts watching")
	if !applyFile(ctx, s, "nginx-deployment.yaml") {
		return nil, nil, s.Err()
	}
	cl := s.Client("kubernetes-admin", "my-controller", apiserver.GroupMasters)
	inf := client.NewInformer[api.Deployment](cl, client.InformerOptions{Namespace: "default", Clock: s.Clock, Trace: s.Trace,
		Name: "my-controller deployments informer"})
	log := &handlerLog{s: s}
	inf.AddHandler(log.handlers())
	return inf, log, inf.Sync(ctx)
}

// catchUp pumps an informer until it has applied everything etcd holds now. It is bounded: an
// informer that cannot catch up is a failed sign, not a hang.
func catchUp(ctx context.Context, s *sim.Session, inf *client.Informer[api.Deployment, *api.Deployment]) error {
	rev, err := s.Store.CurrentRevision(ctx)
	if err != nil {
		return err
	}
	if err := s.APIServer.WaitForRevision(ctx, rev); err != nil {
		return err
	}
	for range 100 {
		if _, err := inf.Pump(ctx); err != nil {
			return err
		}
		if last, _ := strconv.ParseInt(inf.LastResourceVersion(), 10, 64); last >= rev {
			return nil
		}
		s.APIServer.Bookmark() // carries the revision to a watcher whose last events were not for it
	}
	return fmt.Errorf("the informer did not reach revision %d (it is at %s)", rev, inf.LastResourceVersion())
}

// missedChanges makes four changes to Deployments in default (scale nginx to 4, create web, set nginx's
// image, delete web) and returns what an informer's handlers should see for them, in order.
func missedChanges(ctx context.Context, s *sim.Session) ([]string, error) {
	k := s.Kubectl
	var want []string
	note := func(kind, key string) error {
		rev, err := s.Store.CurrentRevision(ctx)
		want = append(want, fmt.Sprintf("%s default/%s@%d", kind, key, rev))
		return err
	}
	if err := k.Scale(ctx, "deployments", "default", "nginx", 4); err != nil {
		return nil, err
	}
	if err := note("MODIFIED", "nginx"); err != nil {
		return nil, err
	}
	web := strings.ReplaceAll(manifests.NginxDeployment, "nginx", "web")
	web = strings.Replace(web, "image: web:1.25", "image: nginx:1.25", 1)
	if _, err := k.Apply(ctx, []byte(web)); err != nil {
		return nil, err
	}
	if err := note("ADDED", "web"); err != nil {
		return nil, err
	}
	if err := k.SetImage(ctx, "default", "nginx", "nginx", "nginx:1.27"); err != nil {
		return nil, err
	}
	if err := note("MODIFIED", "nginx"); err != nil {
		return nil, err
	}
	if err := k.Delete(ctx, "deployments", "default", "web", client.DeleteOptions{}); err != nil {
		return nil, err
	}
	// A delete hands the handler the object's final state, stamped with the deletion's revision.
	if err := note("DELETED", "web"); err != nil {
		return nil, err
	}
	return want, nil
}

func runWatchResume(ctx context.Context, s *sim.Session) error {
	inf, log, err := myInformer(ctx, s)
	if err != nil {
		return err
	}
	defer inf.Stop()
	if err := s.Kubectl.Scale(ctx, "deployments", "default", "nginx", 2); err != nil {
		return err
	}
	if err := catchUp(ctx, s, inf); err != nil {
		return err
	}
	s.Expect(len(log.seen) == 2 && strings.HasPrefix(log.seen[0], "ADDED default/nginx@") && strings.HasPrefix(log.seen[1], "MODIFIED default/nginx@"),
		"the handlers saw: %s", strings.Join(log.seen, ", "))

	s.Step("The watch connection breaks at resourceVersion %s", inf.LastResourceVersion())
	inf.Disconnect()
	s.Trace.Record(trace.Event{Component: "my-controller", Action: "disconnect"}.
		Msgf("%s: the watch connection is lost; last resourceVersion applied: %s", "my-controller deployments informer", inf.LastResourceVersion()))
	before := len(log.seen)

	s.Step("While it is away: scale nginx to 4, create web, set nginx's image, delete web")
	want, err := missedChanges(ctx, s)
	if err != nil {
		s.Expect(false, "the four changes are made: %v", err)
		return s.Err()
	}
	s.Expect(len(log.seen) == before, "the disconnected informer's handlers saw nothing")

	s.Step("The informer watches again from its last resourceVersion and catches up")
	if err := catchUp(ctx, s, inf); err != nil {
		s.Expect(false, "the informer catches up: %v", err)
		return s.Err()
	}
	got := log.seen[before:]
	s.Expect(strings.Join(got, ", ") == strings.Join(want, ", "),
		"exactly the missed events, in etcd's order, none twice: %s (expected %s)", strings.Join(got, ", "), strings.Join(want, ", "))
	s.Expect(inf.Relists() == 0, "it did not list again: the watch cache still had the history")
	rev, _ := s.Store.CurrentRevision(ctx)
	s.Expect(inf.LastResourceVersion() == strconv.FormatInt(rev, 10), "its resourceVersion is etcd's revision, %d", rev)
	cached, ok := inf.Get("default/nginx")
	_, webCached := inf.Get("default/web")
	s.Expect(ok && *cached.Spec.Replicas == 4 && cached.Spec.Template.Spec.Containers[0].Image == "nginx:1.27" && !webCached && inf.Len() == 1,
		"its cache equals etcd: nginx with 4 replicas of nginx:1.27, no web")
	return s.Err()
}
