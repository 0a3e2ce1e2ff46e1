// service.go: a Service from end to end (article 3, section 7): the apiserver allocates a
// cluster IP and a node port, the EndpointSlice and Endpoints controllers list the ready pods,
// kube-proxy on every node turns both into iptables rules, and a client pod reaches the pods
// through the Service's name.
package scenarios

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "service",
		Summary: "a NodePort Service: cluster IP and node port allocated, EndpointSlices, kube-proxy rules, a client reaches it",
		Teaches: `A Service is a name and a virtual IP in front of the pods its selector matches; nothing listens on
that IP. Four components make it work:

  kube-apiserver            allocates the cluster IP (from the service CIDR 10.96.0.0/12) and, for type
                            NodePort, a node port (30000-32767) when the Service is created; a node port
                            already taken is refused ("provided port is already allocated").
  EndpointSlice controller  lists the pods matching the selector, with their IPs, the resolved
                            targetPort and whether each is ready (the Endpoints controller keeps the
                            older Endpoints object that "kubectl get endpoints" shows).
  kube-proxy (every node)   writes NAT rules: KUBE-SERVICES matches the cluster IP and port and jumps to
                            KUBE-SVC-<hash>, which picks one KUBE-SEP-<hash> at random (probability 1/3,
                            then 1/2, then the rest) that DNATs to a pod; KUBE-NODEPORTS does the same
                            for the node port on every node's own addresses.
  CoreDNS                   answers web.default.svc.cluster.local with the cluster IP.

And the kubelet gives every container it starts the Docker-links-style variables of the Services of its
namespace that exist at that moment (WEB_SERVICE_HOST, WEB_SERVICE_PORT, WEB_PORT_80_TCP_ADDR, ...), and
those of the Service "kubernetes" in default, which in-cluster clients use to find the apiserver.

Signs to look for: the Service's CLUSTER-IP in 10.96.0.0/12 and PORT(S) 80:30080/TCP; an EndpointSlice with 3
ready endpoints and port 80; "kubectl get endpoints web" listing three IP:80; the KUBE-SVC chain with
"--probability 0.3333333333" and "--probability 0.5000000000"; a second Service asking for node port 30080
refused with "provided port is already allocated"; the client's log printing WEB_SERVICE_HOST (the cluster IP)
and KUBERNETES_SERVICE_HOST=10.96.0.1; and "kubesim net trace --from client --to web:80" reaching a pod.`,
		SummaryZH: "一个 NodePort Service：分配 cluster IP 和节点端口、EndpointSlice、kube-proxy 规则、客户端访问到它",
		TeachesZH: `Service 是一个名字加一个虚拟 IP，挡在它的 selector 选中的 Pod 前面；没有任何东西在那个 IP 上监听。
让它工作的是四个组件：

  kube-apiserver            创建 Service 时分配 cluster IP（取自 service CIDR 10.96.0.0/12），类型为
                            NodePort 时还分配一个节点端口（30000-32767）；已被占用的节点端口会被拒绝
                            （"provided port is already allocated"）。
  EndpointSlice 控制器      列出与 selector 匹配的 Pod，带上它们的 IP、解析后的 targetPort 以及各自
                            是否就绪（Endpoints 控制器维护旧式的 Endpoints 对象，即 "kubectl get
                            endpoints" 看到的那个）。
  kube-proxy（每个节点）    写 NAT 规则：KUBE-SERVICES 匹配 cluster IP 和端口，跳到
                            KUBE-SVC-<hash>，后者随机挑一个 KUBE-SEP-<hash>（概率先 1/3，再 1/2，最
                            后是剩下的），DNAT 到某个 Pod；KUBE-NODEPORTS 对每个节点自己地址上的节点
                            端口做同样的事。
  CoreDNS                   把 web.default.svc.cluster.local 解析为 cluster IP。

此外，kubelet 启动每个容器时，都把容器所在命名空间里当时已存在的 Service 的变量（Docker links 风格：
WEB_SERVICE_HOST、WEB_SERVICE_PORT、WEB_PORT_80_TCP_ADDR……）放进它的环境，还有 default 命名空间里
Service "kubernetes" 的变量，集群内的客户端靠它找到 apiserver。

要看的信号：Service 的 CLUSTER-IP 在 10.96.0.0/12 内，PORT(S) 为 80:30080/TCP；一个 EndpointSlice，
有 3 个就绪端点、端口 80；"kubectl get endpoints web" 列出三个 IP:80；KUBE-SVC 链里的
"--probability 0.3333333333" 和 "--probability 0.5000000000"；第二个 Service 申请节点端口 30080，
被以 "provided port is already allocated" 拒绝；client 的日志打印出 WEB_SERVICE_HOST（即 cluster IP）和
KUBERNETES_SERVICE_HOST=10.96.0.1；"kubesim net trace --from client --to web:80" 到达一个 Pod。`,
		Cluster: sim.FullCluster(3),
		Run:     runService,
		ZH: netCatalog(catalog{
			"%d. kubectl apply: Deployment web (3 nginx pods, containerPort 80 named http), Service web (NodePort 30080, targetPort http), pod client": "%d. kubectl apply：Deployment web（3 个 nginx Pod，containerPort 80 名为 http）、Service web（NodePort 30080，targetPort http）、Pod client",
			"%s kubectl get svc web: CLUSTER-IP %s, from the service CIDR 10.96.0.0/12":                                                                "%s kubectl get svc web：CLUSTER-IP %s，取自服务网段 10.96.0.0/12",
			"%s kubectl get svc web: PORT(S) 80:30080/TCP":                                                                                             "%s kubectl get svc web：PORT(S) 80:30080/TCP（节点端口 30080）",
			"%d. A second Service asks for node port 30080 too: the apiserver refuses it":                                                              "%d. 第二个 Service 也要节点端口 30080：apiserver 拒绝了它",
			"%s Error from server (Invalid): %v":                                                                                                       "%s apiserver 拒绝：Error from server (Invalid): %v",
			"%d. The pods start; the EndpointSlice controller lists them as they become ready":                                                         "%d. Pod 启动；EndpointSlice 控制器在它们就绪时把它们列为端点",
			"%s kubectl get endpointslices -l kubernetes.io/service-name=web: one slice, PORTS 80, 3 endpoints (targetPort http resolved to 80)":       "%s kubectl get endpointslices -l kubernetes.io/service-name=web：一个 slice，PORTS 80，3 个端点（targetPort http 解析为 80）",
			"%s kubectl get endpoints web: three pod IPs on port 80":                                                                                   "%s kubectl get endpoints web：三个 Pod IP，端口都是 80",
			"%s kubectl logs client: %s: the Service links the kubelet put in its environment":                                                         "%s kubectl logs client：%s：kubelet 放进它环境里的 Service 变量（Service links）",
			"%d. kube-proxy on node-1 has written the Service's rules (iptables-save -t nat)":                                                          "%d. node-1 上的 kube-proxy 已为这个 Service 写好规则（iptables-save -t nat）",
			"%s KUBE-SERVICES: -d %s/32 --dport 80 -j KUBE-SVC-...":                                                                                    "%s KUBE-SERVICES 链：-d %s/32 --dport 80 -j KUBE-SVC-...",
			"%s KUBE-SVC-...: three KUBE-SEP rules, --probability 0.3333333333, then 0.5000000000, then the last always":                               "%s KUBE-SVC-...：三条 KUBE-SEP 规则，先是 --probability 0.3333333333，再是 0.5000000000，最后一条总会命中",
			"%s KUBE-NODEPORTS: --dport 30080 -j KUBE-EXT-...":                                                                                         "%s KUBE-NODEPORTS 链：--dport 30080 -j KUBE-EXT-...",
			"%s KUBE-SEP-...: -j DNAT --to-destination <pod IP>:80":                                                                                    "%s KUBE-SEP-...：-j DNAT --to-destination <Pod IP>:80（改写成某个 Pod 的地址）",
		}),
	})
}

