package workloop_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// A learner's controller needs only a queue and a Reconcile: here one whose first try at
// default/web fails, so the loop puts the key back with backoff and tells the trace.
func ExampleLoop() {
	clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	tr := trace.NewRecorder(clk, true)
	tries := 0
	loop := &workloop.Loop{
		Queue: workqueue.New(clk, "web", workqueue.DefaultControllerRateLimiter[string]()),
		Reconcile: func(ctx context.Context, key string) (workloop.Result, error) {
			tries++
			if tries == 1 {
				return workloop.Result{}, errors.New("the apiserver said 409 Conflict")
			}
			fmt.Println("reconciled", key)
			return workloop.Result{}, nil
		},
		Component: "web-controller", Actor: "learner", Trace: tr, Resource: "webapps",
	}
	ctx := context.Background()
	loop.Queue.Add("default/web")
	did, _ := loop.Step(ctx)
	fmt.Println("first step did work:", did)
	did, _ = loop.Step(ctx)
	fmt.Println("right after, a step finds work:", did)
	clk.Advance(5 * time.Millisecond) // the first backoff
	did, _ = loop.Step(ctx)
	fmt.Println("after the backoff:", did)
	for _, e := range tr.Events() {
		fmt.Println(e.Component, e.Action, e.Object+":", e.Message)
	}
	// Output:
	// first step did work: true
	// right after, a step finds work: false
	// reconciled default/web
	// after the backoff: true
	// web-controller retry webapps/default/web: reconcile default/web failed: the apiserver said 409 Conflict -> requeued with backoff (retry 1)
}
