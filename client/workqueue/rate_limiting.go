// The rate-limiting part of the queue (client-go's RateLimitingInterface):
// retries with per-item backoff.
//
//	AddRateLimited(item)  retry item after the limiter's delay
//	Forget(item)          item succeeded: reset its backoff
//	NumRequeues(item)     retries since the last Forget

package workqueue

// AddRateLimited adds item again after the delay the rate limiter chooses,
// recording one more failure. A worker calls it when reconciling item
// failed; the next failure of the same item waits longer.
func (q *Queue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

// Forget tells the rate limiter that item succeeded, so its next failure
// starts again from the base delay. It does not remove item from the queue;
// a worker calls it (and Done) after a successful reconcile.
func (q *Queue[T]) Forget(item T) {
	q.limiter.Forget(item)
}

// NumRequeues returns how many times item has been rate-limited since it
// was last forgotten. Controllers use it to give up after a few retries.
func (q *Queue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}
