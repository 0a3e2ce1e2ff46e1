// backoff.go: Backoff, the per-key exponential backoff behind both ImagePullBackOff and
// CrashLoopBackOff (client-go's util/flowcontrol.Backoff, which the kubelet uses for both).
//
//	newBackoff(clk, initial, max, expiry)   10s doubling to 300s for both of the kubelet's uses
//	Next(key, eventTime)                    a failure: the first gives initial, then it doubles
//	Get(key)                                the current delay (0 if none)
//	InBackOffSince(key, eventTime)          is the clock still within the delay counted from eventTime?
//	InBackOffSinceUpdate(key, eventTime)    is eventTime within the delay counted from the last Next?
//	Reset(key)
//
// Two times matter for each key, and they are not the same: the event a caller asks about (when the
// container finished, when the pull failed) and the entry's last update, which Next stamps with the
// clock, whatever event time it was given. An entry expires, and the next failure starts over at 10s,
// when the event comes long enough after the last update: for image pulls, twice the maximum (10
// minutes); for crash loops, the kubelet sets it to 600 s, so a container's back-off starts over only
// when it finished more than 10 minutes after it was last restarted, that is, after 10 minutes of
// running. This is where Kubernetes' "the back-off resets after 10 minutes of running" comes from.
package kubelet

import (
	"time"

	"kubesim/clock"
)

// Kubernetes' backoff settings for image pulls and container restarts (pkg/kubelet/kubelet.go).
const (
	backoffInitial = 10 * time.Second
	backoffMax     = 300 * time.Second
	// crashLoopBackOffExpiry is how long a container must run for its back-off to start over (the
	// kubelet's HasExpiredFunc for crashLoopBackOff).
	crashLoopBackOffExpiry = 600 * time.Second
)

// BackOffPolicy is the delay after a failure, given the delay before it (0 for a first failure, or
// one after the back-off expired). Kubernetes' policy is initial, then double, capped at max.
type BackOffPolicy func(previous time.Duration) time.Duration

// Backoff tracks a delay per key. It is used only from the kubelet's sync goroutine.
type Backoff struct {
	clock   clock.Clock
	initial time.Duration
	max     time.Duration
	expiry  time.Duration // an entry whose event comes this long after its last update is forgotten
	policy  BackOffPolicy // nil: initial, doubling up to max
	entries map[string]*backoffEntry
}

type backoffEntry struct {
	delay      time.Duration
	lastUpdate time.Time // the clock when Next last ran for this key
}

// newBackoff builds a Backoff; expiry 0 means twice max, flowcontrol.Backoff's default.
func newBackoff(clk clock.Clock, initial, max, expiry time.Duration) *Backoff {
	if expiry == 0 {
		expiry = 2 * max
	}
	return &Backoff{clock: clk, initial: initial, max: max, expiry: expiry, entries: map[string]*backoffEntry{}}
}

// Next records a failure that happened at eventTime and returns the new delay. The entry is stamped
// with the clock, not with eventTime.
func (b *Backoff) Next(key string, eventTime time.Time) time.Duration {
	e, ok := b.entries[key]
	switch {
	case !ok || b.expired(e, eventTime):
		e = &backoffEntry{delay: b.initial}
		b.entries[key] = e
		if b.policy != nil {
			e.delay = b.policy(0)
		}
	case b.policy != nil:
		e.delay = b.policy(e.delay)
	default:
		e.delay = min(2*e.delay, b.max)
	}
	e.lastUpdate = b.clock.Now()
	return e.delay
}

// Get returns the current delay for key, 0 if there is none.
func (b *Backoff) Get(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.delay
	}
	return 0
}

// InBackOffSince reports whether the clock is still within the delay counted from eventTime, and how
// long is left.
func (b *Backoff) InBackOffSince(key string, eventTime time.Time) (bool, time.Duration) {
	e, ok := b.entries[key]
	if !ok || b.expired(e, eventTime) {
		return false, 0
	}
	left := e.delay - b.clock.Since(eventTime)
	return left > 0, left
}

// InBackOffSinceUpdate reports whether eventTime is still within the delay counted from the entry's
// last update, and how long is left.
func (b *Backoff) InBackOffSinceUpdate(key string, eventTime time.Time) (bool, time.Duration) {
	e, ok := b.entries[key]
	if !ok || b.expired(e, eventTime) {
		return false, 0
	}
	left := e.delay - eventTime.Sub(e.lastUpdate)
	return left > 0, left
}

// Reset forgets key.
func (b *Backoff) Reset(key string) { delete(b.entries, key) }

// expired: an event this long after the entry's last update starts the back-off over.
func (b *Backoff) expired(e *backoffEntry, eventTime time.Time) bool {
	return eventTime.Sub(e.lastUpdate) > b.expiry
}
