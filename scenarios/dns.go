// dns.go: cluster DNS (article 3, section 7): the names a Service gets, how a pod's search
// path turns a short name into one of them, what a headless Service answers, and the dnsPolicy
// pitfalls: Default, and hostNetwork with ClusterFirst.
package scenarios

import (
	"context"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/dns"
	"kubesim/sim"
	"kubesim/trace"
)

func init() {
	register(sim.Scenario{
		Name:    "dns",
		Summary: "Service names and the search path, a headless Service's records, dnsPolicy Default and the hostNetwork caveat",
		Teaches: `Every pod with dnsPolicy ClusterFirst (the default) gets /etc/resolv.conf pointing at the cluster DNS
(10.96.0.10) with "search default.svc.cluster.local svc.cluster.local cluster.local" and "options ndots:5".
So web, web.default and web.default.svc.cluster.local all reach Service web: the first two through the
search path, the last as it is (it has 4 dots, fewer than 5, so even it is tried with each suffix
first: the famous ndots:5 extra queries).

A headless Service (clusterIP: None) has no cluster IP and no kube-proxy rules: its name resolves to one A
record per ready pod, and clients connect to the pods directly.

Two pods do not use the cluster DNS: one with dnsPolicy Default (the node's resolver, which knows no
cluster names), and one with hostNetwork: true and the default ClusterFirst, which the kubelet silently
treats as Default; ClusterFirstWithHostNet is the fix. A hostNetwork pod shares the node's network
namespace: no CNI ADD, and its pod IP is the node's own (status.podIP == status.hostIP).

Signs to look for: the client's resolv.conf; traces reaching web three ways; db.default.svc.cluster.local
answering two pod IPs; the Default and hostNetwork pods failing at the dns hop with "the node's resolver,
which knows no cluster names"; the ClusterFirstWithHostNet pod reaching web; cache-0, with hostname cache-0 and subdomain cache (a
headless Service), answering as cache-0.cache.default.svc.cluster.local, the name each pod of a
StatefulSet gets.`,
		SummaryZH: "Service 名字和搜索路径、headless Service 的记录、dnsPolicy Default，以及 hostNetwork 的坑",
		TeachesZH: `每个 dnsPolicy 为 ClusterFirst（默认值）的 Pod 都拿到一个指向集群 DNS（10.96.0.10）的
/etc/resolv.conf，带有 "search default.svc.cluster.local svc.cluster.local cluster.local" 和
"options ndots:5"。所以 web、web.default 和 web.default.svc.cluster.local 都能到达 Service web：前两
个经由搜索路径，最后一个按原样（它有 4 个点，少于 5 个，所以连它也会先逐个加上后缀去试：就是有名的
ndots:5 多出来的查询）。

headless Service（clusterIP: None）没有 cluster IP，也没有 kube-proxy 规则：它的名字解析为每个就绪
Pod 一条 A 记录，客户端直接连接 Pod。

有两个 Pod 不用集群 DNS：一个的 dnsPolicy 是 Default（节点的解析器，它不认识集群里的名字）；另一个是
hostNetwork: true 加默认的 ClusterFirst，kubelet 会悄悄把它当作 Default；解决办法是
ClusterFirstWithHostNet。hostNetwork 的 Pod 共用节点的网络命名空间：不调用 CNI ADD，它的 Pod IP 就是
节点自己的 IP（status.podIP == status.hostIP）。

要看的信号：客户端的 resolv.conf；用三种方式到达 web 的 trace；db.default.svc.cluster.local 返回两个
Pod IP；Default 和 hostNetwork 两个 Pod 在 dns 那一跳失败，提示 "the node's resolver, which knows no
cluster names"；ClusterFirstWithHostNet 的 Pod 到达 web；设了 hostname cache-0 和 subdomain cache（一个 headless
Service）的 cache-0，能以 cache-0.cache.default.svc.cluster.local 解析到，这正是 StatefulSet 的每个
Pod 得到的名字。`,
		Cluster: sim.FullCluster(3),
		Run:     runDNS,
		ZH: netCatalog(catalog{
			"%d. kubectl apply: Deployment web (2 pods), Service web, headless Service db, and four client pods":                                                   "%d. kubectl apply：Deployment web（2 个 Pod）、Service web、headless Service db，以及四个客户端 Pod",
			"%d. kubectl exec client -- cat /etc/resolv.conf":                                                                                                      "%d. 看看 client 的 DNS 配置：kubectl exec client -- cat /etc/resolv.conf",
			"/etc/resolv.conf of default/client:\n%s":                                                                                                              "default/client 的 /etc/resolv.conf：\n%s",
			"%s resolv.conf: search default.svc.cluster.local svc.cluster.local cluster.local; nameserver 10.96.0.10; options ndots:5":                             "%s resolv.conf 中有：search default.svc.cluster.local svc.cluster.local cluster.local；nameserver 10.96.0.10；options ndots:5",
			"%d. Three names for one Service: web, web.default, web.default.svc.cluster.local":                                                                     "%d. 同一个 Service 的三个名字：web、web.default、web.default.svc.cluster.local",
			"%d. The headless Service db: one A record per ready pod, no cluster IP, no kube-proxy rules":                                                          "%d. headless Service db：每个就绪 Pod 一条 A 记录，没有 cluster IP，也没有 kube-proxy 规则",
			"db.default.svc.cluster.local: %s, A %s":                                                                                                               "db.default.svc.cluster.local 的解析结果：%s，A 记录 %s",
			"%s nslookup db: two addresses, the pods' own":                                                                                                         "%s nslookup db：两个地址，就是两个 Pod 自己的 IP",
			"%s the trace to db goes straight to a pod: no Service hop, no kube-proxy rule":                                                                        "%s 到 db 的追踪直达 Pod：没有 Service 这一跳，也没有 kube-proxy 规则",
			"%d. dnsPolicy Default: the node's resolver knows no cluster names":                                                                                    "%d. dnsPolicy Default：节点的解析器不认识集群内的名字",
			"%d. hostNetwork: true with the default dnsPolicy ClusterFirst falls back to Default; ClusterFirstWithHostNet fixes it":                                "%d. hostNetwork: true 时，默认的 dnsPolicy ClusterFirst 会退回 Default；改用 ClusterFirstWithHostNet 才行",
			"%d. A pod with hostname and subdomain gets a name of its own: cache-0.cache.default.svc.cluster.local":                                                "%d. 设了 hostname 和 subdomain 的 Pod 有自己的名字：cache-0.cache.default.svc.cluster.local",
			"%s kubectl logs cache-0: hostname prints %q, spec.hostname (a pod without it is named after itself)":                                                  "%s kubectl logs cache-0：hostname 打印 %q，即 spec.hostname（没设它的 Pod 以自己的名字为主机名）",
			"%s kubectl get endpointslices -l kubernetes.io/service-name=cache -o yaml: the endpoint has hostname: %s, since the pod names cache as its subdomain": "%s kubectl get endpointslices -l kubernetes.io/service-name=cache -o yaml：这个端点带有 hostname: %s，因为 Pod 把 cache 写作它的 subdomain",
			"cache-0.cache.default.svc.cluster.local: %s, A %s":                                                                                                    "cache-0.cache.default.svc.cluster.local 的解析结果：%s，A 记录 %s",
			"%s nslookup cache-0.cache: %s, cache-0's own IP":                                                                                                      "%s nslookup cache-0.cache：%s，就是 cache-0 自己的 IP",
			"%s host-net's resolver is the node's: %s":                                                                                                             "%s host-net 用的是节点的解析器：%s",
			"%s host-net's pod IP is its node's: status.podIP %s == status.hostIP %s (no CNI ADD, nothing taken from the podCIDR)":                                 "%s host-net 的 Pod IP 就是节点的 IP：status.podIP %s == status.hostIP %s（不调用 CNI ADD，不占 podCIDR 里的地址）",
		}),
	})
}

