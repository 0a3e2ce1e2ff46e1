package endpointslice_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/controllers/endpointslice"
)

// How the trace tells a slice: its ports, then its endpoints by readiness.
func ExampleSummary() {
	s := &api.EndpointSlice{
		Ports: []api.EndpointSlicePort{{Port: api.Ptr(int32(80))}},
		Endpoints: []api.Endpoint{
			{Addresses: []string{"10.244.0.5"}, TargetRef: &api.ObjectReference{Name: "web-1"},
				Conditions: api.EndpointConditions{Ready: api.Ptr(true)}},
			{Addresses: []string{"10.244.1.7"}, TargetRef: &api.ObjectReference{Name: "web-2"},
				Conditions: api.EndpointConditions{Ready: api.Ptr(false), Terminating: api.Ptr(false)}},
		},
	}
	fmt.Println(endpointslice.Summary(s))
	// Output:
	// ports [80], ready 10.244.0.5 (web-1), not ready 10.244.1.7 (web-2)
}
