// readiness_removes_endpoint.go: readiness is what a Service acts on (article 2, section
// 6.2): when a pod's readiness probe starts failing, the EndpointSlice controller marks it
// ready=false, the Endpoints controller moves it to notReadyAddresses, and kube-proxy drops it from
// the Service's rules, all without restarting anything.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "readiness-removes-endpoint",
		Summary: "a pod's readiness probe fails: it leaves the Service's ready endpoints and kube-proxy's rules, unrestarted",
		Teaches: `Two pods behind Service web, both with the readiness probe "cat /tmp/healthy". web-flaky removes the file
after 30s: three failed probes later its Ready condition turns False. Then, within one reconcile:

  EndpointSlice  its endpoint stays, with ready=false and serving=false (it is not terminating)
  Endpoints      its address moves from addresses to notReadyAddresses
  kube-proxy     the KUBE-SVC chain keeps only web-stable's KUBE-SEP, with no --probability

Nothing is restarted (RESTARTS 0): readiness decides where traffic goes, liveness decides restarts.

Signs to look for: two ready endpoints, then "ready 1, not ready 1"; "kubectl get endpoints web" with one
address and one not-ready address; the KUBE-SVC chain with a single rule; "kubesim net trace" still reaching
web-stable.`,
		SummaryZH: "Pod 的就绪探针失败：它离开 Service 的就绪端点和 kube-proxy 的规则，但不被重启",
		TeachesZH: `Service web 后面有两个 Pod，都带就绪探针 "cat /tmp/healthy"。web-flaky 在 30s 后删掉这个文件：三次
探测失败后它的 Ready 状况变为 False。然后在一次调谐之内：

  EndpointSlice  它的端点还在，但 ready=false、serving=false（它并没有在终止）
  Endpoints      它的地址从 addresses 移到 notReadyAddresses
  kube-proxy     KUBE-SVC 链只保留 web-stable 的 KUBE-SEP，没有 --probability

什么都不重启（RESTARTS 0）：就绪探针决定流量去哪儿，存活探针决定是否重启。

要看的信号：先是两个就绪端点，然后 "ready 1, not ready 1"；"kubectl get endpoints web" 有一个地址和
一个未就绪地址；KUBE-SVC 链只有一条规则；"kubesim net trace" 仍然到达 web-stable。`,
		Cluster: sim.FullCluster(3),
		Run:     runReadinessRemovesEndpoint,
		ZH: netCatalog(catalog{
			"%d. kubectl apply: pods web-stable and web-flaky (readiness probe cat /tmp/healthy), Service web, pod client": "%d. kubectl apply：Pod web-stable 和 web-flaky（就绪探针 cat /tmp/healthy）、Service web、Pod client",
			"%s both pods Ready: the EndpointSlice lists 2 ready endpoints":                                                "%s 两个 Pod 都已就绪：EndpointSlice 列出 2 个就绪端点",
			"%s KUBE-SVC: two KUBE-SEP rules, the first with --probability 0.5000000000":                                   "%s KUBE-SVC 链：两条 KUBE-SEP 规则，第一条带 --probability 0.5000000000",
			"%d. 30s on, web-flaky's readiness probe fails three times: Ready=False, and it leaves the ready endpoints":    "%d. 30 秒后，web-flaky 的就绪探针连续失败三次：Ready=False，它离开了就绪端点",
			"%s EndpointSlice: web-flaky ready=false, serving=false, terminating=false":                                    "%s EndpointSlice 中：web-flaky ready=false，serving=false，terminating=false",
			"%s kubectl get endpoints web: one address; web-flaky moved to notReadyAddresses":                              "%s kubectl get endpoints web：只剩一个地址；web-flaky 移到了 notReadyAddresses",
			"%s KUBE-SVC: one KUBE-SEP rule left, no --probability: web-flaky is out of the rules":                         "%s KUBE-SVC 链：只剩一条 KUBE-SEP 规则，没有 --probability：web-flaky 已不在规则里",
			"%s kubectl get pod web-flaky: READY 0/1, STATUS Running, RESTARTS 0":                                          "%s kubectl get pod web-flaky：READY 0/1，STATUS Running，重启 0 次",
			"%d. kubesim net trace --from client --to web:80: traffic goes to web-stable only":                             "%d. kubesim net trace --from client --to web:80：流量只会去 web-stable",
			"%s the endpoint reached is web-stable":                                                                        "%s 到达的端点是 web-stable",
		}),
	})
}

func runReadinessRemovesEndpoint(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: pods web-stable and web-flaky (readiness probe cat /tmp/healthy), Service web, pod client")
	if !applyFile(ctx, s, "readiness-endpoint.yaml") || !applyFile(ctx, s, "client-pod.yaml") {
		return s.Err()
	}
	if !until(ctx, s, time.Minute, "pods -l app=web ready") || !waitForEndpoints(ctx, s, time.Minute, "default", "web", 2, 0) {
		return s.Err()
	}
	s.Expect(true, "both pods Ready: the EndpointSlice lists 2 ready endpoints")
	rules := showRules(ctx, s, "node-1", "default/web ->")
	s.Expect(len(rules) == 2 && hasLine(rules, "--probability 0.5000000000"), "KUBE-SVC: two KUBE-SEP rules, the first with --probability 0.5000000000")

	s.Step("30s on, web-flaky's readiness probe fails three times: Ready=False, and it leaves the ready endpoints")
	if !s.Until(ctx, 2*time.Minute, sim.Check("web-flaky Ready=False", func() (bool, error) {
		p, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "web-flaky")
		return err == nil && podReady(p) == api.ConditionFalse, err
	})) || !waitForEndpoints(ctx, s, time.Minute, "default", "web", 1, 1) {
		return s.Err()
	}
	slices, _ := slicesOf(ctx, s, "default", "web")
	var flaky *api.Endpoint
	for _, sl := range slices {
		for i, ep := range sl.Endpoints {
			if ep.TargetRef != nil && ep.TargetRef.Name == "web-flaky" {
				flaky = &sl.Endpoints[i]
			}
		}
	}
	s.Expect(flaky != nil && !*flaky.Conditions.Ready && !*flaky.Conditions.Serving && !*flaky.Conditions.Terminating,
		"EndpointSlice: web-flaky ready=false, serving=false, terminating=false")
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}
	eps, err := sim.Get[api.Endpoints](ctx, s.Cluster, "default", "web")
	s.Expect(err == nil && len(eps.Subsets) == 1 && len(eps.Subsets[0].Addresses) == 1 && len(eps.Subsets[0].NotReadyAddresses) == 1,
		"kubectl get endpoints web: one address; web-flaky moved to notReadyAddresses")
	rules = showRules(ctx, s, "node-1", "default/web ->")
	s.Expect(len(rules) == 1 && !hasLine(rules, "--probability"), "KUBE-SVC: one KUBE-SEP rule left, no --probability: web-flaky is out of the rules")
	p, _ := sim.Get[api.Pod](ctx, s.Cluster, "default", "web-flaky")
	s.Expect(p != nil && restarts(p) == 0 && p.Status.Phase == api.PodRunning, "kubectl get pod web-flaky: READY 0/1, STATUS Running, RESTARTS 0")

	s.Step("kubesim net trace --from client --to web:80: traffic goes to web-stable only")
	r := netTrace(ctx, s, "client", "web:80")
	expectReached(s, r)
	if r.Reached {
		s.Expect(len(r.Hops) > 0 && hasLine(r.Hops[len(r.Hops)-2].Lines, "web-stable"), "the endpoint reached is web-stable")
	}
	return s.Err()
}
