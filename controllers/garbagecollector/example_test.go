package garbagecollector_test

import (
	"fmt"

	"kubesim/client"
	"kubesim/controllers/garbagecollector"
	"kubesim/internal/testenv"
)

// A ReplicaSet owns a Pod through an ownerReference. Deleting the ReplicaSet (background
// propagation, the default) leaves the Pod's owner gone, and the garbage collector deletes the Pod.
func Example() {
	c, ctx := testenv.Start(testenv.Step, startCollector, createReplicaSetWithPod("web-x2k9p"))
	defer c.Close()
	if err := c.Driver.RunIdle(ctx, 10); err != nil { // the collector's caches see both
		panic(err)
	}
	if err := c.Kubectl.Delete(ctx, "replicasets", "default", "web", client.DeleteOptions{}); err != nil {
		panic(err)
	}
	if err := c.Driver.RunIdle(ctx, 10); err != nil {
		panic(err)
	}
	for _, line := range testenv.Story(c, garbagecollector.Name) {
		fmt.Println(line)
	}
	// Output:
	// replicasets/default/web is gone: check its dependents [pods/default/web-x2k9p]
	// delete pods/default/web-x2k9p: its owner replicasets/default/web is gone (background propagation)
}
