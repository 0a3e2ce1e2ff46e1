package leaderelection_test

import (
	"fmt"
	"time"

	"kubesim/client/leaderelection"
	"kubesim/internal/testenv"
)

// Two kube-controller-manager replicas campaign for the Lease kube-system/kube-controller-manager;
// the first wins. When it dies, the other takes over once the Lease has gone unrenewed for
// leaseDuration (15 s).
func Example() {
	c, ctx := testenv.Start(testenv.Step)
	defer c.Close()
	for _, id := range []string{"cm-1", "cm-2"} {
		e, err := leaderelection.NewLeaderElector(c.Client("system:kube-controller-manager", "kube-controller-manager/"+id), c.Clock, c.Trace,
			leaderelection.Config{Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: id}})
		if err != nil {
			panic(err)
		}
		if err := c.Add(ctx, e); err != nil {
			panic(err)
		}
	}
	if err := c.Driver.Advance(ctx, 4*time.Second); err != nil {
		panic(err)
	}
	if err := c.Stop("cm-1"); err != nil {
		panic(err)
	}
	if err := c.Driver.Advance(ctx, 20*time.Second); err != nil {
		panic(err)
	}
	for _, e := range testenv.StoryEvents(c, "cm-1", "cm-2") {
		fmt.Printf("%-5s %s  %s\n", e.Time, e.Component, e.Message)
	}
	// Output:
	// 0s    cm-1  new leader: cm-1
	// 0s    cm-1  successfully acquired lease kube-system/kube-controller-manager as cm-1 (created it)
	// 0s    cm-2  new leader: cm-1
	// 20s   cm-2  new leader: cm-2
	// 20s   cm-2  successfully acquired lease kube-system/kube-controller-manager as cm-2 (previous holder "cm-1", leaseTransitions 1)
}
