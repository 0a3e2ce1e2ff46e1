// retry.go: RetryOnConflict (client-go's util/retry). Optimistic concurrency means a write can fail
// with 409 Conflict when someone else wrote first; the cure is always the same: read the object
// again, reapply the change, write again.
package client

import (
	"context"
	"time"

	apierrors "kubesim/api/errors"
	"kubesim/clock"
)

// DefaultRetry is client-go's retry.DefaultRetry: 5 tries, 10 ms apart, growing by 1x jitter-free.
var DefaultRetry = Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0}

// Backoff says how often and how far apart to retry.
type Backoff struct {
	Steps    int
	Duration time.Duration
	Factor   float64
}

// RetryOnConflict runs fn until it succeeds, fails with something other than a Conflict, or the
// backoff runs out (then it returns the last Conflict). fn must read the object afresh each time.
func RetryOnConflict(ctx context.Context, clk clock.Clock, b Backoff, fn func() error) error {
	wait := b.Duration
	var err error
	for i := 0; i < max(b.Steps, 1); i++ {
		if err = fn(); err == nil || !apierrors.IsConflict(err) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if i < b.Steps-1 && wait > 0 {
			clk.Sleep(wait)
			wait = time.Duration(float64(wait) * max(b.Factor, 1))
		}
	}
	return err
}
