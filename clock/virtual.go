// Virtual is the simulated clock of step mode: time moves only when the
// driver says so.
//
//	NewVirtual(start)     a clock standing still at start
//	Advance(d)            move forward d, firing every timer due on the way
//	NextDeadline()        when the earliest pending timer is due
//	AdvanceToNext()       jump to that deadline and fire what is due then
//	Pending()             how many timers are waiting
//
// It plays the role of k8s.io/utils/clock/testing.FakeClock, with one
// difference that matters for a simulator: firing order is fully
// deterministic, by deadline and then by creation order.

package clock

import (
	"container/heap"
	"sync"
	"time"
)

// Virtual is a Clock whose time changes only through Advance, AdvanceToNext
// and Sleep. It is safe for concurrent use, but it is meant to have one
// driver: two goroutines advancing it at once would interleave their firings.
type Virtual struct {
	mu sync.Mutex
	// mu guards now, waiting and created, and the deadline and index of
	// every timer. A timer is armed iff it is in waiting (index >= 0).
	now     time.Time
	waiting timerHeap
	created uint64 // timers made so far; numbers each timer for tie-breaks
}

var _ Clock = (*Virtual)(nil)

// NewVirtual returns a Virtual clock standing still at start.
func NewVirtual(start time.Time) *Virtual {
	return &Virtual{now: start}
}

// Now returns the virtual time. Inside an AfterFunc callback it is the
// callback's own deadline, even if the Advance that fired it goes further.
func (v *Virtual) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Since returns the virtual time elapsed since t.
func (v *Virtual) Since(t time.Time) time.Duration { return v.Now().Sub(t) }

// After returns a channel that receives the virtual time once the clock has
// been advanced by d.
func (v *Virtual) After(d time.Duration) <-chan time.Time { return v.NewTimer(d).C() }

// NewTimer returns a Timer that fires when the clock has been advanced by d.
// Even with d <= 0 it fires only at the next Advance (Advance(0) will do):
// on a Virtual clock nothing happens between two steps of the driver.
func (v *Virtual) NewTimer(d time.Duration) Timer {
	return v.newTimer(d, 0, make(chan time.Time, 1), nil)
}

// AfterFunc arranges for f to be called, in the goroutine that advances the
// clock, once the clock has been advanced by d.
func (v *Virtual) AfterFunc(d time.Duration, f func()) Timer {
	return v.newTimer(d, 0, nil, f)
}

// NewTicker returns a Ticker that fires every d of virtual time. An Advance
// spanning several periods fires it once per period, each in its place among
// the other timers; a reader that has not drained the channel misses the
// later ticks, as with time.Ticker.
func (v *Virtual) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	return virtualTicker{v.newTimer(d, d, make(chan time.Time, 1), nil)}
}

// Sleep advances the clock by d (a negative d counts as zero) and fires what
// falls due, in the calling goroutine. This is the honest meaning of a sleep
// in step mode: the driver is the only goroutine running, so "wait d" can
// only mean "let d of simulated time pass". Component code on a Virtual clock
// therefore never blocks in Sleep; it moves everyone's time forward.
func (v *Virtual) Sleep(d time.Duration) {
	v.Advance(max(d, 0))
}

// Advance moves the clock forward by d, firing every timer whose deadline is
// at or before the new time, in order of deadline and then of creation.
// Channel timers get a non-blocking send of their deadline; AfterFunc
// callbacks run synchronously in the caller, with the clock unlocked and Now
// equal to their deadline. A timer created or reset by a callback fires in
// this same Advance if its deadline is within it. Advance panics if d < 0:
// virtual time never runs backwards.
func (v *Virtual) Advance(d time.Duration) {
	if d < 0 {
		panic("clock: Virtual.Advance with a negative duration")
	}
	v.mu.Lock()
	target := v.now.Add(d)
	v.mu.Unlock()
	v.advanceTo(target)
}

// NextDeadline returns the deadline of the earliest pending timer, and false
// if no timer is pending. The deadline may be at or before Now (a timer made
// with a non-positive duration that no Advance has fired yet).
func (v *Virtual) NextDeadline() (time.Time, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.waiting) == 0 {
		return time.Time{}, false
	}
	return v.waiting[0].deadline, true
}

