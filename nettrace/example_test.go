package nettrace_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/kubeproxy"
	"kubesim/nettrace"
)

// A trace to a cluster IP whose Service selects no pod: it stops at the node's rules, and says why.
func ExampleTrace() {
	client := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "client", Namespace: "default"},
		Spec:   api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.244.0.7"}}
	web := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web-app"}},
		Spec:   api.PodSpec{NodeName: "node-2"},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.244.1.5"}}
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{ClusterIP: "10.96.100.10", Selector: map[string]string{"app": "web"},
			Ports: []api.ServicePort{{Port: 80}}}}
	rules := kubeproxy.Build("node-1", "", []*api.Service{svc}, nil)
	r := nettrace.Trace(nettrace.Input{Pods: []*api.Pod{client, web}, Services: []*api.Service{svc},
		Rules: func(string) (*kubeproxy.Rules, bool) { return rules, true }}, "client", "10.96.100.10:80")
	fmt.Print(r)
	// Output:
	// trace client -> 10.96.100.10:80
	//   1. ✓ source   pod default/client on node-1, IP 10.244.0.7
	//   2. ✓ service  10.96.100.10:80 is Service default/web port 80/TCP -> targetPort 80, selector app=web
	//   3. ✗ rules    node-1: filter KUBE-SERVICES -d 10.96.100.10/32 --dport 80 -j REJECT ("default/web has no endpoints"): connection refused
	//                 Service default/web has no endpoints: the selector app=web matches no pod in namespace default; its pods are labelled web-1 (app=web-app)
	// unreachable: stopped at hop 3 (rules)
}
