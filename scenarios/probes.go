// probes.go: probes, the kubelet's three health checks (article 2, section 6.2): a liveness
// probe that starts failing gets its container restarted; a readiness probe that starts failing
// takes the pod out of Ready without restarting anything; a startup probe holds off the liveness
// probe of a slow starter, which without it is killed before it ever serves.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "probes",
		Summary: "liveness fails -> restart; readiness fails -> Ready=False; a startupProbe protects a slow starter",
		Teaches: `The kubelet probes each container as its spec says, every periodSeconds (default 10), and acts only
after failureThreshold (default 3) failures in a row. Four pods:

  liveness-http    nginx whose HTTP liveness probe starts answering 500 after 30s: three failures, then
                   the kubelet kills the container ("Container nginx failed liveness probe, will be
                   restarted") and restartPolicy Always starts a new one.
  readiness-exec   the classic "cat /tmp/healthy" readiness probe on a shell that removes the file after
                   30s: the pod's Ready condition flips from True to False, and nothing is restarted.
                   A Service would stop sending it traffic (its endpoints list only Ready pods); kubesim
                   has no endpoints controller yet, so only the condition flip is shown.
  slow-start       a server that takes 60s before it listens, with a liveness probe and a startupProbe
                   allowing up to 30 x 10s: the liveness probe does not run until the startup probe
                   passes, so the container starts once and becomes Ready.
  slow-unguarded   the same server and liveness probe without the startupProbe: the liveness probe
                   fails three times before the server listens, the container is killed at about 30s,
                   and every restart starts the wait over: it never serves. (With no readiness probe
                   the kubelet even reports it Ready while it runs: Ready means "the readiness probe
                   passes", and without one it means only "running".)

Signs to look for: the events "Liveness probe failed: HTTP probe failed with statuscode: 500",
"Container nginx failed liveness probe, will be restarted", "Readiness probe failed: ...", "Startup
probe failed: ... connection refused"; RESTARTS of liveness-http and slow-unguarded growing; the Ready
condition of readiness-exec going True then False with RESTARTS 0; slow-start Ready with RESTARTS 0.`,
		SummaryZH: "存活探针失败 -> 重启；就绪探针失败 -> Ready=False；startupProbe 保护启动慢的容器",
		TeachesZH: `kubelet 按容器 spec 的规定对每个容器做探测，每 periodSeconds（默认 10）一次，连续失败
failureThreshold（默认 3）次才采取行动。四个 Pod：

  liveness-http    nginx，它的 HTTP 存活探针 30s 后开始返回 500：失败三次后 kubelet 杀掉容器
                   （"Container nginx failed liveness probe, will be restarted"），restartPolicy
                   Always 再启动一个新的。
  readiness-exec   经典的 "cat /tmp/healthy" 就绪探针，配一个 30s 后删掉该文件的 shell：Pod 的 Ready
                   状况从 True 翻成 False，什么也不重启。Service 会停止给它发流量（它的 endpoints 只
                   列出就绪的 Pod）；kubesim 还没有 endpoints 控制器，所以只展示状况的翻转。
  slow-start       一个要 60s 才开始监听的服务，带存活探针和一个最多允许 30 x 10s 的 startupProbe：
                   启动探针通过之前存活探针不运行，所以容器只启动一次，然后变为 Ready。
  slow-unguarded   同样的服务和存活探针，但没有 startupProbe：服务开始监听之前存活探针就失败了三次，
                   容器在约 30s 时被杀，每次重启都从头再等：它永远提供不了服务。（没有就绪探针时，
                   kubelet 甚至在它运行期间报告它 Ready：Ready 的意思是“就绪探针通过”，没有就绪探针
                   时只表示“在运行”。）

要看的信号：事件 "Liveness probe failed: HTTP probe failed with statuscode: 500"、"Container nginx
failed liveness probe, will be restarted"、"Readiness probe failed: ..."、"Startup probe failed: ...
connection refused"；liveness-http 和 slow-unguarded 的 RESTARTS 不断增加；readiness-exec 的 Ready
状况先 True 后 False，RESTARTS 为 0；slow-start Ready，RESTARTS 为 0。`,
		Cluster: sim.FullCluster(3),
		ZH: catalog{
			"%d. kubectl apply: liveness-http, readiness-exec, slow-start (with a startupProbe) and slow-unguarded (without)":  "%d. kubectl apply：liveness-http、readiness-exec、slow-start（有 startupProbe）和 slow-unguarded（没有）",
			"%d. 30s on, /tmp/healthy is gone: readiness-exec's readiness probe fails and the pod leaves Ready":                "%d. 30 秒后 /tmp/healthy 被删除：readiness-exec 的就绪探针失败，Pod 不再 Ready",
			"%d. liveness-http answers 500 after 30s: three failed liveness probes, then the kubelet restarts it":              "%d. liveness-http 30 秒后开始返回 500：存活探针连续失败三次，kubelet 重启容器",
			"%d. The slow starters: slow-unguarded is killed before it listens; slow-start waits behind its startupProbe":      "%d. 启动慢的两个：slow-unguarded 还没开始监听就被杀；slow-start 有 startupProbe 护着，等到启动完成",
			"%d. What kubectl describe pod shows under Events":                                                                 "%d. kubectl describe pod 的 Events 里能看到什么",
			"%s kubectl describe pod %s: %s %s: %s":                                                                            "%s kubectl describe pod %s 显示：%s %s：%s",
			"%s kubectl get pod liveness-http: RESTARTS 1; the new container answers 200 again, for its first 30s":             "%s kubectl get pod liveness-http：重启 1 次；新容器又回答 200 了，在它的前 30 秒里",
			"%s kubectl get pod readiness-exec: READY 0/1, STATUS Running, RESTARTS 0: not ready is not restarted":             "%s kubectl get pod readiness-exec：READY 0/1，STATUS Running，重启 0 次：未就绪不会被重启",
			"%s readiness-exec is Ready: cat /tmp/healthy succeeds":                                                            "%s readiness-exec 已就绪：cat /tmp/healthy 成功",
			"%s slow-start: Ready once its server listened (60s), RESTARTS 0: the startup probe kept the liveness probe away":  "%s slow-start：服务开始监听（60 秒）后就绪，重启 0 次：启动探针挡住了存活探针",
			"%s slow-unguarded: RESTARTS %d: its liveness probe kills it about 30s into each 60s start-up, so it never serves": "%s slow-unguarded：重启 %d 次：每次 60 秒的启动进行到约 30 秒时，存活探针就杀掉它，所以它从未提供服务",
		},
		Run: runProbes,
	})
}

