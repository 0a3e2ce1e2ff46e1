// Real is the wall clock used in real-time mode, optionally sped up.
//
//	Real{}          the plain wall clock
//	NewReal(speed)  cluster time runs speed times faster than wall time
//
// Its timers are built on time.AfterFunc so that what arrives on C() is
// cluster time, not wall time, whatever the speed.

package clock

import (
	"sync"
	"time"
)

// Real is a Clock backed by the wall clock. The zero value is the plain wall
// clock; NewReal makes one that runs faster. Real is an immutable value and
// safe to copy and to share between goroutines.
type Real struct {
	// speed is the number of cluster seconds per real second; 0 and 1 both
	// mean the plain wall clock.
	speed float64
	// origin is the real instant at which cluster time equals wall time;
	// from there cluster time runs speed times as fast.
	origin time.Time
}

var _ Clock = Real{}

// NewReal returns a wall clock sped up by the given factor: with speed 60,
// one real second is sixty cluster seconds, Now() runs sixty times faster
// from this instant on, and every duration passed to After, Sleep or a timer
// is divided by sixty. A speed <= 0 or equal to 1 gives the plain wall clock.
func NewReal(speed float64) Real {
	if speed <= 0 || speed == 1 {
		return Real{}
	}
	return Real{speed: speed, origin: time.Now()}
}

func (c Real) spedUp() bool { return c.speed != 0 }

// toReal converts a cluster duration into the wall-clock duration to wait.
func (c Real) toReal(d time.Duration) time.Duration {
	if !c.spedUp() {
		return d
	}
	return time.Duration(float64(d) / c.speed)
}

// Now returns the cluster time. On a sped-up clock it is origin plus speed
// times the real time elapsed since origin; it carries a monotonic reading,
// so differences between two of its results are immune to wall-clock jumps.
func (c Real) Now() time.Time {
	if !c.spedUp() {
		return time.Now()
	}
	return c.origin.Add(time.Duration(float64(time.Since(c.origin)) * c.speed))
}

// Since returns the cluster time elapsed since t.
func (c Real) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// After waits for d of cluster time, then sends the cluster time.
func (c Real) After(d time.Duration) <-chan time.Time { return c.NewTimer(d).C() }

// Sleep blocks the calling goroutine for d of cluster time.
func (c Real) Sleep(d time.Duration) { time.Sleep(c.toReal(d)) }

// NewTimer returns a Timer that sends the cluster time after d.
func (c Real) NewTimer(d time.Duration) Timer {
	t := &realTimer{clock: c, c: make(chan time.Time, 1)}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.armLocked(d)
	return t
}

// NewTicker returns a Ticker that sends the cluster time every d.
func (c Real) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	t := &realTimer{clock: c, c: make(chan time.Time, 1), period: c.toReal(d)}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.armLocked(d)
	return realTicker{t}
}

// AfterFunc calls f in its own goroutine after d, like time.AfterFunc.
func (c Real) AfterFunc(d time.Duration, f func()) Timer {
	return realFuncTimer{clock: c, t: time.AfterFunc(c.toReal(d), f)}
}

// realTimer is a channel timer, or a ticker when period > 0. Each arming
// schedules its own time.AfterFunc tagged with a generation number; a firing
// from an older generation (one that lost a race with Stop or Reset) sends
// nothing.
type realTimer struct {
	clock  Real
	c      chan time.Time
	period time.Duration // wall-clock interval between ticks; 0 for a one-shot timer

	mu sync.Mutex
	// mu guards the fields below. gen is bumped by every arm and Stop; only
	// the firing scheduled by the current generation may send.
	gen  uint64
	t    *time.Timer // the wall-clock timer of the current generation
	next time.Time   // wall-clock instant of the next firing (tickers only)
}

func (t *realTimer) armLocked(d time.Duration) {
	t.gen++
	gen := t.gen
	wait := t.clock.toReal(d)
	t.next = time.Now().Add(wait)
	t.t = time.AfterFunc(wait, func() { t.fire(gen) })
}

func (t *realTimer) fire(gen uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen != t.gen {
		return
	}
	select {
	case t.c <- t.clock.Now():
	default: // the reader is behind: drop the tick, as time.Ticker does
	}
	if t.period == 0 {
		return
	}
	// Schedule from the planned instant, not from now, so ticks do not
	// drift; skip ticks that are already in the past.
	now := time.Now()
	t.next = t.next.Add(t.period)
	for !t.next.After(now) {
		t.next = t.next.Add(t.period)
	}
	t.t.Reset(t.next.Sub(now))
}

func (t *realTimer) C() <-chan time.Time { return t.c }

func (t *realTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	pending := t.t.Stop()
	t.gen++
	drain(t.c)
	return pending
}

func (t *realTimer) Reset(d time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	pending := t.t.Stop()
	drain(t.c)
	t.armLocked(d)
	return pending
}

// realTicker adapts realTimer to the Ticker interface, whose Stop returns
// nothing.
type realTicker struct{ t *realTimer }

func (k realTicker) C() <-chan time.Time { return k.t.C() }
func (k realTicker) Stop()               { k.t.Stop() }

// realFuncTimer is the Timer returned by AfterFunc: a *time.Timer whose
// Reset takes a cluster duration. It has no channel.
type realFuncTimer struct {
	clock Real
	t     *time.Timer
}

func (t realFuncTimer) C() <-chan time.Time        { return nil }
func (t realFuncTimer) Stop() bool                 { return t.t.Stop() }
func (t realFuncTimer) Reset(d time.Duration) bool { return t.t.Reset(t.clock.toReal(d)) }
