package httpfront

import (
	"testing"

	"kubesim/api"
)

// The cells read as kubectl prints them for Kubernetes' own objects.
func TestNetworkCells(t *testing.T) {
	addrs := func(ips ...string) []api.EndpointAddress {
		var out []api.EndpointAddress
		for _, ip := range ips {
			out = append(out, api.EndpointAddress{IP: ip})
		}
		return out
	}
	for _, tc := range []struct {
		got, want string
	}{
		{endpointsCell(&api.Endpoints{}), "<none>"},
		{endpointsCell(&api.Endpoints{Subsets: []api.EndpointSubset{{NotReadyAddresses: addrs("10.244.0.9"), Ports: []api.EndpointPort{{Port: 80}}}}}), "<none>"},
		{endpointsCell(&api.Endpoints{Subsets: []api.EndpointSubset{{Addresses: addrs("10.244.0.5", "10.244.1.5"), Ports: []api.EndpointPort{{Port: 80}}}}}),
			"10.244.0.5:80,10.244.1.5:80"},
		{endpointsCell(&api.Endpoints{Subsets: []api.EndpointSubset{{Addresses: addrs("10.244.0.5", "10.244.1.5", "10.244.2.5"),
			Ports: []api.EndpointPort{{Port: 80}, {Port: 443}}}}}), "10.244.0.5:80,10.244.1.5:80,10.244.2.5:80 + 3 more..."},
		{servicePorts(nil), "<none>"},
		{servicePorts([]api.ServicePort{{Port: 80, Protocol: "TCP"}, {Port: 443, NodePort: 30443, Protocol: "TCP"}}), "80/TCP,443:30443/TCP"},
		{serviceExternalIP(&api.Service{}), "<none>"},
		{serviceExternalIP(&api.Service{Spec: api.ServiceSpec{Type: api.ServiceTypeLoadBalancer}}), "<pending>"},
		{sliceLimited(0, nil), "<unset>"},
		{sliceLimited(5, func(i int) string { return string(rune('a' + i)) }), "a,b,c + 2 more..."},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
