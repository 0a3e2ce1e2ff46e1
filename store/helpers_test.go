// Helpers shared by the store's tests: a fresh embedded store per test, a
// compacted history, a snapshot and its restore, and a bounded wait on a watch.

package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// waitLimit only turns a hang into a failure; no test waits it out when it
// passes.
const waitLimit = 10 * time.Second

// openStore starts a fresh embedded store that is closed when the test ends.
func openStore(t testing.TB, cfg store.Config) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// writeTwiceAndCompact creates key ("1", at revision first), updates it ("2", at last) and compacts
// the history up to last: first is a revision that is gone, last the oldest one kept.
func writeTwiceAndCompact(t *testing.T, s *store.Store, key string) (first, last int64) {
	t.Helper()
	ctx := context.Background()
	first, err := s.Create(ctx, key, []byte("1"))
	require.NoError(t, err)
	last, err = s.Update(ctx, key, []byte("2"), first)
	require.NoError(t, err)
	require.NoError(t, s.Compact(ctx, last))
	return first, last
}

// snapshotWithShop writes the namespace shop into s and saves a snapshot (etcdctl snapshot save) into
// a file of the test's; it returns the file and the snapshot's revision.
func snapshotWithShop(t *testing.T, s *store.Store) (file string, rev int64) {
	t.Helper()
	ctx := context.Background()
	_, err := s.Create(ctx, "/registry/namespaces/shop", []byte("{}"))
	require.NoError(t, err)
	file = t.TempDir() + "/snap.db"
	rev, err = s.SaveSnapshot(ctx, file)
	require.NoError(t, err)
	return file, rev
}

// restored restores a snapshot file into a new data directory (etcdutl snapshot restore) and opens
// a store there, closed when the test ends.
func restored(t *testing.T, file string) *store.Store {
	t.Helper()
	dir := t.TempDir() + "/restored"
	require.NoError(t, store.RestoreSnapshot(file, dir, 0, nil))
	return openStore(t, store.Config{DataDir: dir})
}

// nextEvents reads events from w until it has n of them, flattening batches.
func nextEvents(t *testing.T, w *store.Watch, n int) []store.Event {
	t.Helper()
	var got []store.Event
	timeout := time.After(waitLimit)
	for len(got) < n {
		select {
		case batch, ok := <-w.Events():
			require.Truef(t, ok, "watch ended after %d of %d events: %v", len(got), n, w.Err())
			got = append(got, batch...)
		case <-timeout:
			t.Fatalf("got %d of %d events before timeout", len(got), n)
		}
	}
	require.Len(t, got, n, "more events than expected arrived in the last batch")
	return got
}

// waitClosed waits for w's channel to close, failing on any event.
func waitClosed(t *testing.T, w *store.Watch) {
	t.Helper()
	select {
	case batch, ok := <-w.Events():
		require.False(t, ok, "unexpected events: %+v", batch)
	case <-time.After(waitLimit):
		t.Fatal("watch did not end")
	}
}