func runDNS(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl apply: Deployment web (2 pods), Service web, headless Service db, and four client pods")
	if !applyFile(ctx, s, "dns.yaml") || !applyFile(ctx, s, "client-pod.yaml") || !applyFile(ctx, s, "dns-pods.yaml") {
		return s.Err()
	}
	for _, cond := range []string{"pods -l app=web ready", "pod client running", "pod node-dns running", "pod host-net running", "pod host-net-fixed running"} {
		if !until(ctx, s, 2*time.Minute, cond) {
			return s.Err()
		}
	}
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}

	s.Step("kubectl exec client -- cat /etc/resolv.conf")
	client, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "client")
	if err != nil {
		return err
	}
	conf := dns.ResolvConfFor(client)
	s.Trace.Record(trace.Event{Component: "kubelet/" + client.Spec.NodeName, Action: "resolv.conf", Object: "pods/default/client"}.
		Msgf("/etc/resolv.conf of default/client:\n%s", strings.TrimSpace(conf.String())))
	s.Expect(strings.Contains(conf.String(), "search default.svc.cluster.local svc.cluster.local cluster.local") &&
		strings.Contains(conf.String(), "nameserver 10.96.0.10") && strings.Contains(conf.String(), "options ndots:5"),
		"resolv.conf: search default.svc.cluster.local svc.cluster.local cluster.local; nameserver 10.96.0.10; options ndots:5")

	s.Step("Three names for one Service: web, web.default, web.default.svc.cluster.local")
	for _, name := range []string{"web:80", "web.default:80", "web.default.svc.cluster.local:80"} {
		expectReached(s, netTrace(ctx, s, "client", name))
	}

	s.Step("The headless Service db: one A record per ready pod, no cluster IP, no kube-proxy rules")
	answer := s.DNS.Query("db.default.svc.cluster.local")
	s.Trace.Record(trace.Event{Component: dns.Name, Action: "query"}.
		Msgf("db.default.svc.cluster.local: %s, A %s", answer.Rcode, strings.Join(answer.A, ", ")))
	s.Expect(answer.Rcode == dns.NoError && answer.Headless && len(answer.A) == 2, "nslookup db: two addresses, the pods' own")
	r := netTrace(ctx, s, "client", "db:80")
	expectReached(s, r)
	s.Expect(r.Reached && !hasHop(r.Hops, "rules"), "the trace to db goes straight to a pod: no Service hop, no kube-proxy rule")

	s.Step("dnsPolicy Default: the node's resolver knows no cluster names")
	expectUnreachable(s, netTrace(ctx, s, "node-dns", "web:80"), "dns", "the node's resolver, which knows no cluster names")

	s.Step("hostNetwork: true with the default dnsPolicy ClusterFirst falls back to Default; ClusterFirstWithHostNet fixes it")
	hostNet, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "host-net")
	if err != nil {
		return err
	}
	s.Expect(hostNet.Status.PodIP != "" && hostNet.Status.PodIP == hostNet.Status.HostIP,
		"host-net's pod IP is its node's: status.podIP %s == status.hostIP %s (no CNI ADD, nothing taken from the podCIDR)", hostNet.Status.PodIP, hostNet.Status.HostIP)
	s.Expect(dns.ResolvConfFor(hostNet).Policy == api.DNSDefault, "host-net's resolver is the node's: %s", dns.ResolvConfFor(hostNet).Note)
	expectUnreachable(s, netTrace(ctx, s, "host-net", "web:80"), "dns", "the node's resolver, which knows no cluster names")
	expectReached(s, netTrace(ctx, s, "host-net-fixed", "web:80"))

	s.Step("A pod with hostname and subdomain gets a name of its own: cache-0.cache.default.svc.cluster.local")
	if !applyFile(ctx, s, "dns-hostname.yaml") || !until(ctx, s, 2*time.Minute, "pods -l app=cache ready") {
		return s.Err()
	}
	if err := settleNetwork(ctx, s); err != nil {
		return err
	}
	var logs strings.Builder
	_, err = s.Cluster.Inspect(ctx, &logs, "logs cache-0")
	hostname := strings.TrimSpace(strings.TrimPrefix(logs.String(), "[redis] "))
	s.Expect(err == nil && hostname == "cache-0", "kubectl logs cache-0: hostname prints %q, spec.hostname (a pod without it is named after itself)", hostname)
	hostnames := []string{}
	slices, _ := slicesOf(ctx, s, "default", "cache")
	for _, sl := range slices {
		for _, ep := range sl.Endpoints {
			if ep.Hostname != nil {
				hostnames = append(hostnames, *ep.Hostname)
			}
		}
	}
	s.Expect(slices != nil && strings.Join(hostnames, ",") == "cache-0",
		"kubectl get endpointslices -l kubernetes.io/service-name=cache -o yaml: the endpoint has hostname: %s, since the pod names cache as its subdomain", strings.Join(hostnames, ","))
	cache, err := sim.Get[api.Pod](ctx, s.Cluster, "default", "cache-0")
	if err != nil {
		return err
	}
	answer = s.DNS.Query("cache-0.cache.default.svc.cluster.local")
	s.Trace.Record(trace.Event{Component: dns.Name, Action: "query"}.
		Msgf("cache-0.cache.default.svc.cluster.local: %s, A %s", answer.Rcode, strings.Join(answer.A, ", ")))
	s.Expect(answer.Rcode == dns.NoError && strings.Join(answer.A, ",") == cache.Status.PodIP,
		"nslookup cache-0.cache: %s, cache-0's own IP", cache.Status.PodIP)
	expectReached(s, netTrace(ctx, s, "client", "cache-0.cache:6379"))
	return s.Err()
}
