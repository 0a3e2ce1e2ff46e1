package store_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// Raft, section 5.2 of the paper: with 3 members, losing one leaves a quorum that elects a new
// leader; losing two leaves no quorum, and a write fails after etcd's request timeout in etcd's
// words; one member back, and writes succeed again.
func TestClusterQuorumLostAndRegained(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{Members: 3, Logger: os.Stderr})
	c := s.Cluster()
	_, err := s.Create(ctx, "/a", []byte("1"))
	require.NoError(t, err)
	require.Equal(t, "etcd-0", c.Status()[0].Leader, "etcd-0 has the shortest election timeout")

	require.NoError(t, c.Stop("etcd-0"))
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	l, err := c.WaitForLeader(wctx)
	require.NoError(t, err)
	require.Equal(t, "etcd-1", l.Name, "the next-shortest election timeout wins")

	require.NoError(t, c.Stop("etcd-1"))
	require.NoError(t, c.WaitLeaderless(wctx))
	// etcd's request timeout is 5.2s here; the deadline only bounds a write that etcd's client
	// leaves waiting (seen intermittently, not yet understood).
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	_, err = s.Create(cctx, "/c", []byte("1"))
	ccancel()
	_, timedOut := store.Timeout(err)
	require.Truef(t, timedOut || errors.Is(err, context.DeadlineExceeded), "got %v", err)

	require.NoError(t, c.Start(wctx, "etcd-1"))
	_, err = c.WaitForLeader(wctx)
	require.NoError(t, err)
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
	_, err := s.Create(ctx, "/registry/namespaces/shop", []byte("{}"))
	require.NoError(t, err)
	file := t.TempDir() + "/snap.db"
	_, err = s.SaveSnapshot(ctx, file)
	require.NoError(t, err)
	_, _, err = s.Delete(ctx, "/registry/namespaces/shop", 0)
	require.NoError(t, err)

	dir := t.TempDir() + "/restored"
	require.NoError(t, store.RestoreSnapshot(file, dir, nil))
	r := openStore(t, store.Config{DataDir: dir})
	kv, err := r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
	require.Equal(t, "{}", string(kv.Value))
}

// The default member (in-process) saves a snapshot too, and a restore into its data directory
// reopens with the same keys.
func TestSnapshotOfTheDefaultMember(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{})
	_, err := s.Create(ctx, "/registry/namespaces/shop", []byte("{}"))
	require.NoError(t, err)
	file := t.TempDir() + "/snap.db"
	rev, err := s.SaveSnapshot(ctx, file)
	require.NoError(t, err)
	require.Positive(t, rev)
	dir := t.TempDir() + "/restored"
	require.NoError(t, store.RestoreSnapshot(file, dir, nil))
	r := openStore(t, store.Config{DataDir: dir})
	_, err = r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
}
