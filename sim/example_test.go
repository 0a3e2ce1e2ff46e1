package sim_test

import (
	"context"
	"fmt"

	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// A step-mode cluster on a real embedded etcd; kubectl applies the articles' manifest through every
// apiserver gate.
func Example() {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	objs, err := c.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment))
	if err != nil {
		panic(err)
	}
	fmt.Println(objs[0].GetTypeMeta().Kind, objs[0].GetObjectMeta().Name, "stored at resourceVersion", objs[0].GetObjectMeta().ResourceVersion)
	// Output:
	// Deployment nginx stored at resourceVersion 35
}
