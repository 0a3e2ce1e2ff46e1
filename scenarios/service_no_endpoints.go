// service_no_endpoints.go: "the app is running but I cannot reach it" (article 3, section
// 7): a Service whose selector matches no pod has an empty EndpointSlice, `kubectl get endpoints`
// prints <none>, and kube-proxy REJECTs connections to it. Fixing the selector brings the endpoints.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "service-no-endpoints",
		Summary: "a Service whose selector matches no pod: no endpoints, kube-proxy REJECTs; fixing the selector fixes it",
		Teaches: `The Deployment's pods are labelled app=web-app; the Service selects app=web. The pods run and are
Ready, the Service has a cluster IP, and yet every connection is refused at once: the EndpointSlice
controller finds no pod matching app=web, so the Service's EndpointSlice is empty and kube-proxy writes a
REJECT rule in the filter table ("default/web:http has no endpoints") instead of a KUBE-SVC chain.

Signs to look for: "kubectl get endpoints web" showing <none>; an EndpointSlice with no endpoints;
"-j REJECT" with the comment "default/web:http has no endpoints" in iptables-save; "kubesim net trace"
stopping at the rules hop with "the selector app=web matches no pod in namespace default; its pods are
labelled ... app=web-app"; then, after kubectl apply of the corrected selector, three ready endpoints and
the trace reaching a pod.`,
		SummaryZH: "Service 的 selector 匹配不到任何 Pod：没有 endpoints，kube-proxy REJECT；改好 selector 就好了",
		TeachesZH: `Deployment 的 Pod 标签是 app=web-app；Service 选的是 app=web。Pod 在运行，也已就绪，Service 也有
cluster IP，可每个连接都立刻被拒绝：EndpointSlice 控制器找不到匹配 app=web 的 Pod，所以 Service 的
EndpointSlice 是空的，kube-proxy 在 filter 表里写的是一条 REJECT 规则（"default/web:http has no
endpoints"），而不是一条 KUBE-SVC 链。

要看的信号："kubectl get endpoints web" 显示 <none>；一个没有端点的 EndpointSlice；iptables-save 里
带注释 "default/web:http has no endpoints" 的 "-j REJECT"；"kubesim net trace" 停在规则那一跳，提示
"the selector app=web matches no pod in namespace default; its pods are labelled ... app=web-app"；
然后 kubectl apply 改正后的 selector，出现三个就绪端点，trace 到达一个 Pod。`,
		Cluster: sim.FullCluster(3),
		Run:     runServiceNoEndpoints,
		ZH: netCatalog(catalog{
			"%d. kubectl apply: Deployment web (pods labelled app=web-app), Service web (selector app=web), pod client": "%d. kubectl apply：Deployment web（Pod 的标签是 app=web-app）、Service web（selector 是 app=web）、Pod client",
			"%s kubectl get pods: the three web pods are Running and Ready":                                             "%s kubectl get pods：三个 web Pod 都已 Running 且 Ready",
			"%d. kubectl get endpoints web; kubectl get endpointslices -l kubernetes.io/service-name=web":               "%d. 查看端点：kubectl get endpoints web；kubectl get endpointslices -l kubernetes.io/service-name=web",
			"%s kubectl get endpoints web: ENDPOINTS <none>":                                                            "%s kubectl get endpoints web：ENDPOINTS <none>，一个端点也没有",
			"%s one EndpointSlice, with no endpoints":                                                                   "%s 有一个 EndpointSlice，里面没有端点",
			"%d. kube-proxy's rules for the Service: a REJECT, no KUBE-SVC chain":                                       "%d. kube-proxy 为这个 Service 写的规则：一条 REJECT，没有 KUBE-SVC 链",
			"%s iptables-save: -A KUBE-SERVICES ... \"default/web:http has no endpoints\" ... -j REJECT":                "%s iptables-save 中有：-A KUBE-SERVICES ... \"default/web:http has no endpoints\" ... -j REJECT（直接拒绝连接）",
			"%s no KUBE-SVC chain for default/web:http":                                                                 "%s default/web:http 没有 KUBE-SVC 链",
			"%d. Fix the selector: kubectl apply the Service with selector app=web-app":                                 "%d. 修正 selector：kubectl apply 把 Service 的 selector 改为 app=web-app",
			"%s the EndpointSlice now lists the three pods, ready":                                                      "%s EndpointSlice 现在列出了三个 Pod，都已就绪",
		}),
	})
}

func runServiceNoEndpoints(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: Deployment web (pods labelled app=web-app), Service web (selector app=web), pod client")
	if !applyFile(ctx, s, "service-no-endpoints.yaml") || !applyFile(ctx, s, "client-pod.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 2*time.Minute, "pods -l app=web-app ready") || !until(ctx, s, time.Minute, "pod client running") {
		return s.Err()
	}
	s.Expect(true, "kubectl get pods: the three web pods are Running and Ready")

	s.Step("kubectl get endpoints web; kubectl get endpointslices -l kubernetes.io/service-name=web")
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}
	eps, err := sim.Get[api.Endpoints](ctx, s.Cluster, "default", "web")
	s.Expect(err == nil && len(eps.Subsets) == 0, "kubectl get endpoints web: ENDPOINTS <none>")
	slices, _ := slicesOf(ctx, s, "default", "web")
	ready, notReady := sliceEndpoints(slices)
	s.Expect(len(slices) == 1 && ready+notReady == 0, "one EndpointSlice, with no endpoints")

	s.Step("kube-proxy's rules for the Service: a REJECT, no KUBE-SVC chain")
	rules := showRules(ctx, s, "node-1", "default/web:http")
	s.Expect(hasLine(rules, `"default/web:http has no endpoints"`, "-j REJECT"),
		`iptables-save: -A KUBE-SERVICES ... "default/web:http has no endpoints" ... -j REJECT`)
	s.Expect(!hasLine(rules, "KUBE-SVC-"), "no KUBE-SVC chain for default/web:http")

	s.Step("kubesim net trace --from client --to web:80")
	expectUnreachable(s, netTrace(ctx, s, "client", "web:80"), "rules", "the selector app=web matches no pod in namespace default; its pods are labelled")

	s.Step("Fix the selector: kubectl apply the Service with selector app=web-app")
	if !applyFile(ctx, s, "service-fixed-selector.yaml") {
		return s.Err()
	}
	if !waitForEndpoints(ctx, s, time.Minute, "default", "web", 3, 0) {
		return s.Err()
	}
	s.Expect(true, "the EndpointSlice now lists the three pods, ready")
	expectReached(s, netTrace(ctx, s, "client", "web:80"))
	return s.Err()
}
