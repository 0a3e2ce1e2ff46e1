package kubelet_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

// A kubelet on node-1 runs a pod bound to its node: sandbox, image pull (3.339s for nginx:1.25),
// container start. The events are what `kubectl describe pod` shows.
func Example() {
	c, ctx := testenv.Start(testenv.Step, withNode(1))
	defer c.Close()

	pods := client.For[api.Pod](c.Kubectl.Client())
	if _, err := pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}); err != nil {
		panic(err)
	}
	running := func() (bool, error) {
		p, err := pods.Get(ctx, "default", "nginx")
		return err == nil && p.Status.Phase == api.PodRunning, err
	}
	if err := c.Driver.RunUntil(ctx, "nginx Running", running, 1000); err != nil {
		panic(err)
	}

	events, _, _ := client.For[api.Event](c.Kubectl.Client()).List(ctx, "default", client.ListOptions{FieldSelector: "involvedObject.name=nginx"})
	for _, e := range events {
		fmt.Printf("%s %s: %s\n", e.Type, e.Reason, e.Message)
	}
	p, _ := pods.Get(ctx, "default", "nginx")
	fmt.Printf("%s, IP %s, after %s\n", p.Status.Phase, p.Status.PodIP, c.Clock.Since(sim.Epoch))
	// Output:
	// Normal Pulling: Pulling image "nginx:1.25"
	// Normal Pulled: Successfully pulled image "nginx:1.25" in 3.339s (3.339s including waiting). Image size: 70983496 bytes.
	// Normal Created: Created container: nginx
	// Normal Started: Started container nginx
	// Running, IP 10.244.1.2, after 3.339s
}
