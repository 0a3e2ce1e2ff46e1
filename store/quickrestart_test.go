package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// The leader stopped and started again 2 ms later, before the others noticed it was gone: the cluster
// has a leader again and takes writes (a hang in WaitForLeader was seen once, before the election
// gating of store/election.go; this holds it).
func TestLeaderStoppedAndRestartedAtOnce(t *testing.T) {
	t.Parallel() // it mostly waits for etcd's elections, beside the others that wait
	ctx := context.Background()
	s := openStore(t, store.Config{Members: 3})
	c := s.Cluster()
	_, err := s.Create(ctx, "/a", []byte("1"))
	require.NoError(t, err)
	require.NoError(t, c.Stop("etcd-0"))
	time.Sleep(2 * time.Millisecond)
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	require.NoError(t, c.Start(wctx, "etcd-0"))
	l, err := c.WaitForLeader(wctx)
	require.NoError(t, err)
	t.Logf("leader %s term %d", l.Name, l.Term)
	_, err = s.Create(wctx, "/b", []byte("1"))
	require.NoError(t, err)
}
