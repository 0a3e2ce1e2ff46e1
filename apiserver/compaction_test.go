package apiserver

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/store"
)

// The apiserver compacts etcd every 5 minutes of the cluster's clock, up to the revision it read 5
// minutes before: what was overwritten before that revision is gone, later history still reads.
func TestCompactionKeepsOneIntervalOfHistory(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	first := rvOf(t, ts.create(t, nginxPod("a")))
	require.NoError(t, ts.WaitForRevision(ctx, first))

	ts.clock.Advance(defaultCompactionInterval) // the first tick notes the revision, compacts nothing
	_, _, err := ts.store.List(ctx, "/registry/pods/", first-1)
	require.NoError(t, err, "nothing is compacted before a whole interval has passed since a revision was noted")

	second := rvOf(t, ts.create(t, nginxPod("b")))
	require.NoError(t, ts.WaitForRevision(ctx, second))
	ts.clock.Advance(defaultCompactionInterval - time.Second)
	_, _, err = ts.store.List(ctx, "/registry/pods/", first-1)
	require.NoError(t, err, "the second tick has not come yet")

	ts.clock.Advance(time.Second) // the second tick compacts up to what the first one noted
	_, _, err = ts.store.List(ctx, "/registry/pods/", first-1)
	require.True(t, store.IsCompacted(err), "a revision from before the first tick is compacted: %v", err)
	_, _, err = ts.store.List(ctx, "/registry/pods/", first)
	require.NoError(t, err, "the revision the first tick noted is the oldest one kept")
	_, _, err = ts.store.List(ctx, "/registry/pods/", second)
	require.NoError(t, err, "a revision written after the first tick is kept until the third")
}
