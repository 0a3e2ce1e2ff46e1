package workqueue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
)

func TestAddAfterAppearsOnlyOnceTheClockAdvances(t *testing.T) {
	q, clk := newTestQueue()
	q.AddAfter("a", time.Second)
	assert.Zero(t, q.Len())
	assert.Equal(t, 1, clk.Pending(), "the waiting item is a timer the step driver can see")

	clk.Advance(999 * time.Millisecond)
	assert.Zero(t, q.Len())

	clk.Advance(time.Millisecond)
	assert.Equal(t, []string{"a"}, drain(q))
	assert.Zero(t, clk.Pending())
}

func TestAddAfterNonPositiveAddsNow(t *testing.T) {
	q, clk := newTestQueue()
	q.AddAfter("a", 0)
	q.AddAfter("b", -time.Second)
	assert.Equal(t, []string{"a", "b"}, drain(q))
	assert.Zero(t, clk.Pending())
}

func TestAddAfterTwiceEarlierDeadlineWins(t *testing.T) {
	t.Run("earlier second", func(t *testing.T) {
		q, clk := newTestQueue()
		q.AddAfter("a", 5*time.Second)
		q.AddAfter("a", 2*time.Second)
		assert.Equal(t, 1, clk.Pending(), "the later timer was stopped")

		next, ok := clk.NextDeadline()
		require.True(t, ok)
		assert.Equal(t, epoch.Add(2*time.Second), next)
		clk.AdvanceToNext()
		assert.Equal(t, []string{"a"}, drain(q))
		assert.Zero(t, clk.Pending())
	})
	t.Run("later second", func(t *testing.T) {
		q, clk := newTestQueue()
		q.AddAfter("a", 2*time.Second)
		q.AddAfter("a", 5*time.Second)
		assert.Equal(t, 1, clk.Pending())

		clk.Advance(2 * time.Second)
		assert.Equal(t, []string{"a"}, drain(q))
		clk.Advance(time.Hour)
		assert.Empty(t, drain(q), "the later request was absorbed, not queued again")
	})
}

func TestAddAfterItemsBecomeReadyInDeadlineOrder(t *testing.T) {
	q, clk := newTestQueue()
	q.AddAfter("slow", 3*time.Second)
	q.AddAfter("fast", time.Second)
	q.AddAfter("tie", time.Second)
	clk.Advance(5 * time.Second)
	assert.Equal(t, []string{"fast", "tie", "slow"}, drain(q))
}

func TestShutDownCancelsDelayedItems(t *testing.T) {
	q, clk := newTestQueue()
	q.AddAfter("a", time.Second)
	q.ShutDown()
	assert.Zero(t, clk.Pending())
	q.AddAfter("b", time.Second)
	assert.Zero(t, clk.Pending(), "adds after ShutDown are ignored")
	clk.Advance(time.Minute)
	assert.Zero(t, q.Len())
}

func TestAddAfterOnRealClock(t *testing.T) {
	q := New(clock.NewReal(1000), "real", DefaultControllerRateLimiter[string]())
	q.AddAfter("a", time.Second) // 1ms of wall time
	item, shutdown := q.Get()
	assert.False(t, shutdown)
	assert.Equal(t, "a", item)
}
