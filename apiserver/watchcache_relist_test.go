package apiserver

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/store"
	"kubesim/wire"
)

// When etcd has compacted the history the watch cache needs to resume its own watch (the watch was
// down while a compaction passed it), the cache lists everything again instead of stopping: it then
// holds etcd's state with the changes its watch never saw, the watches open at the relist end
// without an error, a watch resuming from before the relist gets 410 Gone, and the changes after
// it reach new watches.
func TestWatchCacheListsAgainWhenEtcdCompactedPastIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	require.NoError(t, err)
	defer st.Close()
	key := func(name string) string { return "/registry/pods/default/" + name }
	put := func(name, image string) int64 {
		pod := nginxPod(name)
		pod.Spec.Containers[0].Image = image
		value, err := json.Marshal(pod)
		require.NoError(t, err)
		if kv, err := st.Get(ctx, key(name)); err == nil {
			rev, err := st.Update(ctx, key(name), value, kv.ModRevision)
			require.NoError(t, err)
			return rev
		}
		rev, err := st.Create(ctx, key(name), value)
		require.NoError(t, err)
		return rev
	}
	put("a", "nginx:1.24")
	put("gone", "nginx:1.24")

	c := newWatchCache(defaultWindow)
	kvs, before, err := st.List(ctx, "/registry/", 0)
	require.NoError(t, err)
	require.NoError(t, c.replace(kvs, before))
	res, _ := api.ResourceFor("pods")
	open, err := c.watch(res, everythingSelection(), &before, false)
	require.NoError(t, err)

	// What the cache's watch misses: a pod added, one deleted, one changed; then a compaction.
	put("b", "nginx:1.24")
	gone, err := st.Get(ctx, key("gone"))
	require.NoError(t, err)
	_, _, err = st.Delete(ctx, key("gone"), gone.ModRevision)
	require.NoError(t, err)
	changed := put("a", "nginx:1.25")
	require.NoError(t, st.Compact(ctx, changed))

	// The cache's etcd watch resumes where it left off, which etcd no longer has.
	go c.follow(ctx, st, st.Watch(ctx, "/registry/", before+1, store.WithoutPrevious()))
	waitCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	require.NoError(t, c.waitFor(waitCtx, changed), "the cache reads etcd again up to the compacted revision")

	objs, rev := c.list(res, everythingSelection())
	assert.GreaterOrEqual(t, rev, changed)
	var names []string
	for _, o := range objs {
		names = append(names, o.GetObjectMeta().Name)
	}
	assert.Equal(t, []string{"a", "b"}, names, "the pod added is there, the pod deleted is not")
	a := c.get(res, "default/a").(*api.Pod)
	assert.Equal(t, "nginx:1.25", a.Spec.Containers[0].Image)
	assert.Equal(t, strconv.FormatInt(changed, 10), a.ResourceVersion)

	_, ok := open.Next(waitCtx)
	assert.False(t, ok, "the watch open at the relist has ended")
	assert.NoError(t, open.Err(), "without an error: the stream simply ends, as kube-apiserver's cacher ends it")

	_, err = c.watch(res, everythingSelection(), &before, false)
	assert.True(t, apierrors.IsResourceExpired(err), "resuming from before the relist is 410 Gone: %v", err)

	resumed, err := c.watch(res, everythingSelection(), &rev, false)
	require.NoError(t, err)
	defer resumed.Stop()
	added := put("c", "nginx:1.25")
	ev, ok := resumed.Next(waitCtx)
	require.True(t, ok, "a change after the relist reaches a watch from the relist's revision")
	assert.Equal(t, wire.Added, ev.Type)
	assert.Equal(t, "c", ev.Object.GetObjectMeta().Name)
	assert.Equal(t, added, ev.ResourceVersion)
}
