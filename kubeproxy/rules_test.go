package kubeproxy_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/kubeproxy"
)

// A Service with no usable endpoint gets a REJECT in the filter table and no KUBE-SVC chain.
func TestNoEndpointsIsARejectRule(t *testing.T) {
	rules := kubeproxy.Build("node-1", "10.244.0.0/16", []*api.Service{webService()}, []*api.EndpointSlice{slice(false)})
	out := rules.IptablesSave()
	assert.Contains(t, out, `-A KUBE-SERVICES -d 10.96.100.10/32 -p tcp -m comment --comment "default/web:http has no endpoints" -m tcp --dport 80 -j REJECT`)
	assert.NotContains(t, out, "KUBE-SVC-")
}

// kube-proxy's terminating fallback: with no ready endpoint, serving endpoints that are terminating
// still get traffic (KEP-1669).
func TestServingTerminatingEndpointsAreUsedWhenNoneIsReady(t *testing.T) {
	s := slice(false)
	s.Endpoints[0].Conditions = api.EndpointConditions{Ready: api.Ptr(false), Serving: api.Ptr(true), Terminating: api.Ptr(true)}
	rules := kubeproxy.Build("node-1", "", []*api.Service{webService()}, []*api.EndpointSlice{s})
	sp, ok := rules.Lookup("10.96.100.10", 80, api.ProtocolTCP)
	assert.True(t, ok)
	assert.True(t, sp.Terminating)
	assert.Len(t, sp.Endpoints, 1)
}

// Headless Services get no rules: clients connect to the pods directly.
func TestHeadlessServicesGetNoRules(t *testing.T) {
	svc := webService()
	svc.Spec.ClusterIP = api.ClusterIPNone
	rules := kubeproxy.Build("node-1", "", []*api.Service{svc}, []*api.EndpointSlice{slice(true)})
	assert.Empty(t, rules.Ports)
}

// A NodePort Service is reachable through KUBE-NODEPORTS and its KUBE-EXT chain.
func TestNodePortRules(t *testing.T) {
	svc := webService()
	svc.Spec.Type, svc.Spec.Ports[0].NodePort = api.ServiceTypeNodePort, 30080
	rules := kubeproxy.Build("node-1", "", []*api.Service{svc}, []*api.EndpointSlice{slice(true)})
	sp, ok := rules.LookupNodePort(30080, api.ProtocolTCP)
	assert.True(t, ok)
	assert.Contains(t, rules.IptablesSave(), "-A KUBE-NODEPORTS -p tcp -m comment --comment default/web:http -m tcp --dport 30080 -j "+sp.ExtChain)
}

// Chain names are kube-proxy's: pkg/proxy/iptables/proxier_test.go names ns1/svc1:p80 (TCP)
// KUBE-SVC-XPGD46QRK7WJZT7O.
func TestChainNamesAreKubeProxys(t *testing.T) {
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc1", Namespace: "ns1"},
		Spec: api.ServiceSpec{ClusterIP: "10.20.30.41", Ports: []api.ServicePort{{Name: "p80", Port: 80, Protocol: api.ProtocolTCP}}}}
	rules := kubeproxy.Build("node-1", "", []*api.Service{svc}, nil)
	assert.Equal(t, "KUBE-SVC-XPGD46QRK7WJZT7O", rules.Ports[0].Chain)
}

// sessionAffinity ClientIP: each KUBE-SEP chain records the client (-m recent --set), and KUBE-SVC
// first sends a client seen within timeoutSeconds back to its endpoint, before the random rules; as
// iptables-save prints the recent match. Without affinity there is no recent match at all.
func TestClientIPAffinityAddsRecentMatches(t *testing.T) {
	svc := webService()
	svc.Spec.SessionAffinity = api.ServiceAffinityClientIP
	svc.Spec.SessionAffinityConfig = &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: api.Ptr(int32(600))}}
	rules := kubeproxy.Build("node-1", "", []*api.Service{svc}, []*api.EndpointSlice{slice(true)})
	sp, ok := rules.Lookup("10.96.100.10", 80, api.ProtocolTCP)
	assert.True(t, ok)
	assert.Equal(t, int32(600), sp.StickySeconds)
	out := rules.IptablesSave()
	ep := sp.Endpoints[0]
	check := `-A ` + sp.Chain + ` -m comment --comment "default/web:http -> ` + ep.Address() + `" -m recent --rcheck --seconds 600 --reap --name ` + ep.Chain + ` --mask 255.255.255.255 --rsource -j ` + ep.Chain
	random := `-A ` + sp.Chain + ` -m comment --comment "default/web:http -> ` + ep.Address() + `"`
	assert.Contains(t, out, check)
	assert.Less(t, strings.Index(out, check), strings.LastIndex(out, random), "the affinity rules come before the random ones")
	assert.Contains(t, out, `-A `+ep.Chain+` -p tcp -m comment --comment default/web:http -m recent --set --name `+ep.Chain+` --mask 255.255.255.255 --rsource -m tcp -j DNAT --to-destination `+ep.Address())

	plain := kubeproxy.Build("node-1", "", []*api.Service{webService()}, []*api.EndpointSlice{slice(true)})
	assert.NotContains(t, plain.IptablesSave(), "recent")
}
