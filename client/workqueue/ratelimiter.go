// Rate limiters decide how long a failed item waits before its next try
// (client-go's util/workqueue/default_rate_limiters.go).
//
//	RateLimiter[T]                                 When, Forget, NumRequeues
//	NewItemExponentialFailureRateLimiter(base, max) base * 2^failures, capped
//	DefaultControllerRateLimiter()                  5ms .. 1000s per item

package workqueue

import (
	"math"
	"sync"
	"time"
)

// RateLimiter tracks failures per item. When is called once per retry and
// returns how long to wait before it; Forget is called when the item finally
// succeeded and clears its history; NumRequeues reports how many retries the
// item has had since it was last forgotten.
type RateLimiter[T comparable] interface {
	When(item T) time.Duration
	Forget(item T)
	NumRequeues(item T) int
}

// ItemExponentialFailureRateLimiter waits base * 2^n before the (n+1)th
// retry of an item, never more than max: with client-go's controller
// defaults that is 5ms, 10ms, 20ms, ... up to 1000s (reached after 18
// failures, about 22 minutes of cumulative backoff).
type ItemExponentialFailureRateLimiter[T comparable] struct {
	base, max time.Duration

	mu sync.Mutex
	// mu guards failures: the number of When calls per item since its last
	// Forget. Items with no failures are absent.
	failures map[T]int
}

var _ RateLimiter[string] = (*ItemExponentialFailureRateLimiter[string])(nil)

// NewItemExponentialFailureRateLimiter returns a limiter whose delays start
// at base and double on every failure of the same item, capped at max.
func NewItemExponentialFailureRateLimiter[T comparable](base, max time.Duration) RateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{base: base, max: max, failures: map[T]int{}}
}

// When records one more failure of item and returns its backoff.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	exp := r.failures[item]
	r.failures[item] = exp + 1

	// Compute in floating point so that a long failure history saturates at
	// max instead of overflowing int64.
	backoff := float64(r.base) * math.Pow(2, float64(exp))
	if backoff > float64(r.max) {
		return r.max
	}
	return time.Duration(backoff)
}

// Forget clears item's failure history.
func (r *ItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// NumRequeues returns how many times When was called for item since it was
// last forgotten.
func (r *ItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// DefaultControllerRateLimiter is the limiter kube-controller-manager's
// controllers use: per-item exponential backoff from 5ms to 1000s.
//
// Simplified: client-go combines this (taking the larger delay) with an
// overall token bucket of 10 qps and burst 100 shared by all items, which
// only bites when more than 100 items fail at once. kubesim leaves the bucket
// out because it would need the clock and this constructor takes none.
func DefaultControllerRateLimiter[T comparable]() RateLimiter[T] {
	return NewItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second)
}
