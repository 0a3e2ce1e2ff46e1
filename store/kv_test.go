// Tests of single-key and prefix requests: the contract the apiserver's
// create, get, list, update and delete rely on.

package store_test

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/store"
)

func TestCreateTwiceFailsWithKeyExists(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()

	rev, err := s.Create(ctx, "/registry/pods/default/web", []byte(`{"v":1}`))
	require.NoError(t, err)

	_, err = s.Create(ctx, "/registry/pods/default/web", []byte(`{"v":2}`))
	require.ErrorIs(t, err, store.ErrKeyExists)
	assert.True(t, store.IsKeyExists(err))

	kv, err := s.Get(ctx, "/registry/pods/default/web")
	require.NoError(t, err)
	assert.Equal(t, `{"v":1}`, string(kv.Value), "the failed create must not overwrite")
	assert.Equal(t, rev, kv.CreateRevision)
	assert.Equal(t, rev, kv.ModRevision)
}

func TestGetMissingKeyIsNotFound(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})

	_, err := s.Get(context.Background(), "/registry/pods/default/missing")
	assert.True(t, store.IsNotFound(err), "got %v", err)
}

func TestUpdateWithStaleRevisionConflictsWithCurrentValue(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	key := "/registry/configmaps/default/settings"

	stale, err := s.Create(ctx, key, []byte(`{"color":"red"}`))
	require.NoError(t, err)
	fresh, err := s.Update(ctx, key, []byte(`{"color":"blue"}`), stale)
	require.NoError(t, err)

	_, err = s.Update(ctx, key, []byte(`{"color":"green"}`), stale)
	require.True(t, store.IsConflict(err), "got %v", err)
	var conflict *store.ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, stale, conflict.Expected)
	assert.Equal(t, store.KV{Key: key, Value: []byte(`{"color":"blue"}`), CreateRevision: stale, ModRevision: fresh},
		conflict.Current)
}

func TestUnconditionalUpdateNeedsAnExistingKey(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	key := "/registry/nodes/node-1"

	_, err := s.Update(ctx, key, []byte(`{}`), 0)
	assert.True(t, store.IsNotFound(err), "got %v", err)

	_, err = s.Create(ctx, key, []byte(`{"ready":false}`))
	require.NoError(t, err)
	rev, err := s.Update(ctx, key, []byte(`{"ready":true}`), 0)
	require.NoError(t, err)

	kv, err := s.Get(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, `{"ready":true}`, string(kv.Value))
	assert.Equal(t, rev, kv.ModRevision)
}

func TestDeleteIsConditionalOnModRevision(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	key := "/registry/secrets/default/token"

	created, err := s.Create(ctx, key, []byte(`{"v":1}`))
	require.NoError(t, err)
	updated, err := s.Update(ctx, key, []byte(`{"v":2}`), created)
	require.NoError(t, err)

	_, _, err = s.Delete(ctx, key, created)
	var conflict *store.ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, updated, conflict.Current.ModRevision)

	prev, rev, err := s.Delete(ctx, key, updated)
	require.NoError(t, err)
	assert.Equal(t, store.KV{Key: key, Value: []byte(`{"v":2}`), CreateRevision: created, ModRevision: updated}, prev)
	assert.Greater(t, rev, updated)

	_, _, err = s.Delete(ctx, key, 0)
	assert.True(t, store.IsNotFound(err), "deleting twice: got %v", err)
	_, err = s.Update(ctx, key, []byte(`{"v":3}`), updated)
	assert.True(t, store.IsNotFound(err), "updating a deleted key: got %v", err)
}

func TestRevisionsStrictlyIncrease(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()

	last, err := s.CurrentRevision(ctx)
	require.NoError(t, err)
	write := func(rev int64, err error) {
		t.Helper()
		require.NoError(t, err)
		require.Greater(t, rev, last)
		last = rev
		current, err := s.CurrentRevision(ctx)
		require.NoError(t, err)
		require.Equal(t, rev, current, "the latest write is the current revision")
	}

	write(s.Create(ctx, "/a", []byte("1")))
	write(s.Create(ctx, "/b", []byte("1")))
	write(s.Update(ctx, "/a", []byte("2"), 0))
	_, rev, err := s.Delete(ctx, "/b", 0)
	write(rev, err)
	write(s.Create(ctx, "/b", []byte("again")))
}

func TestListAtOlderRevisionReturnsOldState(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()

	_, err := s.Create(ctx, "/registry/pods/default/a", []byte("a1"))
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/pods/default/b", []byte("b1"))
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/services/default/a", []byte("not a pod"))
	require.NoError(t, err)
	old, oldRev, err := s.List(ctx, "/registry/pods/", 0)
	require.NoError(t, err)

	_, err = s.Update(ctx, "/registry/pods/default/a", []byte("a2"), 0)
	require.NoError(t, err)
	_, _, err = s.Delete(ctx, "/registry/pods/default/b", 0)
	require.NoError(t, err)
	_, err = s.Create(ctx, "/registry/pods/default/c", []byte("c1"))
	require.NoError(t, err)

	values := func(kvs []store.KV) map[string]string {
		m := map[string]string{}
		for _, kv := range kvs {
			m[kv.Key] = string(kv.Value)
		}
		return m
	}
	want := map[string]string{"/registry/pods/default/a": "a1", "/registry/pods/default/b": "b1"}
	assert.Equal(t, want, values(old))

	again, rev, err := s.List(ctx, "/registry/pods/", oldRev)
	require.NoError(t, err)
	assert.Equal(t, oldRev, rev)
	assert.Equal(t, old, again, "a list at a past revision is that revision's state")

	now, nowRev, err := s.List(ctx, "/registry/pods/", 0)
	require.NoError(t, err)
	assert.Greater(t, nowRev, oldRev)
	assert.Equal(t, map[string]string{"/registry/pods/default/a": "a2", "/registry/pods/default/c": "c1"}, values(now))
	assert.Equal(t, "/registry/pods/default/a", now[0].Key, "lists are sorted by key")
}

func TestListOutsideKeptHistoryFails(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	first, last := writeTwiceAndCompact(t, s, "/k")

	_, _, err := s.List(ctx, "/", first)
	assert.True(t, store.IsCompacted(err), "got %v", err)
	_, _, err = s.List(ctx, "/", last+10)
	assert.ErrorIs(t, err, store.ErrFutureRevision)

	kvs, _, err := s.List(ctx, "/", last)
	require.NoError(t, err)
	require.Len(t, kvs, 1)
	assert.Equal(t, "2", string(kvs[0].Value), "the compacted revision itself is kept")
}

// This is the loop every Kubernetes writer runs (GuaranteedUpdate in the
// apiserver, retry.RetryOnConflict in clients): read, modify, write if
// nothing changed meanwhile, else start again from the current value.
func TestConcurrentCompareAndSwapIncrementsLoseNoUpdate(t *testing.T) {
	t.Parallel()
	s := openStore(t, store.Config{})
	ctx := context.Background()
	const key, writers = "/registry/counters/default/hits", 16

	_, err := s.Create(ctx, key, []byte("0"))
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			kv, err := s.Get(ctx, key)
			for err == nil {
				n, convErr := strconv.Atoi(string(kv.Value))
				if convErr != nil {
					err = convErr
					break
				}
				_, err = s.Update(ctx, key, []byte(strconv.Itoa(n+1)), kv.ModRevision)
				if conflict, ok := err.(*store.ConflictError); ok {
					kv, err = conflict.Current, nil // retry from the value that won
					continue
				}
				break
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	kv, err := s.Get(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(writers), string(kv.Value))
}
