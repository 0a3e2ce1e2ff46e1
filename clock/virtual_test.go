package clock

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// at returns the instant d after epoch, for readable assertions.
func at(d time.Duration) time.Time { return epoch.Add(d) }

func TestVirtualStandsStillUntilAdvanced(t *testing.T) {
	v := NewVirtual(epoch)
	assert.Equal(t, epoch, v.Now())
	v.Advance(90 * time.Second)
	assert.Equal(t, at(90*time.Second), v.Now())
	assert.Equal(t, 30*time.Second, v.Since(at(time.Minute)))
}

func TestVirtualFiresByDeadlineThenCreationOrder(t *testing.T) {
	v := NewVirtual(epoch)
	var fired []string
	record := func(name string) func() {
		return func() { fired = append(fired, fmt.Sprintf("%s@%s", name, v.Since(epoch))) }
	}
	v.AfterFunc(3*time.Second, record("a"))
	v.AfterFunc(1*time.Second, record("b"))
	v.AfterFunc(2*time.Second, record("c"))
	v.AfterFunc(1*time.Second, record("d")) // same deadline as b, created later

	v.Advance(5 * time.Second)

	// Each callback sees Now equal to its own deadline, not the Advance target.
	assert.Equal(t, []string{"b@1s", "d@1s", "c@2s", "a@3s"}, fired)
	assert.Equal(t, at(5*time.Second), v.Now())
	assert.Zero(t, v.Pending())
}

func TestVirtualReplaysIdentically(t *testing.T) {
	run := func() []string {
		v := NewVirtual(epoch)
		var log []string
		tick := v.NewTicker(700 * time.Millisecond)
		for i := range 5 {
			d := time.Duration(5-i) * 300 * time.Millisecond
			v.AfterFunc(d, func() {
				log = append(log, fmt.Sprintf("func%d@%s", i, v.Since(epoch)))
				v.AfterFunc(d, func() { log = append(log, fmt.Sprintf("child%d@%s", i, v.Since(epoch))) })
			})
		}
		for range 6 {
			v.Advance(500 * time.Millisecond)
			select {
			case got := <-tick.C():
				log = append(log, "tick@"+got.Sub(epoch).String())
			default:
			}
		}
		return log
	}
	first := run()
	require.NotEmpty(t, first)
	for range 10 {
		assert.Equal(t, first, run())
	}
}

func TestVirtualChannelTimerFiresOnlyWhenAdvancedPastDeadline(t *testing.T) {
	v := NewVirtual(epoch)
	c := v.After(time.Second)

	v.Advance(999 * time.Millisecond)
	assert.Empty(t, c)

	v.Advance(time.Millisecond)
	require.Len(t, c, 1)
	assert.Equal(t, at(time.Second), <-c)
}

func TestVirtualZeroDurationTimerWaitsForNextAdvance(t *testing.T) {
	v := NewVirtual(epoch)
	called := false
	v.AfterFunc(0, func() { called = true })
	assert.False(t, called, "nothing fires between two steps of the driver")

	next, ok := v.NextDeadline()
	require.True(t, ok)
	assert.Equal(t, epoch, next)

	v.Advance(0)
	assert.True(t, called)
}

func TestVirtualTimerStopReportsWhetherPending(t *testing.T) {
	v := NewVirtual(epoch)
	timer := v.NewTimer(time.Second)
	assert.Equal(t, 1, v.Pending())

	assert.True(t, timer.Stop(), "first Stop stops a pending timer")
	assert.False(t, timer.Stop(), "second Stop finds nothing to stop")
	assert.Zero(t, v.Pending())

	v.Advance(time.Hour)
	assert.Empty(t, timer.C(), "a stopped timer never fires")
}

func TestVirtualStopAfterFiringDiscardsUnreceivedValue(t *testing.T) {
	v := NewVirtual(epoch)
	timer := v.NewTimer(time.Second)
	v.Advance(time.Second)
	require.Len(t, timer.C(), 1)

	assert.False(t, timer.Stop(), "the timer had already fired")
	assert.Empty(t, timer.C(), "Go 1.23 rule: no stale value after Stop")
}

func TestVirtualResetRearmsTimer(t *testing.T) {
	v := NewVirtual(epoch)
	timer := v.NewTimer(time.Second)

	assert.True(t, timer.Reset(5*time.Second), "Reset of a pending timer reports true")
	v.Advance(time.Second)
	assert.Empty(t, timer.C(), "the old deadline no longer applies")
	v.Advance(4 * time.Second)
	require.Len(t, timer.C(), 1)
	assert.Equal(t, at(5*time.Second), <-timer.C())

	assert.False(t, timer.Reset(time.Second), "Reset of a fired timer reports false")
	v.Advance(time.Second)
	assert.Equal(t, at(6*time.Second), <-timer.C())
}

