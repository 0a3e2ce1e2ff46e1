package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests use the time package directly: they check the wall clock.
// They assert only lower bounds and orderings, never "it took at most X",
// so a slow machine cannot make them flaky.

func TestNewRealWithoutSpeedUpIsTheWallClock(t *testing.T) {
	assert.Equal(t, Real{}, NewReal(1))
	assert.Equal(t, Real{}, NewReal(0))
	assert.Equal(t, Real{}, NewReal(-3))

	before := time.Now()
	now := Real{}.Now()
	after := time.Now()
	assert.False(t, now.Before(before))
	assert.False(t, now.After(after))
}

func TestRealSpedUpRunsSpeedTimesFaster(t *testing.T) {
	c := NewReal(60)
	start := c.Now()
	realStart := time.Now()
	time.Sleep(10 * time.Millisecond)
	realElapsed := time.Since(realStart)

	// start was read before realStart and Since after realElapsed, so the
	// cluster clock saw at least realElapsed of wall time, times 60.
	assert.GreaterOrEqual(t, c.Since(start), 60*realElapsed)
}

func TestRealSpedUpSleepAndTimersWaitClusterTime(t *testing.T) {
	c := NewReal(1000)
	start := c.Now()

	c.Sleep(2 * time.Second) // 2ms of wall time
	assert.GreaterOrEqual(t, c.Since(start), 2*time.Second)

	fired := <-c.After(3 * time.Second)
	assert.GreaterOrEqual(t, fired.Sub(start), 5*time.Second, "the channel carries cluster time")
}

func TestRealTimerStopReportsWhetherPending(t *testing.T) {
	timer := Real{}.NewTimer(time.Hour)
	assert.True(t, timer.Stop())
	assert.False(t, timer.Stop())

	fired := Real{}.NewTimer(time.Millisecond)
	<-fired.C()
	assert.False(t, fired.Stop())
	assert.False(t, fired.Reset(time.Hour), "Reset of a fired timer reports false")
	assert.True(t, fired.Stop())
}

func TestRealTickerTicksUntilStopped(t *testing.T) {
	c := NewReal(1000)
	ticker := c.NewTicker(time.Second) // 1ms of wall time
	first := <-ticker.C()
	second := <-ticker.C()
	assert.True(t, second.After(first))
	ticker.Stop()
	assert.Empty(t, ticker.C(), "no tick is received after Stop")
}

func TestRealAfterFuncRunsFunction(t *testing.T) {
	done := make(chan struct{})
	timer := NewReal(1000).AfterFunc(time.Second, func() { close(done) })
	assert.Nil(t, timer.C())
	<-done
	require.False(t, timer.Stop())
}
