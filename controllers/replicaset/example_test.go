package replicaset_test

import (
	"fmt"

	"kubesim/client"
	"kubesim/controllers/replicaset"
	"kubesim/internal/testenv"
)

// A ReplicaSet of 2, then one of its pods deleted: the controller's side of the story, including the
// expectations it sets before each batch of writes.
func Example() {
	c, ctx := testenv.Start(testenv.Step, addController)
	defer c.Close()

	if _, err := c.Kubectl.Create(ctx, newReplicaSet(2)); err != nil {
		panic(err)
	}
	if err := c.Driver.Advance(ctx, 0); err != nil {
		panic(err)
	}
	pods, _ := c.Kubectl.List(ctx, "pods", "default", "app=web")
	if err := c.Kubectl.Delete(ctx, "pods", "default", pods[0].GetObjectMeta().Name, client.DeleteOptions{}); err != nil {
		panic(err)
	}
	if err := c.Driver.Advance(ctx, 0); err != nil {
		panic(err)
	}
	for _, line := range testenv.Story(c, replicaset.Name) {
		fmt.Println(line)
	}
	// Output:
	// watch ADDED replicasets/default/web -> queue "default/web"
	// reconcile default/web: wants 2, has 0 -> create 2 pods (expecting 2 adds)
	// event Normal SuccessfulCreate: Created pod: web-bbtzn
	// event Normal SuccessfulCreate: Created pod: web-v8lpr
	// status default/web: replicas 0, fullyLabeledReplicas 0, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
	// status default/web: replicas 2, fullyLabeledReplicas 2, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
	// reconcile default/web: wants 2, has 1 -> create 1 pods (expecting 1 adds)
	// event Normal SuccessfulCreate: Created pod: web-8rjb7
	// status default/web: replicas 1, fullyLabeledReplicas 1, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
	// status default/web: replicas 2, fullyLabeledReplicas 2, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
}
