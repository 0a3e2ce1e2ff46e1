package apiserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitFor wakes each waiter when the cache reaches its revision and not before; a waiter whose
// context ends gets its context's error; when the cache stops, the waiters left get why.
func TestWaitForWakesEachWaiterAtItsRevision(t *testing.T) {
	c := newWatchCache(defaultWindow)
	advance := func(rev int64) {
		c.mu.Lock()
		c.rev = rev
		c.wakeLocked()
		c.mu.Unlock()
	}
	advance(10)
	require.NoError(t, c.waitFor(context.Background(), 10), "a revision already read does not wait")

	done := map[int64]chan error{}
	for _, rev := range []int64{13, 11, 12} {
		ch := make(chan error, 1)
		done[rev] = ch
		go func() { ch <- c.waitFor(context.Background(), rev) }()
	}
	require.Eventually(t, func() bool {
		c.mu.RLock()
		defer c.mu.RUnlock()
		return len(c.waiters) == 3
	}, 10*time.Second, time.Millisecond, "all three wait")
	advance(11)
	require.NoError(t, <-done[11])
	c.mu.RLock()
	left := len(c.waiters)
	c.mu.RUnlock()
	assert.Equal(t, 2, left, "the waiters of revisions not read yet still wait")
	select {
	case err := <-done[12]:
		t.Fatalf("woken at revision 11 while waiting for 12: %v", err)
	default:
	}
	advance(13)
	require.NoError(t, <-done[12])
	require.NoError(t, <-done[13])

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, c.waitFor(ctx, 20), context.Canceled)

	stopped := errors.New("etcd watch closed")
	waiting := make(chan error, 1)
	go func() { waiting <- c.waitFor(context.Background(), 30) }()
	require.Eventually(t, func() bool {
		c.mu.RLock()
		defer c.mu.RUnlock()
		return len(c.waiters) == 2 // the cancelled one's entry and this one
	}, 10*time.Second, time.Millisecond)
	c.mu.Lock()
	c.err = stopped
	c.wakeLocked()
	c.mu.Unlock()
	assert.ErrorIs(t, <-waiting, stopped)
	assert.Empty(t, c.waiters, "a stopped cache keeps no waiter")
	assert.ErrorIs(t, c.waitFor(context.Background(), 40), stopped)
}