func runProbes(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: liveness-http, readiness-exec, slow-start (with a startupProbe) and slow-unguarded (without)")
	if !applyFile(ctx, s, "probes.yaml") {
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "pod readiness-exec ready") {
		return s.Err()
	}
	s.Expect(true, "readiness-exec is Ready: cat /tmp/healthy succeeds")

	s.Step("30s on, /tmp/healthy is gone: readiness-exec's readiness probe fails and the pod leaves Ready")
	if !s.Until(ctx, 2*time.Minute, sim.Check("readiness-exec Ready=False", func() (bool, error) {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "readiness-exec")
		return err == nil && podReady(p) == api.ConditionFalse, err
	})) {
		return s.Err()
	}
	p, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "readiness-exec")
	s.Expect(p.Status.Phase == api.PodRunning && restarts(p) == 0,
		"kubectl get pod readiness-exec: READY 0/1, STATUS Running, RESTARTS 0: not ready is not restarted")

	s.Step("liveness-http answers 500 after 30s: three failed liveness probes, then the kubelet restarts it")
	if !s.Until(ctx, 2*time.Minute, sim.Check("liveness-http restarted", func() (bool, error) {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "liveness-http")
		return err == nil && restarts(p) >= 1, err
	})) {
		return s.Err()
	}
	p, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "liveness-http")
	s.Expect(restarts(p) == 1 && p.Status.Phase == api.PodRunning,
		"kubectl get pod liveness-http: RESTARTS 1; the new container answers 200 again, for its first 30s")

	s.Step("The slow starters: slow-unguarded is killed before it listens; slow-start waits behind its startupProbe")
	if !s.Until(ctx, 3*time.Minute, sim.Check("slow-start Ready", func() (bool, error) {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "slow-start")
		return err == nil && podReady(p) == api.ConditionTrue, err
	})) {
		return s.Err()
	}
	p, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "slow-start")
	s.Expect(restarts(p) == 0, "slow-start: Ready once its server listened (60s), RESTARTS 0: the startup probe kept the liveness probe away")
	p, _ = sim.Get[api.Pod](ctx, s.Cluster, "default", "slow-unguarded")
	s.Expect(restarts(p) >= 2,
		"slow-unguarded: RESTARTS %d: its liveness probe kills it about 30s into each 60s start-up, so it never serves", restarts(p))

	s.Step("What kubectl describe pod shows under Events")
	events, err := sim.List[api.Event](ctx, s.Cluster, "default", "", "")
	if err != nil {
		return err
	}
	for _, want := range []struct{ pod, reason, message string }{
		{"liveness-http", "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 500"},
		{"liveness-http", "Killing", "Container nginx failed liveness probe, will be restarted"},
		{"readiness-exec", "Unhealthy", "Readiness probe failed: "},
		{"slow-start", "Unhealthy", "Startup probe failed: "},
		{"slow-unguarded", "Unhealthy", "Liveness probe failed: "},
		{"slow-unguarded", "Killing", "Container app failed liveness probe, will be restarted"},
	} {
		e := sim.FindEvent(about(events, want.pod), want.reason, want.message)
		s.Expect(e != nil, "kubectl describe pod %s: %s %s: %s", want.pod, eventType(e), want.reason, eventMessage(e, want.message))
	}
	return s.Err()
}

func eventType(e *api.Event) string {
	if e == nil {
		return "?"
	}
	return e.Type
}

// eventMessage is the event's message, or what was looked for if there is no such event.
func eventMessage(e *api.Event, wanted string) string {
	if e == nil {
		return wanted
	}
	return e.Message
}
