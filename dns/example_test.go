package dns_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/dns"
)

// The resolv.conf of a pod in namespace shop, and the names its resolver tries for "cart.shop".
func ExampleResolvConfFor() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "client", Namespace: "shop"}}
	conf := dns.ResolvConfFor(pod)
	fmt.Print(conf)
	for _, name := range conf.Candidates("cart.shop") {
		fmt.Println(name)
	}
	// Output:
	// search shop.svc.cluster.local svc.cluster.local cluster.local
	// nameserver 10.96.0.10
	// options ndots:5
	// cart.shop.shop.svc.cluster.local
	// cart.shop.svc.cluster.local
	// cart.shop.cluster.local
	// cart.shop
}
