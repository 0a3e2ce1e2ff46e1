// wrong_target_port.go: the Service's port is fine, the pods are Ready, the endpoints are
// listed, and the connection is still refused: targetPort points where nothing listens. A numeric
// targetPort is used as it is; a named one must name a container port, or the pod is left out of the
// Service's port altogether.
package scenarios

import (
	"context"
	"time"

	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "wrong-target-port",
		Summary: "targetPort 8080 where nginx listens on 80, and a named targetPort no container has; then fixed",
		Teaches: `Two Services in front of the same nginx pods (containerPort 80, named http):

  web-8080   port 80, targetPort 8080: the EndpointSlice controller does not check a number against the
             containers, so the endpoints read 10.244.x.y:8080, kube-proxy DNATs there, and the pod
             refuses the connection: nothing listens on 8080.
  web-named  port 80, targetPort "web": no container port is named "web", so the controller cannot
             resolve it; the pods are left out of that port, the Service has no endpoints for it and
             kube-proxy REJECTs.

Signs to look for: the EndpointSlice of web-8080 with PORTS 8080; "kubesim net trace" for web-8080
stopping at the pod hop ("does not listen on 8080 (its container ports: nginx 80/TCP)"), and for web-named
at the rules hop ("targetPort "web" names no container port of the selected pods (their named ports:
http=80)"); after kubectl apply with targetPort http, the trace reaching nginx on 80.`,
		SummaryZH: "nginx 监听 80，targetPort 却是 8080；还有一个没有容器具有的具名 targetPort；然后改好",
		TeachesZH: `同一组 nginx Pod（containerPort 80，名为 http）前面有两个 Service：

  web-8080   port 80，targetPort 8080：EndpointSlice 控制器不会拿数字去核对容器，所以 endpoints 写的
             是 10.244.x.y:8080，kube-proxy DNAT 到那里，Pod 拒绝连接：8080 上没有任何东西在监听。
  web-named  port 80，targetPort "web"：没有哪个容器端口叫 "web"，控制器无法解析它；这个端口里不包含
             这些 Pod，Service 在这个端口上没有 endpoints，kube-proxy REJECT。

要看的信号：web-8080 的 EndpointSlice PORTS 为 8080；web-8080 的 "kubesim net trace" 停在 pod 那一跳
（"does not listen on 8080 (its container ports: nginx 80/TCP)"），web-named 的停在规则那一跳
（"targetPort "web" names no container port of the selected pods (their named ports: http=80)"）；
kubectl apply 改成 targetPort http 之后，trace 到达 80 端口上的 nginx。`,
		Cluster: sim.FullCluster(3),
		Run:     runWrongTargetPort,
		ZH: netCatalog(catalog{
			"%d. kubectl apply: Deployment web (nginx, containerPort 80 named http), Services web-8080 (targetPort 8080) and web-named (targetPort web), pod client": "%d. kubectl apply：Deployment web（nginx，containerPort 80 名为 http）、Service web-8080（targetPort 8080）和 web-named（targetPort web）、Pod client",
			"%d. web-8080: the endpoints say 8080, and nothing listens there":                                                                                        "%d. web-8080：端点写的是 8080，可那里没有程序在监听",
			"%s kubectl get endpointslices -l kubernetes.io/service-name=web-8080: PORTS 8080, 2 ready endpoints":                                                    "%s kubectl get endpointslices -l kubernetes.io/service-name=web-8080：PORTS 8080，2 个就绪端点",
			"%d. web-named: no container port is named web, so the pods serve no port of that Service":                                                               "%d. web-named：没有哪个容器端口名为 web，所以这些 Pod 不为该 Service 的任何端口提供服务",
			"%s the EndpointSlice of web-named has no ports":                                                                                                         "%s web-named 的 EndpointSlice 没有端口",
			"%d. Fix web-8080: kubectl apply with targetPort http":                                                                                                   "%d. 修正 web-8080：kubectl apply，把 targetPort 改为 http",
		}),
	})
}

func runWrongTargetPort(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: Deployment web (nginx, containerPort 80 named http), Services web-8080 (targetPort 8080) and web-named (targetPort web), pod client")
	if !applyFile(ctx, s, "wrong-target-port.yaml") || !applyFile(ctx, s, "client-pod.yaml") {
		return s.Err()
	}
	if !until(ctx, s, 2*time.Minute, "pods -l app=web ready") || !until(ctx, s, time.Minute, "pod client running") {
		return s.Err()
	}
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}

	s.Step("web-8080: the endpoints say 8080, and nothing listens there")
	slices, _ := slicesOf(ctx, s, "default", "web-8080")
	ready, _ := sliceEndpoints(slices)
	s.Expect(len(slices) == 1 && ready == 2 && len(slices[0].Ports) == 1 && *slices[0].Ports[0].Port == 8080,
		"kubectl get endpointslices -l kubernetes.io/service-name=web-8080: PORTS 8080, 2 ready endpoints")
	expectUnreachable(s, netTrace(ctx, s, "client", "web-8080:80"), "pod", "does not listen on 8080 (its container ports: nginx 80/TCP)")

	s.Step("web-named: no container port is named web, so the pods serve no port of that Service")
	slices, _ = slicesOf(ctx, s, "default", "web-named")
	s.Expect(len(slices) == 1 && len(slices[0].Ports) == 0, "the EndpointSlice of web-named has no ports")
	expectUnreachable(s, netTrace(ctx, s, "client", "web-named:80"), "rules", `targetPort "web" names no container port of the selected pods (their named ports: http=80)`)

	s.Step("Fix web-8080: kubectl apply with targetPort http")
	if !applyFile(ctx, s, "fixed-target-port.yaml") {
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("the EndpointSlice of web-8080 says port 80", func() (bool, error) {
		slices, err := slicesOf(ctx, s, "default", "web-8080")
		return err == nil && len(slices) == 1 && len(slices[0].Ports) == 1 && *slices[0].Ports[0].Port == 80, err
	})) {
		return s.Err()
	}
	expectReached(s, netTrace(ctx, s, "client", "web-8080:80"))
	return s.Err()
}
