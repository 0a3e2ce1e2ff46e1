package apiserver

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/store"
)

// The window: a watch may resume from any of the last window changes of a resource (and from a
// few more, until the next trim), and the cache never holds more than a quarter more than the
// window, so the old objects it keeps for resuming watchers are bounded by the window, not by twice
// it.
func TestWatchWindowKeepsAtLeastTheWindowAndAtMostAQuarterMore(t *testing.T) {
	const window = 40
	c := newWatchCache(window)
	res, _ := api.ResourceFor("pods")
	rc := c.resources[res.Name]
	value, err := json.Marshal(nginxPod("p"))
	require.NoError(t, err)
	largest := 0
	for rev := int64(1); rev <= 500; rev++ {
		c.mu.Lock()
		c.applyLocked(store.Event{Type: store.Put, Revision: rev,
			KV: store.KV{Key: "/registry/pods/default/p", Value: value, ModRevision: rev}})
		largest = max(largest, len(rc.events))
		c.mu.Unlock()

		from := max(rev-window, 0) // the oldest resourceVersion the window promises
		w, err := c.watch(res, everythingSelection(), &from, false)
		require.NoError(t, err, "resuming from %d at revision %d", from, rev)
		assert.Equal(t, int(rev-from), w.Pending(), "every change after %d", from)
		w.Stop()
	}
	assert.Equal(t, window+window/4-1, largest, "the window grows by a quarter, less one, then is trimmed")

	old := rc.floor - 1
	_, err = c.watch(res, everythingSelection(), &old, false)
	assert.True(t, apierrors.IsResourceExpired(err), "a resourceVersion past the slack is 410 Gone: %v", err)
	assert.Contains(t, err.Error(), "too old resource version: "+strconv.FormatInt(old, 10))
}

// A list reads the cache's keys in order, memoised between additions and removals: every list
// after a change sees it, and a namespace's list holds that namespace alone, not its neighbours in
// the order ("default-x" sorts before "default/", "defaults" after it).
func TestListsSeeEveryAdditionAndRemovalInOrder(t *testing.T) {
	c := newWatchCache(100)
	res, _ := api.ResourceFor("pods")
	apply := podApplier(t, c)
	names := func(sel selection) []string {
		objs, _ := c.list(res, sel)
		var out []string
		for _, o := range objs {
			m := o.GetObjectMeta()
			out = append(out, m.Namespace+"/"+m.Name)
		}
		return out
	}
	in := func(ns string) selection {
		sel := everythingSelection()
		sel.namespace = ns
		return sel
	}
	apply(store.Put, "default", "b")
	apply(store.Put, "defaults", "a")
	apply(store.Put, "default-x", "a")
	assert.Equal(t, []string{"default-x/a", "default/b", "defaults/a"}, names(everythingSelection()))
	assert.Equal(t, []string{"default/b"}, names(in("default")))

	apply(store.Put, "default", "a")
	apply(store.Put, "default", "b") // an update: the keys stay
	assert.Equal(t, []string{"default/a", "default/b"}, names(in("default")), "an addition after a list")
	apply(store.Delete, "default", "a")
	assert.Equal(t, []string{"default/b"}, names(in("default")), "a removal after a list")
	apply(store.Delete, "default", "b")
	assert.Empty(t, names(in("default")))
	assert.Empty(t, names(in("nowhere")))
	assert.Equal(t, []string{"default-x/a", "defaults/a"}, names(everythingSelection()))
}

// A snapshot (what RBAC reads its bindings from on every request) holds the very objects a list
// returns, after every addition, update and removal, and a namespace's part of it that namespace
// alone; between changes every reader shares one.
func TestSnapshotsSeeEveryChange(t *testing.T) {
	c := newWatchCache(100)
	res, _ := api.ResourceFor("pods")
	apply := podApplier(t, c)
	same := func(step string) {
		t.Helper()
		all := everythingSelection()
		want, _ := c.list(res, all)
		assert.Equal(t, want, c.snapshot(res).objs, step)
		all.namespace = "default"
		want, _ = c.list(res, all)
		assert.Equal(t, want, c.snapshot(res).namespace("default"), step)
	}
	same("empty")
	apply(store.Put, "default", "b")
	apply(store.Put, "defaults", "a")
	apply(store.Put, "default-x", "a")
	same("three namespaces")
	assert.Same(t, c.snapshot(res), c.snapshot(res), "no change between: one snapshot")
	before := c.snapshot(res).objs[1]
	apply(store.Put, "default", "b")
	same("an update")
	assert.NotSame(t, before, c.snapshot(res).objs[1], "an update replaces the object")
	apply(store.Delete, "default", "b")
	same("a removal")
	assert.Empty(t, c.snapshot(res).namespace("default"))
}

// podApplier returns what feeds c, as etcd's watch would, one change of an nginx pod at a time,
// at revisions 1, 2, 3...
func podApplier(t *testing.T, c *watchCache) func(typ store.EventType, ns, name string) {
	rev := int64(0)
	return func(typ store.EventType, ns, name string) {
		rev++
		pod := nginxPod(name)
		pod.Namespace = ns
		value, err := json.Marshal(pod)
		require.NoError(t, err)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.applyLocked(store.Event{Type: typ, Revision: rev,
			KV: store.KV{Key: "/registry/pods/" + ns + "/" + name, Value: value, ModRevision: rev}})
	}
}
