package client_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/trace"
)

// env is a real apiserver on a real embedded etcd and an admin client.
type env struct {
	srv   *apiserver.Server
	store *store.Store
	clock clock.Clock
	trace *trace.Recorder
	admin *client.Client
}

func newEnv(t testing.TB, clk clock.Clock) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, store.Config{Clock: clk})
	require.NoError(t, err)
	tr := trace.NewRecorder(clk, true)
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clk, Trace: tr, Seed: 1})
	require.NoError(t, srv.Start(ctx))
	t.Cleanup(func() {
		cancel()
		st.Close()
	})
	srv.AddCredential(apiserver.Credential{Token: "admin", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
	return &env{srv: srv, store: st, clock: clk, trace: tr, admin: client.New(srv, "admin", "test")}
}

func configMapLike(name string) *api.ServiceAccount {
	return &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Annotations: map[string]string{"count": "0"}}}
}

// TestRetryOnConflictLosesNoIncrement is optimistic concurrency's promise: N writers doing
// read-increment-write with retry on 409 end at exactly N.
func TestRetryOnConflictLosesNoIncrement(t *testing.T) {
	e := newEnv(t, clock.Real{})
	ctx := context.Background()
	sas := client.For[api.ServiceAccount](e.admin)
	_, err := sas.Create(ctx, configMapLike("counter"))
	require.NoError(t, err)

	const writers = 16
	var wg sync.WaitGroup
	conflicts := make(chan int, writers)
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := 0
			err := client.RetryOnConflict(ctx, e.clock, client.Backoff{Steps: 1000, Duration: time.Millisecond, Factor: 1}, func() error {
				sa, err := sas.Get(ctx, "default", "counter")
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(sa.Annotations["count"])
				sa.Annotations["count"] = strconv.Itoa(n + 1)
				_, err = sas.Update(ctx, sa)
				if apierrors.IsConflict(err) {
					seen++
				}
				return err
			})
			assert.NoError(t, err)
			conflicts <- seen
		}()
	}
	wg.Wait()
	close(conflicts)
	total := 0
	for c := range conflicts {
		total += c
	}
	sa, err := sas.Get(ctx, "default", "counter")
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(writers), sa.Annotations["count"])
	t.Logf("%d writers, %d conflicts retried", writers, total)
}

func TestListReturnsCopiesTheCallerMayModify(t *testing.T) {
	e := newEnv(t, clock.Real{})
	ctx := context.Background()
	sas := client.For[api.ServiceAccount](e.admin)
	_, err := sas.Create(ctx, configMapLike("a"))
	require.NoError(t, err)
	items, _, err := sas.List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	for _, sa := range items {
		sa.Annotations = map[string]string{"scribbled": "yes"}
	}
	again, _, err := sas.List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	for _, sa := range again {
		assert.NotContains(t, sa.Annotations, "scribbled", "the apiserver's cache was not touched")
	}
}

