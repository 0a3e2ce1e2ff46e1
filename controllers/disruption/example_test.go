package disruption_test

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// A budget of maxUnavailable 1 over a 3-replica Deployment, once its pods are Ready: the controller's
// count, which the Eviction API reads.
func Example() {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1, ControllerManager: true, Scheduler: true, Nodes: 3})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	manifest := strings.Replace(web, `minAvailable: "50%"`, "maxUnavailable: 1", 1)
	if _, err := c.Kubectl.Apply(ctx, []byte(manifest)); err != nil {
		panic(err)
	}
	var st api.PodDisruptionBudgetStatus
	_ = c.Driver.RunUntil(ctx, "3 healthy", func() (bool, error) {
		b, err := client.For[api.PodDisruptionBudget](c.Kubectl.Client()).Get(ctx, "default", "web")
		st = b.Status
		return err == nil && st.CurrentHealthy == 3, err
	}, 0)
	fmt.Printf("expected %d, desired %d, healthy %d, disruptionsAllowed %d\n", st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed)
	// Output:
	// expected 3, desired 2, healthy 3, disruptionsAllowed 1
}
