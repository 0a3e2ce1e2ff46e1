package dns_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/dns"
)

// https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/#pod-s-dns-policy
func TestDNSPolicies(t *testing.T) {
	pod := func(policy api.DNSPolicy, hostNetwork bool) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{DNSPolicy: policy, HostNetwork: hostNetwork}}
	}
	assert.True(t, dns.ResolvConfFor(pod("", false)).ClusterDNS(), "ClusterFirst is the default")
	assert.False(t, dns.ResolvConfFor(pod(api.DNSDefault, false)).ClusterDNS(), "Default: the node's resolver")

	hostNet := dns.ResolvConfFor(pod(api.DNSClusterFirst, true))
	assert.False(t, hostNet.ClusterDNS(), "hostNetwork with ClusterFirst falls back to Default")
	assert.Contains(t, hostNet.Note, "ClusterFirstWithHostNet")
	assert.True(t, dns.ResolvConfFor(pod(api.DNSClusterFirstWithHostNet, true)).ClusterDNS())
}

// ndots:5: a name with 5 dots or more is tried as it is first; a trailing dot means only as it is.
func TestNdots(t *testing.T) {
	conf := dns.ResolvConfFor(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default"}})
	assert.Equal(t, "a.b.c.d.e.f", conf.Candidates("a.b.c.d.e.f")[0])
	assert.Equal(t, []string{"web.default.svc.cluster.local"}, conf.Candidates("web.default.svc.cluster.local."))
}
