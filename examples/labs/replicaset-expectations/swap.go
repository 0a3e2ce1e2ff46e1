// swap.go: your controller outside the grader, in the place of kube-controller-manager's ReplicaSet
// controller in any scenario, its story compared with the built-in one's:
//
//	go run ./examples/labs/swap replicaset-expectations self-healing
//
// The built-in controller also writes each ReplicaSet's status (replicas, readyReplicas, ...), which
// the Deployment controller reads to call a Deployment available; yours does not, and the story
// diff shows where that first matters.
package replicasetexpectations

import (
	"context"

	"kubesim/controllers/replicaset"
	"kubesim/lab"
	"kubesim/sim"
)

// Swap is your controller in the place of the built-in ReplicaSet controller.
func Swap() lab.Swap {
	return lab.WithController(replicaset.Name, Name, func(_ context.Context, c *sim.Cluster) (sim.Component, error) {
		return build(c), nil
	})
}
