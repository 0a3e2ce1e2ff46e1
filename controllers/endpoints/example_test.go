package endpoints_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/controllers/endpoints"
)

// The ENDPOINTS column of kubectl get endpoints.
func ExampleSummary() {
	ep := &api.Endpoints{Subsets: []api.EndpointSubset{{
		Addresses:         []api.EndpointAddress{{IP: "10.244.0.5"}, {IP: "10.244.1.6"}},
		NotReadyAddresses: []api.EndpointAddress{{IP: "10.244.2.7"}},
		Ports:             []api.EndpointPort{{Port: 8080}},
	}}}
	fmt.Println(endpoints.Summary(ep))
	fmt.Println(endpoints.Summary(&api.Endpoints{}))
	// Output:
	// 10.244.0.5:8080,10.244.1.6:8080 (1 not ready)
	// <none>
}
