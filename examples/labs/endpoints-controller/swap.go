// swap.go: your controller outside the grader, in the place of kube-controller-manager's endpoints
// controller in any scenario, its story compared with the built-in one's:
//
//	go run ./examples/labs/swap endpoints-controller service
package endpointscontroller

import (
	"context"

	builtin "kubesim/controllers/endpoints"
	"kubesim/lab"
	"kubesim/sim"
)

// Swap is your controller in the place of the built-in endpoints controller.
func Swap() lab.Swap {
	return lab.WithController(builtin.Name, Name, func(_ context.Context, c *sim.Cluster) (sim.Component, error) {
		return build(c), nil
	})
}
