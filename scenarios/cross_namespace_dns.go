// cross_namespace_dns.go: "it works in my namespace": a short Service name only searches
// the pod's own namespace, so a client in default cannot reach Service cart of namespace shop as
// "cart"; "cart.shop" or the full name works.
package scenarios

import (
	"context"
	"time"

	"kubesim/api"
	"kubesim/sim"
)

func init() {
	register(sim.Scenario{
		Name:    "cross-namespace-dns",
		Summary: "a short name from another namespace is NXDOMAIN; svc.namespace reaches it",
		Teaches: `Service cart lives in namespace shop; the client pod lives in default. The client's search path is
default.svc.cluster.local svc.cluster.local cluster.local, so "cart" is tried as
cart.default.svc.cluster.local (no such Service), cart.svc.cluster.local and cart.cluster.local (not names
a Service ever has) and finally cart itself: NXDOMAIN every time. "cart.shop" becomes
cart.shop.svc.cluster.local on the first try.

Signs to look for: "kubesim net trace --from client --to cart:80" stopping at the dns hop with 'no Service
"cart" in namespace default' and the hint "the Service is reached as cart.shop"; the traces to cart.shop:80
and cart.shop.svc.cluster.local:80 reaching a pod in shop.`,
		SummaryZH: "从另一个命名空间用短名访问是 NXDOMAIN；用 svc.namespace 才能到达",
		TeachesZH: `Service cart 在命名空间 shop 里；客户端 Pod 在 default 里。客户端的搜索路径是
default.svc.cluster.local svc.cluster.local cluster.local，所以 "cart" 依次被当作
cart.default.svc.cluster.local（没有这个 Service）、cart.svc.cluster.local 和 cart.cluster.local
（Service 从来不会有这样的名字），最后是 cart 本身来查询：每次都是 NXDOMAIN。"cart.shop" 第一次尝试
就变成 cart.shop.svc.cluster.local。

要看的信号："kubesim net trace --from client --to cart:80" 停在 dns 那一跳，提示 'no Service "cart"
in namespace default' 以及 "the Service is reached as cart.shop"；到 cart.shop:80 和
cart.shop.svc.cluster.local:80 的 trace 都到达 shop 里的一个 Pod。`,
		Cluster: sim.FullCluster(3),
		Run:     runCrossNamespaceDNS,
		ZH: netCatalog(catalog{
			"%d. kubectl create namespace shop; kubectl apply: Deployment and Service cart in shop, pod client in default": "%d. kubectl create namespace shop；kubectl apply：命名空间 shop 中的 Deployment 和 Service cart，命名空间 default 中的 Pod client",
			"%d. From default, the short name cart finds nothing":                                                          "%d. 在命名空间 default 中用短名字 cart 什么也找不到",
			"%s the trace says where cart is: %s":                                                                          "%s 追踪结果指出了 cart 在哪里：%s",
			"%d. cart.shop and cart.shop.svc.cluster.local reach it":                                                       "%d. 用 cart.shop 和 cart.shop.svc.cluster.local 都能访问到它",
		}),
	})
}

func runCrossNamespaceDNS(ctx context.Context, s *sim.Session) error {
	s.Step("kubectl create namespace shop; kubectl apply: Deployment and Service cart in shop, pod client in default")
	if !applyFile(ctx, s, "shop-namespace.yaml") {
		return s.Err()
	}
	if !s.Until(ctx, time.Minute, sim.Check("serviceaccount shop/default exists", func() (bool, error) {
		sas, err := sim.List[api.ServiceAccount](ctx, s.Cluster, "shop", "", "default")
		return err == nil && len(sas) == 1, err
	})) {
		return s.Err()
	}
	if !applyFile(ctx, s, "cross-namespace-app.yaml") || !applyFile(ctx, s, "client-pod.yaml") {
		return s.Err()
	}
	if !s.Until(ctx, 2*time.Minute, sim.Check("2 ready endpoints of shop/cart", func() (bool, error) {
		slices, err := slicesOf(ctx, s, "shop", "cart")
		r, _ := sliceEndpoints(slices)
		return err == nil && r == 2, err
	})) || !until(ctx, s, time.Minute, "pod client running") {
		return s.Err()
	}

	s.Step("From default, the short name cart finds nothing")
	expectUnreachable(s, netTrace(ctx, s, "client", "cart:80"), "dns", `no Service "cart" in namespace default`)
	r, _ := s.NetTrace(ctx, "client", "cart:80")
	s.Expect(hasLine([]string{r.Reason}, "the Service is reached as cart.shop"), "the trace says where cart is: %s", r.Reason)

	s.Step("cart.shop and cart.shop.svc.cluster.local reach it")
	expectReached(s, netTrace(ctx, s, "client", "cart.shop:80"))
	expectReached(s, netTrace(ctx, s, "client", "cart.shop.svc.cluster.local:80"))
	return s.Err()
}