func drain(t testing.TB, e *env, inf client.InformerHandle) {
	t.Helper()
	rev, err := e.store.CurrentRevision(context.Background())
	require.NoError(t, err)
	require.NoError(t, e.srv.WaitForRevision(context.Background(), rev))
	for {
		n, err := inf.Pump(context.Background())
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
}

func TestInformerListsWatchesAndCallsHandlersInOrder(t *testing.T) {
	e := newEnv(t, clock.NewVirtual(time.Unix(0, 0)))
	ctx := context.Background()
	sas := client.For[api.ServiceAccount](e.admin)
	_, err := sas.Create(ctx, configMapLike("before"))
	require.NoError(t, err)

	inf := client.NewInformer[api.ServiceAccount](e.admin, client.InformerOptions{Namespace: "default", Clock: e.clock})
	var log []string
	inf.AddHandler(client.Handler[*api.ServiceAccount]{
		OnAdd:    func(sa *api.ServiceAccount) { log = append(log, "add "+sa.Name) },
		OnUpdate: func(_, sa *api.ServiceAccount) { log = append(log, "update "+sa.Name) },
		OnDelete: func(sa *api.ServiceAccount) { log = append(log, "delete "+sa.Name) },
	})
	require.NoError(t, inf.Sync(ctx))
	assert.True(t, inf.HasSynced())

	_, err = sas.Create(ctx, configMapLike("after"))
	require.NoError(t, err)
	sa, err := sas.Get(ctx, "default", "after")
	require.NoError(t, err)
	sa.Labels = map[string]string{"x": "y"}
	_, err = sas.Update(ctx, sa)
	require.NoError(t, err)
	_, _, err = sas.Delete(ctx, "default", "before", client.DeleteOptions{})
	require.NoError(t, err)
	drain(t, e, inf)

	assert.Equal(t, []string{"add before", "add default", "add after", "update after", "delete before"}, log, "the list in key order, then each change in order")
	_, ok := inf.Get("default/before")
	assert.False(t, ok)
	got, ok := inf.Get("default/after")
	require.True(t, ok)
	assert.Equal(t, "y", got.Labels["x"])
	assert.Len(t, inf.ByIndex(client.IndexNamespace, "default"), 2)
}

func TestInformerRelistsAfter410AndConverges(t *testing.T) {
	e := newEnv(t, clock.NewVirtual(time.Unix(0, 0)))
	ctx := context.Background()
	sas := client.For[api.ServiceAccount](e.admin)
	inf := client.NewInformer[api.ServiceAccount](e.admin, client.InformerOptions{Namespace: "default", Clock: e.clock, Trace: e.trace})
	var deleted []string
	inf.AddHandler(client.Handler[*api.ServiceAccount]{OnDelete: func(sa *api.ServiceAccount) { deleted = append(deleted, sa.Name) }})
	_, err := sas.Create(ctx, configMapLike("doomed"))
	require.NoError(t, err)
	require.NoError(t, inf.Sync(ctx))
	drain(t, e, inf)

	// The connection breaks; meanwhile the world changes and etcd compacts the history.
	inf.Disconnect()
	_, _, err = sas.Delete(ctx, "default", "doomed", client.DeleteOptions{})
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		_, err = sas.Create(ctx, configMapLike("new-"+strconv.Itoa(i)))
		require.NoError(t, err)
	}
	rev, err := e.store.CurrentRevision(ctx)
	require.NoError(t, err)
	require.NoError(t, e.srv.WaitForRevision(ctx, rev))
	require.NoError(t, e.srv.Compact(ctx, rev))

	drain(t, e, inf)
	assert.Equal(t, 1, inf.Relists())
	assert.Equal(t, []string{"doomed"}, deleted, "the relist noticed what vanished")
	want, _, err := sas.List(ctx, "default", client.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, len(want), inf.Len(), "the cache converged on etcd's state")
	assert.Equal(t, strconv.FormatInt(rev, 10), inf.LastResourceVersion())
}

func TestInformerResumesFromLastResourceVersionWithoutRelisting(t *testing.T) {
	e := newEnv(t, clock.NewVirtual(time.Unix(0, 0)))
	ctx := context.Background()
	sas := client.For[api.ServiceAccount](e.admin)
	inf := client.NewInformer[api.ServiceAccount](e.admin, client.InformerOptions{Namespace: "default", Clock: e.clock})
	var adds []string
	inf.AddHandler(client.Handler[*api.ServiceAccount]{OnAdd: func(sa *api.ServiceAccount) { adds = append(adds, sa.Name) }})
	require.NoError(t, inf.Sync(ctx))
	drain(t, e, inf)
	inf.Disconnect()
	for i := 0; i < 3; i++ {
		_, err := sas.Create(ctx, configMapLike("missed-"+strconv.Itoa(i)))
		require.NoError(t, err)
	}
	drain(t, e, inf)
	assert.Equal(t, 0, inf.Relists())
	assert.Equal(t, []string{"default", "missed-0", "missed-1", "missed-2"}, adds, "every missed event once, in order")
}

// recorderEnv is an environment on a virtual clock with an object named name to record events about,
// and a recorder for component (on host).
func recorderEnv(t *testing.T, name, component, host string) (*clock.Virtual, *env, *api.ServiceAccount, *client.EventRecorder) {
	t.Helper()
	clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	e := newEnv(t, clk)
	sa, err := client.For[api.ServiceAccount](e.admin).Create(context.Background(), configMapLike(name))
	require.NoError(t, err)
	return clk, e, sa, client.NewEventRecorder(e.admin, component, host, clk, e.trace)
}

