package store_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// Raft, section 5.2 of the paper: with 3 members, losing one leaves a quorum that elects a new
// leader; losing two leaves no quorum, and a write fails after etcd's request timeout in etcd's
// words; one member back, and writes succeed again.
func TestClusterQuorumLostAndRegained(t *testing.T) {
	t.Parallel() // it mostly waits out etcd's request timeout, beside the others that wait
	ctx := context.Background()
	s := openStore(t, store.Config{Members: 3})
	c := s.Cluster()
	_, err := s.Create(ctx, "/a", []byte("1"))
	require.NoError(t, err)
	require.Equal(t, "etcd-0", c.Status()[0].Leader, "the lowest-numbered member campaigns first")
	require.Equal(t, uint64(2), c.Status()[0].Term, "the bootstrap is term 1, the first election term 2")

	require.NoError(t, c.Stop("etcd-0"))
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	l, err := c.WaitForLeader(wctx)
	require.NoError(t, err)
	require.Equal(t, "etcd-1", l.Name, "the designated member, the lowest-numbered that runs, wins")
	require.Equal(t, uint64(3), l.Term, "one election, no split vote")

	require.NoError(t, c.Stop("etcd-1"))
	require.NoError(t, c.WaitLeaderless(wctx))
	// A member that knows no leader holds a proposal until etcd's request timeout (6.2s here) and
	// etcd's client tries again, until the caller's deadline; a member that still believes in a
	// leader answers "etcdserver: request timed out" at the request timeout. The deadline is 2s,
	// more than three election timeouts: no write commits without a quorum however long it waits,
	// and waiting out the request timeout (8s, as this test once did) only ever ended at the
	// deadline too, since etcd-2 knows it has no leader (WaitLeaderless). etcd's words for its
	// request timeout are apiserver's TestEtcdRequestTimeoutIsPassedThrough.
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
	_, err = s.Create(cctx, "/c", []byte("1"))
	ccancel()
	_, timedOut := store.Timeout(err)
	require.Truef(t, timedOut || errors.Is(err, context.DeadlineExceeded), "got %v", err)

	wctx, cancel = context.WithTimeout(ctx, waitLimit)
	defer cancel()
	require.NoError(t, c.Start(wctx, "etcd-1"))
	l, err = c.WaitForLeader(wctx)
	require.NoError(t, err)
	require.Equal(t, "etcd-1", l.Name)
	// etcd-2, alone, campaigned in vain: with pre-vote, a campaign no quorum answers costs no term.
	require.Equal(t, uint64(4), l.Term, "one election when etcd-1 is back")
	require.NoError(t, c.WaitCaughtUp(wctx, "etcd-1"))
	require.Eventually(t, func() bool {
		_, err := s.Create(ctx, "/d", []byte("1"))
		return err == nil
	}, waitLimit, 50*time.Millisecond)
}

// etcdctl snapshot save, then etcdutl snapshot restore into a new data directory: a new cluster
// whose keys are the snapshot's.
func TestSnapshotSaveAndRestore(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{Members: 3})
	file, _ := snapshotWithShop(t, s)
	_, _, err := s.Delete(ctx, "/registry/namespaces/shop", 0)
	require.NoError(t, err)

	r := restored(t, file)
	kv, err := r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
	require.Equal(t, "{}", string(kv.Value))
}

// The default member (in-process) saves a snapshot too, and a restore into its data directory
// reopens with the same keys.
func TestSnapshotOfTheDefaultMember(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{})
	file, rev := snapshotWithShop(t, s)
	require.Positive(t, rev)
	r := restored(t, file)
	_, err := r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
}

// Open with Restore starts from a snapshot with etcdutl's --bump-revision and --mark-compacted, as
// etcd's guide restores under Kubernetes: the revision is past every one a client saw, and a watch
// from one of those is told it was compacted (so an informer relists instead of resuming).
func TestRestoreBumpsAndCompactsTheRevision(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{})
	file, _ := snapshotWithShop(t, s)
	for i := range 5 {
		_, err := s.Create(ctx, "/registry/events/default/e"+strconv.Itoa(i), []byte("{}"))
		require.NoError(t, err)
	}
	seen, err := s.CurrentRevision(ctx)
	require.NoError(t, err)

	snapRev, err := store.SnapshotRevision(file)
	require.NoError(t, err)
	r := openStore(t, store.Config{Restore: file, RevisionBump: seen - snapRev + 1})
	rev, err := r.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Equal(t, seen+1, rev, "the restored revision is past every one a client saw")
	_, err = r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
	w := r.Watch(ctx, "/registry/", seen)
	for range w.Events() {
	}
	require.True(t, store.IsCompacted(w.Err()), "a watch from a revision a client saw: %v", w.Err())
}

// A partition cuts the leader off: the others elect a new leader among themselves; when the links
// mend, the old leader follows the new one and catches up. A slow member is only late.
func TestClusterPartitionAndSlowMember(t *testing.T) {
	t.Parallel() // it mostly waits for elections and a catch-up, beside the others that wait
	// Each wait has a deadline of its own: on a loaded machine the elections and catch-ups together
	// can take longer than one waitLimit.
	within := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		t.Cleanup(cancel)
		return ctx
	}
	s := openStore(t, store.Config{Members: 3})
	c := s.Cluster()

	require.NoError(t, c.Partition("etcd-0", true))
	l, err := c.WaitForLeader(within())
	require.NoError(t, err)
	require.Equal(t, "etcd-1", l.Name)
	require.Eventually(t, func() bool {
		_, err := s.Create(within(), "/after-partition", []byte("1"))
		return err == nil
	}, waitLimit, 50*time.Millisecond, "the majority side takes writes")

	require.NoError(t, c.Partition("etcd-0", false))
	require.NoError(t, c.WaitCaughtUp(within(), "etcd-0"))
	require.Equal(t, "etcd-0", c.Status()[1].Leader, "the leadership is handed back to etcd-0")

	require.NoError(t, c.Slow("etcd-2", 50*time.Millisecond))
	_, err = s.Create(within(), "/while-slow", []byte("1"))
	require.NoError(t, err, "a slow follower does not stop the quorum of the two others")
	require.NoError(t, c.Slow("etcd-2", 0))
}
