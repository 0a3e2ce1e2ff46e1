package apiserver

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/wire"
)

func webService(name string, typ api.ServiceType, nodePort int32) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.ServiceSpec{Type: typ, Selector: map[string]string{"app": "web"},
			Ports: []api.ServicePort{{Port: 80, TargetPort: api.FromInt32(8080), NodePort: nodePort}}}}
}

// The apiserver bootstraps Service "kubernetes" at the first address of the service CIDR.
func TestTheKubernetesServiceHasTheFirstServiceIP(t *testing.T) {
	ts := newTestServer(t)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "services", Namespace: "default", Name: "kubernetes"})
	require.NoError(t, err)
	svc := resp.Object.(*api.Service)
	assert.Equal(t, "10.96.0.1", svc.Spec.ClusterIP)
	assert.Equal(t, []string{"10.96.0.1"}, svc.Spec.ClusterIPs)
}

// https://kubernetes.io/docs/concepts/services-networking/cluster-ip-allocation/: dynamic IPs come from
// the upper band of the range, inside the service CIDR, never twice.
func TestClusterIPsAreAllocatedInTheServiceCIDROnce(t *testing.T) {
	ts := newTestServer(t)
	cidr := netip.MustParsePrefix(ServiceClusterIPRange)
	seen := map[string]bool{}
	for _, name := range []string{"a", "b", "c", "d"} {
		svc := ts.create(t, webService(name, api.ServiceTypeClusterIP, 0)).(*api.Service)
		ip := netip.MustParseAddr(svc.Spec.ClusterIP)
		assert.True(t, cidr.Contains(ip), "%s in %s", ip, cidr)
		assert.False(t, seen[ip.String()], "%s given twice", ip)
		seen[ip.String()] = true
	}
}

func TestARequestedClusterIPThatIsTakenIsRefused(t *testing.T) {
	ts := newTestServer(t)
	svc := webService("dns", api.ServiceTypeClusterIP, 0)
	svc.Spec.ClusterIP = "10.96.0.1"
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default", Body: svc})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `Service "dns" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.1"]: failed to allocate IP 10.96.0.1: provided IP is already allocated`)

	svc.Spec.ClusterIP = "10.200.0.1"
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default", Body: svc})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12")
}

func TestHeadlessServicesGetNoClusterIP(t *testing.T) {
	ts := newTestServer(t)
	svc := webService("db", api.ServiceTypeClusterIP, 0)
	svc.Spec.ClusterIP = api.ClusterIPNone
	got := ts.create(t, svc).(*api.Service)
	assert.Equal(t, []string{"None"}, got.Spec.ClusterIPs)
}

func TestNodePortsAreAllocatedAndConflictsRefused(t *testing.T) {
	ts := newTestServer(t)
	auto := ts.create(t, webService("auto", api.ServiceTypeNodePort, 0)).(*api.Service)
	np := auto.Spec.Ports[0].NodePort
	assert.True(t, np >= NodePortMin && np <= NodePortMax, "node port %d in range", np)

	ts.create(t, webService("fixed", api.ServiceTypeNodePort, 30080))
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default",
		Body: webService("again", api.ServiceTypeNodePort, 30080)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `Service "again" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`)

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default",
		Body: webService("low", api.ServiceTypeNodePort, 8080)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "provided port is not in the valid range. The range of valid ports is 30000-32767")

	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "services", Namespace: "default", Name: "fixed"})
	require.NoError(t, err)
	ts.create(t, webService("again", api.ServiceTypeNodePort, 30080)) // released with its Service
}

// An update that leaves nodePort out (kubectl apply of the same manifest) keeps the allocated one; a
// Service turned into a ClusterIP one drops its node ports.
func TestUpdatesKeepOrDropNodePorts(t *testing.T) {
	ts := newTestServer(t)
	created := ts.create(t, webService("web", api.ServiceTypeNodePort, 0)).(*api.Service)
	np := created.Spec.Ports[0].NodePort

	again := webService("web", api.ServiceTypeNodePort, 0)
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "services", Namespace: "default", Name: "web", Body: again})
	require.NoError(t, err)
	got := resp.Object.(*api.Service)
	assert.Equal(t, np, got.Spec.Ports[0].NodePort)
	assert.Equal(t, created.Spec.ClusterIP, got.Spec.ClusterIP, "the cluster IP is kept too")

	got.Spec.Type = api.ServiceTypeClusterIP
	resp, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "services", Namespace: "default", Name: "web", Body: got})
	require.NoError(t, err)
	assert.Zero(t, resp.Object.(*api.Service).Spec.Ports[0].NodePort)
}

func TestAHeadlessNodePortServiceIsInvalid(t *testing.T) {
	ts := newTestServer(t)
	svc := webService("db", api.ServiceTypeNodePort, 0)
	svc.Spec.ClusterIP = api.ClusterIPNone
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "services", Namespace: "default", Body: svc})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`)
}