func TestVirtualAfterFuncResetRunsFunctionAgain(t *testing.T) {
	v := NewVirtual(epoch)
	calls := 0
	timer := v.AfterFunc(time.Second, func() { calls++ })
	assert.Nil(t, timer.C())

	v.Advance(time.Second)
	timer.Reset(time.Second)
	v.Advance(time.Second)
	assert.Equal(t, 2, calls)
}

func TestVirtualTickerRearmsEveryPeriod(t *testing.T) {
	v := NewVirtual(epoch)
	ticker := v.NewTicker(time.Second)

	v.Advance(time.Second)
	assert.Equal(t, at(1*time.Second), <-ticker.C())
	v.Advance(time.Second)
	assert.Equal(t, at(2*time.Second), <-ticker.C())
	assert.Equal(t, 1, v.Pending(), "a ticker stays armed")

	// Nobody reads during a 3s jump: like time.Ticker, the first undrained
	// tick is kept and the later ones are dropped.
	v.Advance(3 * time.Second)
	require.Len(t, ticker.C(), 1)
	assert.Equal(t, at(3*time.Second), <-ticker.C())

	ticker.Stop()
	assert.Zero(t, v.Pending())
	v.Advance(time.Hour)
	assert.Empty(t, ticker.C())
}

func TestVirtualNewTickerRejectsNonPositivePeriod(t *testing.T) {
	assert.PanicsWithValue(t, "non-positive interval for NewTicker", func() {
		NewVirtual(epoch).NewTicker(0)
	})
}

func TestVirtualTimerCreatedByCallbackFiresInSameAdvance(t *testing.T) {
	v := NewVirtual(epoch)
	var fired []string
	v.AfterFunc(time.Second, func() {
		fired = append(fired, "parent@"+v.Since(epoch).String())
		v.AfterFunc(time.Second, func() { fired = append(fired, "child@"+v.Since(epoch).String()) })
		v.AfterFunc(5*time.Second, func() { fired = append(fired, "late") })
	})

	v.Advance(3 * time.Second)

	assert.Equal(t, []string{"parent@1s", "child@2s"}, fired)
	next, ok := v.NextDeadline()
	require.True(t, ok)
	assert.Equal(t, at(6*time.Second), next, "the late child is due 5s after its parent ran")
}

func TestVirtualNextDeadlineAndAdvanceToNext(t *testing.T) {
	v := NewVirtual(epoch)
	_, ok := v.NextDeadline()
	assert.False(t, ok)
	assert.False(t, v.AdvanceToNext())
	assert.Equal(t, epoch, v.Now(), "no timer: the clock stays put")

	var fired []string
	v.AfterFunc(5*time.Second, func() { fired = append(fired, "five") })
	v.AfterFunc(2*time.Second, func() {
		fired = append(fired, "two")
		v.AfterFunc(0, func() { fired = append(fired, "two-again") })
	})

	next, ok := v.NextDeadline()
	require.True(t, ok)
	assert.Equal(t, at(2*time.Second), next)

	require.True(t, v.AdvanceToNext())
	assert.Equal(t, at(2*time.Second), v.Now())
	assert.Equal(t, []string{"two", "two-again"}, fired, "timers created for the same instant fire too")

	require.True(t, v.AdvanceToNext())
	assert.Equal(t, at(5*time.Second), v.Now())
	assert.False(t, v.AdvanceToNext())
	assert.Equal(t, []string{"two", "two-again", "five"}, fired)
}

func TestVirtualSleepAdvancesTime(t *testing.T) {
	v := NewVirtual(epoch)
	woke := v.After(time.Minute)
	v.Sleep(time.Minute)
	assert.Equal(t, at(time.Minute), v.Now())
	assert.Len(t, woke, 1)

	v.Sleep(-time.Second)
	assert.Equal(t, at(time.Minute), v.Now(), "a negative sleep returns at once")
}

func TestVirtualAdvanceRejectsNegativeDuration(t *testing.T) {
	assert.Panics(t, func() { NewVirtual(epoch).Advance(-time.Nanosecond) })
}

func TestVirtualIsSafeForConcurrentUse(t *testing.T) {
	v := NewVirtual(epoch)
	var wg sync.WaitGroup
	var mu sync.Mutex
	calls := 0
	for range 8 {
		wg.Go(func() {
			for range 100 {
				timer := v.AfterFunc(time.Millisecond, func() {
					mu.Lock()
					calls++
					mu.Unlock()
				})
				if timer.Stop() {
					timer.Reset(time.Millisecond)
				}
				v.Now()
			}
		})
	}
	wg.Go(func() {
		for range 100 {
			v.Advance(time.Millisecond)
		}
	})
	wg.Wait()
	v.Advance(time.Second)
	assert.Equal(t, 800, calls, "every timer fires exactly once")
	assert.Zero(t, v.Pending())
}