// AdvanceToNext jumps the clock to the earliest pending deadline (never
// backwards) and fires every timer due then, including ones that callbacks
// create for that same instant. It returns false, leaving the clock alone,
// when no timer is pending. This is the step driver's "no work left: skip to
// the next thing that will happen".
func (v *Virtual) AdvanceToNext() bool {
	next, ok := v.NextDeadline()
	if ok {
		v.advanceTo(next)
	}
	return ok
}

// Pending returns the number of armed timers and tickers.
func (v *Virtual) Pending() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.waiting)
}

// advanceTo fires due timers one at a time, re-taking the lock between them
// so that callbacks can use the clock, then settles time at target.
func (v *Virtual) advanceTo(target time.Time) {
	for {
		v.mu.Lock()
		if len(v.waiting) == 0 || v.waiting[0].deadline.After(target) {
			if target.After(v.now) {
				v.now = target
			}
			v.mu.Unlock()
			return
		}
		t := v.waiting[0]
		if t.deadline.After(v.now) {
			v.now = t.deadline
		}
		f := v.fireLocked(t)
		v.mu.Unlock()
		if f != nil {
			f()
		}
	}
}

// fireLocked fires the earliest timer t: a channel timer gets a non-blocking
// send, a ticker is re-armed one period later, and a callback is returned for
// the caller to run after unlocking.
func (v *Virtual) fireLocked(t *virtualTimer) func() {
	if t.c != nil {
		select {
		case t.c <- v.now:
		default: // undrained: drop, as time.Ticker drops ticks for a slow reader
		}
	}
	if t.period > 0 {
		t.deadline = t.deadline.Add(t.period)
		heap.Fix(&v.waiting, t.index)
	} else {
		heap.Remove(&v.waiting, t.index)
	}
	return t.f
}

func (v *Virtual) newTimer(d, period time.Duration, c chan time.Time, f func()) *virtualTimer {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.created++
	t := &virtualTimer{clock: v, id: v.created, period: period, c: c, f: f, index: -1}
	v.armLocked(t, d)
	return t
}

func (v *Virtual) armLocked(t *virtualTimer, d time.Duration) {
	t.deadline = v.now.Add(d)
	heap.Push(&v.waiting, t)
}

// disarmLocked removes t from the waiting set and empties its channel; it
// reports whether t was armed.
func (v *Virtual) disarmLocked(t *virtualTimer) bool {
	armed := t.index >= 0
	if armed {
		heap.Remove(&v.waiting, t.index)
	}
	if t.c != nil {
		drain(t.c)
	}
	return armed
}

// virtualTimer is a one-shot channel timer (c != nil), an AfterFunc timer
// (f != nil) or a ticker (period > 0).
type virtualTimer struct {
	clock  *Virtual
	id     uint64 // creation order; breaks ties between equal deadlines
	period time.Duration
	c      chan time.Time
	f      func()

	// deadline and index are guarded by clock.mu.
	deadline time.Time
	index    int // position in clock.waiting; -1 when not armed
}

func (t *virtualTimer) C() <-chan time.Time { return t.c }

func (t *virtualTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	return t.clock.disarmLocked(t)
}

func (t *virtualTimer) Reset(d time.Duration) bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	pending := t.clock.disarmLocked(t)
	t.clock.armLocked(t, d)
	return pending
}

// virtualTicker adapts virtualTimer to the Ticker interface.
type virtualTicker struct{ t *virtualTimer }

func (k virtualTicker) C() <-chan time.Time { return k.t.C() }
func (k virtualTicker) Stop()               { k.t.Stop() }

// timerHeap is a min-heap of armed timers ordered by (deadline, id), for
// container/heap. Each timer records its own index so Stop and Reset can
// remove it in O(log n).
type timerHeap []*virtualTimer

func (h timerHeap) Len() int { return len(h) }

func (h timerHeap) Less(i, j int) bool {
	if !h[i].deadline.Equal(h[j].deadline) {
		return h[i].deadline.Before(h[j].deadline)
	}
	return h[i].id < h[j].id
}

func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *timerHeap) Push(x any) {
	t := x.(*virtualTimer)
	t.index = len(*h)
	*h = append(*h, t)
}

func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	t.index = -1
	*h = old[:len(old)-1]
	return t
}
