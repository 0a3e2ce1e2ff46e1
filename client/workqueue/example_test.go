package workqueue_test

import (
	"errors"
	"fmt"
	"time"

	"kubesim/client/workqueue"
	"kubesim/clock"
)

// A controller's loop in step mode: take one key, reconcile it, and on
// failure retry with backoff. The driver advances the virtual clock when the
// queue is empty.
func Example() {
	clk := clock.NewVirtual(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	start := clk.Now()
	queue := workqueue.New(clk, "replicaset", workqueue.DefaultControllerRateLimiter[string]())

	attempts := 0
	reconcile := func(key string) error {
		attempts++
		if attempts < 3 {
			return errors.New("apiserver unavailable")
		}
		return nil
	}

	queue.Add("default/nginx-6d4cf56db6")
	queue.Add("default/nginx-6d4cf56db6") // an informer event for the same key collapses

	for {
		key, ok := queue.TryGet()
		if !ok {
			if !clk.AdvanceToNext() {
				break // no work and no timers: the scenario is over
			}
			continue
		}
		if err := reconcile(key); err != nil {
			fmt.Printf("%v reconcile %s: %v (requeue %d)\n", clk.Since(start), key, err, queue.NumRequeues(key)+1)
			queue.AddRateLimited(key)
		} else {
			fmt.Printf("%v reconcile %s: ok\n", clk.Since(start), key)
			queue.Forget(key)
		}
		queue.Done(key)
	}

	// Output:
	// 0s reconcile default/nginx-6d4cf56db6: apiserver unavailable (requeue 1)
	// 5ms reconcile default/nginx-6d4cf56db6: apiserver unavailable (requeue 2)
	// 15ms reconcile default/nginx-6d4cf56db6: ok
}
