// Tests of keys with a TTL: etcd deletes them when their lease expires, keys written together share
// one lease, and an update keeps a key expiring.

package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/store"
)

func TestKeysWithATTLExpireTogetherAndAPlainKeyStays(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	w := s.Watch(ctx, "/registry/", 0)
	defer w.Stop()

	// etcd's shortest lease here is about a second; the store adds its reuse window (5%).
	rev1, err := s.CreateWithTTL(ctx, "/registry/events/default/a", []byte("a"), time.Second)
	require.NoError(t, err)
	_, err = s.CreateWithTTL(ctx, "/registry/events/default/b", []byte("b"), time.Second)
	require.NoError(t, err)
	_, err = s.UpdateWithTTL(ctx, "/registry/events/default/a", []byte("a2"), rev1, time.Second)
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/pods/default/p", []byte("p"))
	require.NoError(t, err)

	got := summarize(nextEvents(t, w, 6))
	puts, deletes := got[:4], got[4:]
	for _, e := range puts {
		assert.Equal(t, store.Put, e.Type)
	}
	// Both events share the first write's lease, so they go in one revision; the pod stays.
	assert.Equal(t, store.Delete, deletes[0].Type)
	assert.Equal(t, store.Delete, deletes[1].Type)
	assert.Equal(t, deletes[0].Revision, deletes[1].Revision, "keys written together share one lease")
	assert.ElementsMatch(t, []string{"/registry/events/default/a", "/registry/events/default/b"}, []string{deletes[0].Key, deletes[1].Key})
	_, err = s.Get(ctx, "/registry/pods/default/p")
	assert.NoError(t, err)
}