func TestEventRecorderAggregatesRepeats(t *testing.T) {
	clk, e, sa, rec := recorderEnv(t, "crashy", "kubelet", "node-1")
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		rec.Event(ctx, sa, client.EventWarning, "BackOff", "Back-off restarting failed container app")
		clk.Advance(10 * time.Second)
	}
	rec.Event(ctx, sa, client.EventNormal, "Pulled", "Container image already present on machine")
	events, _, err := client.For[api.Event](e.admin).List(ctx, "default", client.ListOptions{FieldSelector: "involvedObject.name=crashy"})
	require.NoError(t, err)
	require.Len(t, events, 2)
	byReason := map[string]*api.Event{}
	for _, ev := range events {
		byReason[ev.Reason] = ev
	}
	backoff := byReason["BackOff"]
	require.NotNil(t, backoff)
	assert.Equal(t, int32(3), backoff.Count)
	assert.Equal(t, 20*time.Second, backoff.LastTimestamp.Sub(backoff.FirstTimestamp.Time))
	assert.Equal(t, "kubelet", backoff.Source.Component)
	assert.Equal(t, int32(1), byReason["Pulled"].Count)
}

// The spam filter: one source may say 25 things of one type about one object, then one more every
// 5 minutes; repeats it drops still count in the next event it lets through.
func TestEventRecorderDropsWhatOneSourceSaysTooOftenAboutOneObject(t *testing.T) {
	clk, e, sa, rec := recorderEnv(t, "busy", "replicaset-controller", "")
	ctx := context.Background()
	for i := range 40 {
		rec.Event(ctx, sa, client.EventNormal, "SuccessfulCreate", "Created pod: busy-"+strconv.Itoa(i))
	}
	rec.Event(ctx, sa, client.EventWarning, "FailedCreate", "another type has its own bucket")
	list := func() map[string]*api.Event {
		t.Helper()
		events, _, err := client.For[api.Event](e.admin).List(ctx, "default", client.ListOptions{FieldSelector: "involvedObject.name=busy"})
		require.NoError(t, err)
		byMessage := map[string]*api.Event{}
		for _, ev := range events {
			byMessage[ev.Message] = ev
		}
		return byMessage
	}
	got := list()
	assert.Len(t, got, 26, "25 SuccessfulCreate and the FailedCreate")
	assert.Contains(t, got, "Created pod: busy-24")
	assert.NotContains(t, got, "Created pod: busy-25")

	// Five minutes refill one token: a repeat of the first event is written, with the count of a
	// repeat dropped before.
	rec.Event(ctx, sa, client.EventNormal, "SuccessfulCreate", "Created pod: busy-0")
	clk.Advance(5 * time.Minute)
	rec.Event(ctx, sa, client.EventNormal, "SuccessfulCreate", "Created pod: busy-0")
	rec.Event(ctx, sa, client.EventNormal, "SuccessfulCreate", "Created pod: busy-1")
	got = list()
	assert.Equal(t, int32(3), got["Created pod: busy-0"].Count)
	assert.Equal(t, int32(1), got["Created pod: busy-1"].Count, "the bucket is empty again")
}

// A repeat updates the Event first written: its involvedObject stays the one of that first write
// (client-go patches only count, lastTimestamp and message), even after the object has changed.
func TestEventRecorderRepeatKeepsTheFirstInvolvedObject(t *testing.T) {
	_, e, sa, rec := recorderEnv(t, "changing", "kubelet", "node-1")
	ctx := context.Background()
	rec.Event(ctx, sa, client.EventNormal, "Pulled", "Container image already present on machine")
	first := sa.ResourceVersion
	changed := api.DeepCopy(sa)
	changed.Labels = map[string]string{"changed": "yes"}
	changed, err := client.For[api.ServiceAccount](e.admin).Update(ctx, changed)
	require.NoError(t, err)
	require.NotEqual(t, first, changed.ResourceVersion)
	rec.Event(ctx, changed, client.EventNormal, "Pulled", "Container image already present on machine")

	events, _, err := client.For[api.Event](e.admin).List(ctx, "default", client.ListOptions{FieldSelector: "involvedObject.name=changing"})
	require.NoError(t, err)
	require.Len(t, events, 1)
	assert.Equal(t, int32(2), events[0].Count)
	assert.Equal(t, first, events[0].InvolvedObject.ResourceVersion)
	assert.Equal(t, sa.UID, events[0].InvolvedObject.UID)
	assert.Equal(t, "ServiceAccount", events[0].InvolvedObject.Kind)
	assert.Equal(t, "v1", events[0].InvolvedObject.APIVersion)
}
