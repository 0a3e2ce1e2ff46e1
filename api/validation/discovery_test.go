package validation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/validation"
)

// pkg/apis/discovery/validation: an IPv4 slice holds IPv4 addresses, every endpoint has one, and
// every port has a protocol.
func TestEndpointSliceValidation(t *testing.T) {
	s := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde", Namespace: "default"}, AddressType: api.AddressTypeIPv4,
		Endpoints: []api.Endpoint{{Addresses: []string{"10.244.0.5"}}, {}, {Addresses: []string{"fe80::1"}}},
		Ports:     []api.EndpointSlicePort{{Name: api.Ptr("http"), Port: api.Ptr(int32(80))}}}
	var got []string
	for _, e := range validation.ValidateEndpointSlice(s) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		"endpoints[1].addresses: Required value: must contain at least 1 address",
		`endpoints[2].addresses[0]: Invalid value: "fe80::1": must be an IPv4 address`,
		"ports[0].protocol: Required value",
	}, got)
}
