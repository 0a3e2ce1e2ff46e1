package kubeproxy_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/kubeproxy"
)

func webService() *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{Type: api.ServiceTypeClusterIP, ClusterIP: "10.96.100.10", Selector: map[string]string{"app": "web"},
			Ports: []api.ServicePort{{Name: "http", Protocol: api.ProtocolTCP, Port: 80, TargetPort: api.FromInt32(8080)}}}}
}

func slice(ready ...bool) *api.EndpointSlice {
	s := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde", Namespace: "default",
		Labels: map[string]string{api.LabelServiceName: "web"}}, AddressType: api.AddressTypeIPv4,
		Ports: []api.EndpointSlicePort{{Name: api.Ptr("http"), Protocol: api.Ptr(api.ProtocolTCP), Port: api.Ptr(int32(8080))}}}
	for i, r := range ready {
		s.Endpoints = append(s.Endpoints, api.Endpoint{Addresses: []string{fmt.Sprintf("10.244.%d.5", i)},
			Conditions: api.EndpointConditions{Ready: api.Ptr(r), Serving: api.Ptr(r), Terminating: api.Ptr(false)}})
	}
	return s
}

// Three endpoints, one of them not ready: kube-proxy uses the two ready ones, the first with
// probability 1/2, the second always. The chain names are kube-proxy's own hashes (the same input
// gives the same name on a real node).
func ExampleBuild() {
	rules := kubeproxy.Build("node-1", "10.244.0.0/16", []*api.Service{webService()}, []*api.EndpointSlice{slice(true, false, true)})
	sp, _ := rules.Lookup("10.96.100.10", 80, api.ProtocolTCP)
	fmt.Println(sp.Name, sp.Chain)
	for _, e := range sp.Endpoints {
		fmt.Println(e.Chain, e.Address(), e.Probability)
	}
	// Output:
	// default/web:http KUBE-SVC-CDGGSHYLG3RE2FKL
	// KUBE-SEP-7U6MWNJWR3SADOJA 10.244.0.5:8080 0.5000000000
	// KUBE-SEP-OAIGUPJHOE4YU7HS 10.244.2.5:8080
}
