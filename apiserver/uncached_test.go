package apiserver

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubesim/api"
	"kubesim/store"
	"kubesim/wire"
)

func podEvent(name, pod, reason string) *api.Event {
	return &api.Event{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: pod},
		Reason:         reason, Message: reason + " " + pod, Type: api.EventTypeNormal, Count: 1,
		Source: api.EventSource{Component: "kubelet"}}
}

// Events are served as kube-apiserver serves them without a watch cache: lists from etcd, watches
// from the cache's window, and no current state kept in memory.
func TestEventsAreListedFromEtcdAndWatchedWithoutACachedState(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	a := ts.create(t, podEvent("a.1", "a", "Scheduled")).(*api.Event)
	ts.create(t, podEvent("b.1", "b", "Scheduled"))
	require.NoError(t, ts.WaitForRevision(ctx, mustRev(t, ts)))
	assert.Empty(t, ts.cache.resources["events"].objects, "the cache keeps no events")
	assert.NotEmpty(t, ts.cache.resources["events"].events, "but its window has their changes")

	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbList, Resource: "events", Namespace: "default", FieldSelector: "involvedObject.name=a"})
	require.NoError(t, err)
	require.Len(t, resp.List.Items, 1)
	assert.Equal(t, a.ResourceVersion, resp.List.Items[0].GetObjectMeta().ResourceVersion)
	assert.Equal(t, strconv.FormatInt(mustRev(t, ts), 10), resp.List.ResourceVersion)

	// A watch without a resourceVersion starts with the current state (read from etcd), then follows.
	wresp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbWatch, Resource: "events", Namespace: "default", FieldSelector: "involvedObject.name=a"})
	require.NoError(t, err)
	w := wresp.Watch
	defer w.Stop()
	a.Count = 2
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "events", Namespace: "default", Name: a.Name, Body: a})
	require.NoError(t, err)
	ts.create(t, podEvent("b.2", "b", "Pulled"))
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbDelete, Resource: "events", Namespace: "default", Name: a.Name})
	require.NoError(t, err)
	require.NoError(t, ts.WaitForRevision(ctx, mustRev(t, ts)))
	var got []string
	for _, ev := range pending(w) {
		got = append(got, string(ev.Type)+" "+ev.Object.GetObjectMeta().Name+" count "+strconv.Itoa(int(ev.Object.(*api.Event).Count)))
	}
	assert.Equal(t, []string{"ADDED a.1 count 1", "MODIFIED a.1 count 2", "DELETED a.1 count 2"}, got)
}

// Every write of an event attaches it to an etcd lease of --event-ttl (one hour, plus the lease
// manager's reuse window), so that etcd deletes it an hour after its last write.
func TestEventsExpireThroughAnEtcdLease(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	ev := ts.create(t, podEvent("a.1", "a", "Scheduled")).(*api.Event)
	ttlOf := func() time.Duration {
		t.Helper()
		resp, err := ts.store.Client().Get(ctx, etcdKey(eventsResource(t), "default", "a.1"))
		require.NoError(t, err)
		require.Len(t, resp.Kvs, 1)
		require.NotZero(t, resp.Kvs[0].Lease, "the event has a lease")
		ttl, err := ts.store.Client().TimeToLive(ctx, clientv3.LeaseID(resp.Kvs[0].Lease))
		require.NoError(t, err)
		return time.Duration(ttl.GrantedTTL) * time.Second
	}
	assert.Equal(t, time.Hour+time.Minute, ttlOf())
	ev.Count = 2
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "events", Namespace: "default", Name: ev.Name, Body: ev})
	require.NoError(t, err)
	assert.Equal(t, time.Hour+time.Minute, ttlOf(), "an update keeps the event on a lease")

	// A pod has none.
	ts.create(t, nginxPod("p"))
	resp, err := ts.store.Client().Get(ctx, "/registry/pods/default/p")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1)
	assert.Zero(t, resp.Kvs[0].Lease)
}

func eventsResource(t *testing.T) *api.Resource {
	t.Helper()
	res, ok := api.ResourceFor("events")
	require.True(t, ok)
	return res
}

// The cache's etcd watch carries no previous values: an update of an event stands for its own
// previous state (its selectable fields never change), a create has none, and a delete whose last
// value could not be read any more (compacted) still reaches the watchers, as the name it had.
func TestPreviousOfAnUncachedChange(t *testing.T) {
	ts := newTestServer(t)
	rc := ts.cache.resources["events"]
	obj := podEvent("a.1", "a", "Scheduled")
	created := store.Event{Type: store.Put, KV: store.KV{Key: "/registry/events/default/a.1", CreateRevision: 7, ModRevision: 7}, Revision: 7}
	assert.Nil(t, ts.cache.previous(rc, "default/a.1", created, obj))
	updated := created
	updated.KV.ModRevision, updated.Revision = 9, 9
	assert.Same(t, obj, ts.cache.previous(rc, "default/a.1", updated, obj))
	deleted := store.Event{Type: store.Delete, KV: store.KV{Key: "/registry/events/default/a.1", ModRevision: 12}, Revision: 12}
	gone := ts.cache.previous(rc, "default/a.1", deleted, nil)
	require.NotNil(t, gone)
	assert.Equal(t, "default", gone.GetObjectMeta().Namespace)
	assert.Equal(t, "a.1", gone.GetObjectMeta().Name)
	assert.Equal(t, "12", gone.GetObjectMeta().ResourceVersion)
}
