// backoff.go: Backoff, the per-key exponential backoff behind both ImagePullBackOff and
// CrashLoopBackOff (client-go's util/flowcontrol.Backoff, which the kubelet uses for both).
//
//	newBackoff(clk, initial, max)   10s doubling to 300s for both of the kubelet's uses
//	Next(key, at)                   a failure at time at: the first gives initial, then it doubles
//	Get(key)                        the current delay (0 if none)
//	InBackoffSince(key, t)          is now still within the delay counted from t?
//	Reset(key)
//
// An entry that has not been touched for twice the maximum (10 minutes) is forgotten, so a container
// that ran fine for ten minutes before crashing again starts over at 10s: this is where Kubernetes'
// "the back-off resets after 10 minutes of running" comes from.
package kubelet

import (
	"time"

	"kubesim/clock"
)

// Kubernetes' backoff settings for image pulls and container restarts (pkg/kubelet/kubelet.go).
const (
	backoffInitial = 10 * time.Second
	backoffMax     = 300 * time.Second
)

// Backoff tracks a delay per key. It is used only from the kubelet's sync goroutine.
type Backoff struct {
	clock   clock.Clock
	initial time.Duration
	max     time.Duration
	entries map[string]*backoffEntry
}

type backoffEntry struct {
	delay      time.Duration
	lastUpdate time.Time
}

func newBackoff(clk clock.Clock, initial, max time.Duration) *Backoff {
	return &Backoff{clock: clk, initial: initial, max: max, entries: map[string]*backoffEntry{}}
}

// Next records a failure at time at and returns the new delay.
func (b *Backoff) Next(key string, at time.Time) time.Duration {
	e, ok := b.entries[key]
	if !ok || b.expired(e, at) {
		e = &backoffEntry{delay: b.initial}
		b.entries[key] = e
	} else {
		e.delay = min(2*e.delay, b.max)
	}
	e.lastUpdate = at
	return e.delay
}

// Get returns the current delay for key, 0 if there is none.
func (b *Backoff) Get(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.delay
	}
	return 0
}

// InBackoffSince reports whether, counting the current delay from t, we are still waiting; and how
// long is left.
func (b *Backoff) InBackoffSince(key string, t time.Time) (bool, time.Duration) {
	e, ok := b.entries[key]
	now := b.clock.Now()
	if !ok || b.expired(e, now) {
		return false, 0
	}
	left := e.delay - now.Sub(t)
	return left > 0, left
}

// Reset forgets key.
func (b *Backoff) Reset(key string) { delete(b.entries, key) }

// expired: an entry untouched for twice the maximum delay no longer counts.
func (b *Backoff) expired(e *backoffEntry, at time.Time) bool {
	return at.Sub(e.lastUpdate) > 2*b.max
}
