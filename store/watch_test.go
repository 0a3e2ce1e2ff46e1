// Tests of watches: complete, ordered, exactly-once delivery from a
// revision, and compaction surfacing as a typed error.

package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// summary is an event without the parts a test does not pin down.
type summary struct {
	Type     store.EventType
	Key      string
	Value    string
	Prev     string // PrevKV's value; "" when PrevKV is nil
	Revision int64
}

// forEachWatchPath runs test on both ways a watch reaches etcd: the embedded member's own watch
// stream (the default member) and etcd's client, over the member's socket (a cluster of one).
func forEachWatchPath(t *testing.T, test func(*testing.T, store.Config)) {
	t.Parallel()
	t.Run("member", func(t *testing.T) { test(t, store.Config{}) })
	t.Run("client", func(t *testing.T) { test(t, store.Config{Members: 1}) })
}

func summarize(events []store.Event) []summary {
	out := make([]summary, len(events))
	for i, e := range events {
		out[i] = summary{Type: e.Type, Key: e.KV.Key, Value: string(e.KV.Value), Revision: e.Revision}
		if e.PrevKV != nil {
			out[i].Prev = string(e.PrevKV.Value)
		}
		if e.Revision != e.KV.ModRevision {
			panic("event revision differs from its KV's ModRevision")
		}
	}
	return out
}

func TestWatchFromRevisionSeesEveryLaterEventOnceInOrder(t *testing.T) {
	forEachWatchPath(t, testWatchFromRevisionSeesEveryLaterEventOnceInOrder)
}

func testWatchFromRevisionSeesEveryLaterEventOnceInOrder(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	ctx := context.Background()
	const a, b = "/registry/pods/default/a", "/registry/pods/default/b"

	_, err := s.Create(ctx, a, []byte("before"))
	require.NoError(t, err)
	r1, err := s.Update(ctx, a, []byte("a1"), 0)
	require.NoError(t, err)
	r2, err := s.Create(ctx, b, []byte("b1"))
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/nodes/n1", []byte("other prefix"))
	require.NoError(t, err)

	// The watch starts in the past: r1 and r2 are replayed from history,
	// the rest arrive live.
	w := s.Watch(ctx, "/registry/pods/", r1)
	defer w.Stop()

	r3, err := s.Update(ctx, a, []byte("a2"), r1)
	require.NoError(t, err)
	_, r4, err := s.Delete(ctx, b, 0)
	require.NoError(t, err)
	r5, err := s.Create(ctx, b, []byte("b2"))
	require.NoError(t, err)

	want := []summary{
		{store.Put, a, "a1", "before", r1},
		{store.Put, b, "b1", "", r2},
		{store.Put, a, "a2", "a1", r3},
		{store.Delete, b, "b1", "b1", r4}, // a delete carries the last value
		{store.Put, b, "b2", "", r5},
	}
	assert.Equal(t, want, summarize(nextEvents(t, w, len(want))))

	// Exactly once: the next event is a new write, not a repeat.
	r6, err := s.Update(ctx, b, []byte("b3"), r5)
	require.NoError(t, err)
	assert.Equal(t, []summary{{store.Put, b, "b3", "b2", r6}}, summarize(nextEvents(t, w, 1)))
}

// A watch WithoutPrevious carries no previous values (a delete only its key and revision); GetAt reads
// what a deleted key held at the revision before its delete, until that revision is compacted.
func TestWatchWithoutPreviousAndGetAt(t *testing.T) {
	forEachWatchPath(t, testWatchWithoutPreviousAndGetAt)
}

func testWatchWithoutPreviousAndGetAt(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	ctx := context.Background()
	const a = "/registry/events/default/a"
	w := s.Watch(ctx, "/registry/", 0, store.WithoutPrevious())
	defer w.Stop()
	r1, err := s.Create(ctx, a, []byte("a1"))
	require.NoError(t, err)
	r2, err := s.Update(ctx, a, []byte("a2"), r1)
	require.NoError(t, err)
	_, r3, err := s.Delete(ctx, a, 0)
	require.NoError(t, err)
	want := []summary{
		{store.Put, a, "a1", "", r1},
		{store.Put, a, "a2", "", r2},
		{store.Delete, a, "", "", r3},
	}
	got := nextEvents(t, w, len(want))
	assert.Equal(t, want, summarize(got))
	assert.Equal(t, r1, got[1].KV.CreateRevision, "an update still says when the key was created")

	kv, err := s.GetAt(ctx, a, r3-1)
	require.NoError(t, err)
	assert.Equal(t, "a2", string(kv.Value))
	assert.Equal(t, r2, kv.ModRevision)
	_, err = s.GetAt(ctx, a, r3)
	assert.ErrorIs(t, err, store.ErrNotFound, "deleted at r3")
	require.NoError(t, s.Compact(ctx, r3))
	_, err = s.GetAt(ctx, a, r3-1)
	assert.True(t, store.IsCompacted(err), "%v", err)
}

func TestWatchFromZeroSeesWritesAfterWatchReturns(t *testing.T) {
	forEachWatchPath(t, testWatchFromZeroSeesWritesAfterWatchReturns)
}

func testWatchFromZeroSeesWritesAfterWatchReturns(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	ctx := context.Background()

	_, err := s.Create(ctx, "/old", []byte("already there"))
	require.NoError(t, err)
	w := s.Watch(ctx, "/", 0)
	defer w.Stop()
	rev, err := s.Create(ctx, "/new", []byte("v"))
	require.NoError(t, err)

	assert.Equal(t, []summary{{store.Put, "/new", "v", "", rev}}, summarize(nextEvents(t, w, 1)))
}

func TestWatchFromCompactedRevisionFailsWithCompactedError(t *testing.T) {
	forEachWatchPath(t, testWatchFromCompactedRevisionFailsWithCompactedError)
}

func testWatchFromCompactedRevisionFailsWithCompactedError(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	ctx := context.Background()
	first, last := writeTwiceAndCompact(t, s, "/registry/pods/default/a")

	w := s.Watch(ctx, "/registry/pods/", first)
	waitClosed(t, w)

	err := w.Err()
	var compacted *store.CompactedError
	require.ErrorAs(t, err, &compacted)
	assert.Equal(t, &store.CompactedError{Requested: first, Compacted: last}, compacted)
	assert.True(t, store.IsCompacted(err))
}

func TestStoppedWatchClosesWithoutError(t *testing.T) {
	forEachWatchPath(t, testStoppedWatchClosesWithoutError)
}

func testStoppedWatchClosesWithoutError(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	ctx := context.Background()

	w := s.Watch(ctx, "/", 0)
	assert.NoError(t, w.Err(), "a running watch has no error")
	w.Stop()
	waitClosed(t, w)
	assert.NoError(t, w.Err())

	cancelled, cancel := context.WithCancel(ctx)
	w = s.Watch(cancelled, "/", 1)
	cancel()
	waitClosed(t, w)
	assert.NoError(t, w.Err())
}

func TestWatchEndsWithAnErrorWhenTheStoreCloses(t *testing.T) {
	forEachWatchPath(t, testWatchEndsWithAnErrorWhenTheStoreCloses)
}

func testWatchEndsWithAnErrorWhenTheStoreCloses(t *testing.T, cfg store.Config) {
	t.Parallel()
	s := openStore(t, cfg)
	w := s.Watch(context.Background(), "/", 0)
	require.NoError(t, s.Close())
	waitClosed(t, w)
	assert.Error(t, w.Err(), "the watch did not end by its own Stop or context: its reader must learn why it ended")
}
