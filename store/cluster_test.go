package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

func TestProbe(t *testing.T) {
	s := openStore(t, store.Config{Members: 3})
	c := s.Cluster()
	ctx := context.Background()
	_, err := s.Create(ctx, "/a", []byte("1"))
	require.NoError(t, err)
	t.Log(c.Status())
	require.NoError(t, c.Stop("etcd-0"))
	l, err := c.WaitForLeader(ctx)
	t.Log(l, err, c.Status())
	_, err = s.Create(ctx, "/b", []byte("1"))
	require.NoError(t, err)
	require.NoError(t, c.Stop("etcd-1"))
	start := time.Now()
	_, err = s.Create(ctx, "/c", []byte("1"))
	t.Log("create", time.Since(start), err)
	start = time.Now()
	gctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err = s.Get(gctx, "/a")
	t.Log("get", time.Since(start), err, c.Status())
	require.NoError(t, c.Start(ctx, "etcd-1"))
	l, err = c.WaitForLeader(ctx)
	t.Log(l, err, c.Status())
	start = time.Now()
	_, err = s.Create(ctx, "/d", []byte("1"))
	t.Log("create", time.Since(start), err)
}

func TestSnapshotRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, store.Config{Members: 3})
	_, err := s.Create(ctx, "/registry/namespaces/shop", []byte("{}"))
	require.NoError(t, err)
	file := t.TempDir() + "/snap.db"
	_, err = s.SaveSnapshot(ctx, file)
	require.NoError(t, err)
	dir := t.TempDir() + "/restored"
	require.NoError(t, store.RestoreSnapshot(file, dir, nil))
	r := openStore(t, store.Config{DataDir: dir})
	kv, err := r.Get(ctx, "/registry/namespaces/shop")
	require.NoError(t, err)
	t.Log(kv)
}
