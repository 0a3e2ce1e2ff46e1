// This file defines the contracts: Clock, Timer and Ticker. Real (real.go)
// and Virtual (virtual.go) are the two implementations.

package clock

import "time"

// Clock tells the time and schedules wake-ups. It is the interface a
// component takes instead of using the time package, exactly as Kubernetes
// components take k8s.io/utils/clock.Clock.
//
// Durations passed to a Clock are cluster durations: on a sped-up Real clock
// or a Virtual clock they need not match the wall clock. A component must
// therefore never mix a Clock with the time package: time.Now() and
// clk.Now() may be hours apart.
type Clock interface {
	// Now returns the current cluster time.
	Now() time.Time
	// Since returns the cluster time elapsed since t; shorthand for
	// Now().Sub(t).
	Since(t time.Time) time.Duration
	// After waits for d and then sends the cluster time on the returned
	// channel, like time.After.
	After(d time.Duration) <-chan time.Time
	// NewTimer returns a Timer that sends the cluster time on its channel
	// after d, like time.NewTimer.
	NewTimer(d time.Duration) Timer
	// AfterFunc calls f after d, like time.AfterFunc. The returned Timer's
	// C() is nil.
	AfterFunc(d time.Duration, f func()) Timer
	// NewTicker returns a Ticker that sends the cluster time every d, like
	// time.NewTicker. It panics if d <= 0.
	NewTicker(d time.Duration) Ticker
	// Sleep pauses for d of cluster time, like time.Sleep. See Virtual.Sleep
	// for what that means when time is simulated.
	Sleep(d time.Duration)
}

// Timer is a single pending wake-up, with the semantics of *time.Timer.
type Timer interface {
	// C returns the channel on which the firing time is delivered, or nil
	// for a timer made by AfterFunc.
	C() <-chan time.Time
	// Stop prevents the timer from firing. It returns true if the call
	// stopped the timer, false if it had already fired or been stopped.
	Stop() bool
	// Reset re-arms the timer to fire after d, and returns whether it was
	// still pending before the call. A timer made by AfterFunc runs its
	// function again when it fires after a Reset.
	Reset(d time.Duration) bool
}

// Ticker delivers the cluster time at regular intervals, with the semantics
// of *time.Ticker: if the reader falls behind, ticks are dropped rather than
// queued.
type Ticker interface {
	// C returns the channel on which ticks are delivered.
	C() <-chan time.Time
	// Stop turns the ticker off; no tick is received after Stop returns.
	Stop()
}

// drain empties a 1-buffered timer channel, so that a value sent before a
// Stop or Reset is never received after it (the Go 1.23 rule).
func drain(c chan time.Time) {
	select {
	case <-c:
	default:
	}
}
