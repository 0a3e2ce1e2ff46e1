package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

const ms = time.Millisecond

func TestExponentialBackoffDoublesUpToMax(t *testing.T) {
	r := NewItemExponentialFailureRateLimiter[string](5*ms, 100*ms)
	var got []time.Duration
	for range 7 {
		got = append(got, r.When("a"))
	}
	assert.Equal(t, []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 100 * ms, 100 * ms}, got)
	assert.Equal(t, 7, r.NumRequeues("a"))
	assert.Equal(t, 5*ms, r.When("b"), "backoff is per item")
}

func TestExponentialBackoffSaturatesInsteadOfOverflowing(t *testing.T) {
	r := DefaultControllerRateLimiter[string]()
	for range 200 {
		r.When("a")
	}
	assert.Equal(t, 1000*time.Second, r.When("a"))
}

func TestForgetResetsBackoff(t *testing.T) {
	r := DefaultControllerRateLimiter[string]()
	r.When("a")
	r.When("a")
	r.Forget("a")
	assert.Zero(t, r.NumRequeues("a"))
	assert.Equal(t, 5*ms, r.When("a"))
}

func TestAddRateLimitedRetriesWithGrowingDelay(t *testing.T) {
	q, clk := newTestQueue()
	for _, wait := range []time.Duration{5 * ms, 10 * ms, 20 * ms} {
		q.AddRateLimited("a")
		clk.Advance(wait - 1)
		assert.Zero(t, q.Len(), "not ready before %v", wait)
		clk.Advance(1)
		assert.Equal(t, []string{"a"}, drain(q))
	}
	assert.Equal(t, 3, q.NumRequeues("a"))

	q.Forget("a")
	assert.Zero(t, q.NumRequeues("a"))
	q.AddRateLimited("a")
	clk.Advance(5 * ms)
	assert.Equal(t, []string{"a"}, drain(q))
}
