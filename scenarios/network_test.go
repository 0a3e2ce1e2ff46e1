package scenarios_test

import "testing"

// The networking scenarios: each plays with every expected sign seen (play fails otherwise), and its
// story shows the signs a learner looks for.
func TestNetworkScenariosShowTheirSigns(t *testing.T) {
	for name, signs := range map[string][]string{
		"pod-network": {
			"assign 10.244.0.0/29", "assign 10.244.0.8/29",
			"CNI ADD for sandbox", "CNI DEL for sandbox",
			"no IP addresses available in range set: 10.244.0.2-10.244.0.6",
		},
		"service": {
			"provided port is already allocated",
			"--probability 0.3333333333", "--probability 0.5000000000",
			"KUBE-NODEPORTS", "-j DNAT --to-destination 10.244.",
			"create EndpointSlice web-",
		},
		"service-no-endpoints": {
			"default/web:http has no endpoints",
			"the selector app=web matches no pod in namespace default",
		},
		"dns": {
			"search default.svc.cluster.local svc.cluster.local cluster.local",
			"headless Service default/db",
			"falls back to Default",
			"host-net's pod IP is its node's: status.podIP 10.0.0.2 == status.hostIP 10.0.0.2",
			"hostname prints \"cache-0\"",
			"(endpoint cache-0 of Service default/cache: that pod's own address)",
		},
		"wrong-target-port": {
			"does not listen on 8080",
			`targetPort "web" names no container port`,
		},
		"readiness-removes-endpoint": {
			"Readiness probe failed",
			"not ready 10.244.",
		},
		"cross-namespace-dns": {
			"the Service is reached as cart.shop",
			"cart.shop.svc.cluster.local: A 10.",
		},
	} {
		t.Run(name, func(t *testing.T) {
			expectSigns(t, name, append(signs, "every expected sign was seen")...)
		})
	}
}