var serviceConflictYAML = manifests.Read("service-conflict.yaml")

func runService(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: Deployment web (3 nginx pods, containerPort 80 named http), Service web (NodePort 30080, targetPort http), pod client")
	if !applyFile(ctx, s, "service.yaml") || !applyFile(ctx, s, "client-pod.yaml") {
		return s.Err()
	}
	svc, err := sim.Get[api.Service](ctx, s.Cluster, "default", "web")
	if err != nil {
		return err
	}
	ip, _ := netip.ParseAddr(svc.Spec.ClusterIP)
	s.Expect(netip.MustParsePrefix("10.96.0.0/12").Contains(ip),
		"kubectl get svc web: CLUSTER-IP %s, from the service CIDR 10.96.0.0/12", svc.Spec.ClusterIP)
	s.Expect(len(svc.Spec.Ports) == 1 && svc.Spec.Ports[0].NodePort == 30080, "kubectl get svc web: PORT(S) 80:30080/TCP")

	s.Step("A second Service asks for node port 30080 too: the apiserver refuses it")
	_, err = s.Kubectl.Apply(ctx, []byte(serviceConflictYAML))
	s.Expect(apierrors.IsInvalid(err), "Error from server (Invalid): %v", err)
	s.ExpectError(err, 422, `spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`)

	s.Step("The pods start; the EndpointSlice controller lists them as they become ready")
	if !until(ctx, s, 2*time.Minute, "pods -l app=web ready") || !until(ctx, s, time.Minute, "pod client running") {
		return s.Err()
	}
	var logs strings.Builder
	_, err = s.Cluster.Inspect(ctx, &logs, "logs client")
	line := strings.TrimSpace(strings.TrimPrefix(logs.String(), "[shell] "))
	s.Expect(err == nil && line == fmt.Sprintf("WEB_SERVICE_HOST=%s WEB_SERVICE_PORT=80 KUBERNETES_SERVICE_HOST=10.96.0.1", svc.Spec.ClusterIP),
		"kubectl logs client: %s: the Service links the kubelet put in its environment", line)
	if !waitForEndpoints(ctx, s, time.Minute, "default", "web", 3, 0) {
		return s.Err()
	}
	slices, _ := slicesOf(ctx, s, "default", "web")
	port := int32(0)
	if len(slices) == 1 && len(slices[0].Ports) == 1 && slices[0].Ports[0].Port != nil {
		port = *slices[0].Ports[0].Port
	}
	s.Expect(len(slices) == 1 && port == 80, "kubectl get endpointslices -l kubernetes.io/service-name=web: one slice, PORTS 80, 3 endpoints (targetPort http resolved to 80)")
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}
	eps, err := sim.Get[api.Endpoints](ctx, s.Cluster, "default", "web")
	s.Expect(err == nil && len(eps.Subsets) == 1 && len(eps.Subsets[0].Addresses) == 3,
		"kubectl get endpoints web: three pod IPs on port 80")

	s.Step("kube-proxy on node-1 has written the Service's rules (iptables-save -t nat)")
	rules := showRules(ctx, s, "node-1", "default/web:http")
	s.Expect(hasLine(rules, "-A KUBE-SERVICES", fmt.Sprintf("-d %s/32", svc.Spec.ClusterIP), "--dport 80", "-j KUBE-SVC-"),
		"KUBE-SERVICES: -d %s/32 --dport 80 -j KUBE-SVC-...", svc.Spec.ClusterIP)
	s.Expect(hasLine(rules, "--probability 0.3333333333") && hasLine(rules, "--probability 0.5000000000"),
		"KUBE-SVC-...: three KUBE-SEP rules, --probability 0.3333333333, then 0.5000000000, then the last always")
	s.Expect(hasLine(rules, "-A KUBE-NODEPORTS", "--dport 30080"), "KUBE-NODEPORTS: --dport 30080 -j KUBE-EXT-...")
	s.Expect(hasLine(rules, "-j DNAT --to-destination 10.244."), "KUBE-SEP-...: -j DNAT --to-destination <pod IP>:80")

	s.Step("kubesim net trace --from client --to web:80")
	expectReached(s, netTrace(ctx, s, "client", "web:80"))
	return s.Err()
}
