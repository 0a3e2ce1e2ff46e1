package apiserver

// Watch validators, as etcd's robustness suite has them: while clients churn Lease objects under faults
// (slow etcd writes and compactions here; etcd members dying in memberloss_test.go), watchers (one on everything in a namespace, one behind a label
// selector) record every event and bookmark they get, and each stream must be
//   - ordered and unique: resourceVersions strictly increase;
//   - gap-free and true: exactly etcd's own history for that prefix (read by an etcd watch opened
//     before the churn), seen through the watcher's selector;
//   - resumable: a second watch started at any delivered resourceVersion gets exactly the rest;
//   - consistent with bookmarks: a bookmark's resourceVersion never goes back, and every event the
//     watcher should get at or before it has been delivered before it;
// and a watch from a resourceVersion compacted away gets 410 Gone.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/internal/testenv/robustness"
	"kubesim/store"
	"kubesim/wire"
)

// watchRecord is what a validator compares of an event: its type, object and resourceVersion.
type watchRecord struct {
	typ wire.EventType
	key string // namespace/name
	rv  int64
}

func (r watchRecord) String() string { return fmt.Sprintf("%s %s@%d", r.typ, r.key, r.rv) }

func recordOf(ev wire.WatchEvent) watchRecord {
	m := ev.Object.GetObjectMeta()
	return watchRecord{typ: ev.Type, key: m.Namespace + "/" + m.Name, rv: ev.ResourceVersion}
}

// stream is one watcher's recording. It ends at the first event or bookmark at or after end, once end
// is known.
type stream struct {
	selector string
	from     int64
	events   []wire.WatchEvent
	err      error
	done     chan struct{}
}

func (st *stream) records() []watchRecord {
	var out []watchRecord
	for _, ev := range st.events {
		if ev.Type != wire.Bookmark {
			out = append(out, recordOf(ev))
		}
	}
	return out
}

// watchFrom opens a watch on the Leases of "default" from rv with bookmarks.
func watchFrom(s *Server, selector string, rv int64) (wire.Watch, error) {
	resp, err := s.Do(context.Background(), &wire.Request{Token: adminToken, Verb: wire.VerbWatch, Resource: "leases",
		Namespace: "default", LabelSelector: selector, ResourceVersion: strconv.FormatInt(rv, 10), AllowWatchBookmarks: true, Quiet: true})
	if err != nil {
		return nil, err
	}
	return resp.Watch, nil
}

// record reads w into a stream until end; onEvent sees each event as it arrives.
func record(w wire.Watch, selector string, from int64, end *atomic.Int64, onEvent func(wire.WatchEvent)) *stream {
	st := &stream{selector: selector, from: from, done: make(chan struct{})}
	go func() {
		defer close(st.done)
		defer w.Stop()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { // give up 20 s after end is known: the churn before it may take long under -race
			for end.Load() == 0 && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Second):
				cancel()
			}
		}()
		for {
			ev, ok := w.Next(ctx)
			if !ok {
				st.err = fmt.Errorf("watch from %d ended early: %v (ctx: %v)", from, w.Err(), ctx.Err())
				return
			}
			st.events = append(st.events, ev)
			if onEvent != nil {
				onEvent(ev)
			}
			if e := end.Load(); e > 0 && ev.ResourceVersion >= e {
				return
			}
		}
	}()
	return st
}

// etcdHistory reads, through an etcd watch of its own, every change under prefix after from until
// revision end. A watch that etcd ends for another reason than a compaction (a member that lost its
// leader: "etcdserver: no leader") is opened again after the last revision read, as the watch cache
// does.
func etcdHistory(ctx context.Context, st *store.Store, prefix string, from int64, end *atomic.Int64) ([]store.Event, error) {
	var out []store.Event
	w := st.Watch(ctx, prefix, from)
	defer func() { w.Stop() }()
	var timeout <-chan time.Time                  // set once end is known: the churn before it may take long under -race
	poll := time.NewTicker(10 * time.Millisecond) // end may be set after the last event came
	defer poll.Stop()
	for {
		if timeout == nil && end.Load() > 0 {
			timeout = time.After(20 * time.Second)
		}
		select {
		case batch, ok := <-w.Events():
			if !ok {
				if w.Err() == nil || store.IsCompacted(w.Err()) {
					return out, fmt.Errorf("etcd watch ended: %v", w.Err())
				}
				next := from
				if len(out) > 0 {
					next = out[len(out)-1].Revision + 1
				}
				time.Sleep(10 * time.Millisecond)
				w = st.Watch(ctx, prefix, next)
				continue
			}
			out = append(out, batch...)
		case <-poll.C:
		case <-timeout:
			return out, fmt.Errorf("etcd watch: timed out after %d events", len(out))
		}
		if e := end.Load(); e > 0 && len(out) > 0 && out[len(out)-1].Revision >= e {
			return out, nil
		}
	}
}

// expectedThrough is etcd's history as a watcher with label selector team=<team> ("" for none) must
// see it: an object that starts matching is ADDED, one that stops matching is DELETED. The history is
// replayed from an empty namespace rather than read from etcd's prevKV, which etcd leaves out once the
// previous revision is compacted.
func expectedThrough(t *testing.T, history []store.Event, team string) []watchRecord {
	matches := func(value []byte) bool {
		if team == "" {
			return true
		}
		var l api.Lease
		require.NoError(t, json.Unmarshal(value, &l))
		return l.Labels["team"] == team
	}
	current := map[string][]byte{} // etcd key -> value
	var out []watchRecord
	for _, ev := range history {
		key := strings.TrimPrefix(ev.KV.Key, "/registry/leases/")
		prev, existed := current[ev.KV.Key]
		was := existed && matches(prev)
		is := ev.Type == store.Put && matches(ev.KV.Value)
		if ev.Type == store.Put {
			current[ev.KV.Key] = ev.KV.Value
		} else {
			delete(current, ev.KV.Key)
		}
		switch {
		case was && is:
			out = append(out, watchRecord{wire.Modified, key, ev.Revision})
		case is:
			out = append(out, watchRecord{wire.Added, key, ev.Revision})
		case was:
			out = append(out, watchRecord{wire.Deleted, key, ev.Revision})
		}
	}
	return out
}

// validateStream checks order, uniqueness, bookmarks and equality with want (the events after the
// stream's start, up to its end).
func validateStream(t *testing.T, name string, st *stream, want []watchRecord) {
	t.Helper()
	require.NoError(t, st.err, name)
	var last, lastBookmark int64 = st.from, 0
	next := 0 // index in want of the next event the watcher should get
	for _, ev := range st.events {
		if ev.Type == wire.Bookmark {
			require.GreaterOrEqualf(t, ev.ResourceVersion, lastBookmark, "%s: a bookmark went back", name)
			require.GreaterOrEqualf(t, ev.ResourceVersion, last, "%s: a bookmark went behind a delivered event", name)
			if next < len(want) {
				require.Greaterf(t, want[next].rv, ev.ResourceVersion,
					"%s: bookmark at %d came before %v, which the watcher should have got first", name, ev.ResourceVersion, want[next])
			}
			lastBookmark, last = ev.ResourceVersion, ev.ResourceVersion
			continue
		}
		require.Greaterf(t, ev.ResourceVersion, last, "%s: %v is out of order or repeated", name, recordOf(ev))
		last = ev.ResourceVersion
		next++
	}
	require.Equalf(t, want, st.records(), "%s: the stream differs from etcd's history", name)
}

func TestWatchStreamsUnderChurnAndCompaction(t *testing.T) {
	const seed = 7
	s, st := newFaultyServer(t, Config{Seed: seed, BookmarkInterval: 10 * time.Millisecond}, 0)
	validateWatchesUnder(t, s, st, seed, func(ctx context.Context) func() string {
		stop := robustness.InjectFaults(ctx, rand.New(rand.NewSource(seed)), st, s.Compact, 50*time.Millisecond)
		return func() string { return fmt.Sprintf("%d compactions during the churn", stop()) }
	}, 250, nil)
}

// validateWatchesUnder records watch streams (and resumed ones) while 6 clients churn Leases (ops
// writes each) under the faults faults starts (its stop ends them and says what they did), validates every stream against
// etcd's history, and checks that a compacted resourceVersion gets 410 Gone. A churn write failing
// with an error for which unknown is true is let go: its outcome is etcd's history's to tell.
func validateWatchesUnder(t *testing.T, s *Server, st *store.Store, seed int64, faults func(context.Context) func() string, ops int, unknown func(error) bool) {
	ctx := context.Background()
	start, err := st.CurrentRevision(ctx)
	require.NoError(t, err)
	before, _, err := st.List(ctx, "/registry/leases/default/", start)
	require.NoError(t, err)
	require.Empty(t, before, "the history is replayed from an empty namespace")

	var end atomic.Int64
	var history []store.Event
	historyRead := make(chan error, 1)
	go func() { // read as it happens: a lagging etcd watch would be compacted away
		var err error
		history, err = etcdHistory(ctx, st, "/registry/leases/default/", start+1, &end)
		historyRead <- err
	}()

	// The watchers, and the resumed watches each opens at every 20th event it delivers.
	var mu sync.Mutex
	var resumed []*stream
	gone := 0
	resumeAt := func(selector string) func(wire.WatchEvent) {
		n := 0
		return func(ev wire.WatchEvent) {
			if ev.Type == wire.Bookmark {
				return
			}
			if n++; n%20 != 0 {
				return
			}
			w, err := watchFrom(s, selector, ev.ResourceVersion)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				// Only a compaction that raced past this resourceVersion excuses it.
				if assert.True(t, apierrors.IsResourceExpired(err), "resume from %d: %v", ev.ResourceVersion, err) {
					gone++
				}
				return
			}
			resumed = append(resumed, record(w, selector, ev.ResourceVersion, &end, nil))
		}
	}
	var streams []*stream
	for _, sel := range []string{"", "team=a"} {
		w, err := watchFrom(s, sel, start)
		require.NoError(t, err)
		streams = append(streams, record(w, sel, start, &end, resumeAt(sel)))
	}

	// Churn under faults.
	faultCtx, stopFaults := context.WithCancel(ctx)
	stop := faults(faultCtx)
	var wg sync.WaitGroup
	for c := 0; c < 6; c++ {
		wg.Add(1)
		go func(rnd *rand.Rand) {
			defer wg.Done()
			churn(t, s, rnd, ops, unknown)
		}(rand.New(rand.NewSource(seed*10 + int64(c))))
	}
	wg.Wait()
	stopFaults()
	happened := stop()

	// The end: one last write every unfiltered stream sees, then a bookmark for the filtered ones.
	last, err := s.Do(ctx, &wire.Request{Token: adminToken, Verb: wire.VerbCreate, Resource: "leases", Namespace: "default", Quiet: true,
		Body: &api.Lease{ObjectMeta: api.ObjectMeta{Name: "zz-end", Namespace: "default"}}})
	require.NoError(t, err)
	endRV := rvOf(t, last.Object)
	end.Store(endRV)
	require.NoError(t, s.WaitForRevision(ctx, endRV))
	s.Bookmark()

	require.NoError(t, <-historyRead)
	for _, st := range streams {
		<-st.done
		validateStream(t, fmt.Sprintf("watch %q from %d", st.selector, st.from), st, expectedThrough(t, history, strings.TrimPrefix(st.selector, "team=")))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range resumed {
		s.Bookmark()
		<-r.done
	}
	for _, r := range resumed {
		var base *stream
		for _, st := range streams {
			if st.selector == r.selector {
				base = st
			}
		}
		var suffix []watchRecord
		for _, rec := range base.records() {
			if rec.rv > r.from {
				suffix = append(suffix, rec)
			}
		}
		validateStream(t, fmt.Sprintf("watch %q resumed from %d", r.selector, r.from), r, suffix)
	}
	require.NotEmpty(t, resumed)
	require.Greater(t, len(streams[1].records()), 0, "the filtered watcher saw something")

	// A resourceVersion compacted away: 410 Gone, in Kubernetes' words.
	first := streams[0].records()[0].rv
	now, err := st.CurrentRevision(ctx)
	require.NoError(t, err)
	require.NoError(t, s.Compact(ctx, now))
	_, err = watchFrom(s, "", first)
	require.True(t, apierrors.IsResourceExpired(err), "%v", err)
	assert.Equal(t, 410, apierrors.CodeForError(err))
	assert.Contains(t, err.Error(), fmt.Sprintf("too old resource version: %d (", first))

	t.Logf("%d events on %d streams and %d resumed watches match etcd's history; %d resumes refused with 410; %s",
		len(history), len(streams), len(resumed), gone, happened)
}

// churn creates, relabels and deletes Leases in "default" (and a few in kube-system, which no watcher
// of "default" may see), ignoring the conflicts its races cause and the errors unknown accepts.
func churn(t *testing.T, s *Server, rnd *rand.Rand, ops int, unknown func(error) bool) {
	ctx := context.Background()
	for i := 0; i < ops; i++ {
		ns := "default"
		if rnd.Intn(5) == 0 {
			ns = "kube-system"
		}
		name := "lease-" + strconv.Itoa(rnd.Intn(8))
		team := []string{"a", "b"}[rnd.Intn(2)]
		req := wire.Request{Token: adminToken, Resource: "leases", Namespace: ns, Name: name, Quiet: true}
		lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"team": team, "n": strconv.Itoa(i)}}}
		switch r := rnd.Intn(10); {
		case r < 4:
			req.Verb, req.Body = wire.VerbCreate, lease
		case r < 8:
			got, err := s.Do(ctx, &wire.Request{Token: adminToken, Verb: wire.VerbGet, Resource: "leases", Namespace: ns, Name: name, Quiet: true})
			if err != nil {
				continue
			}
			lease.ResourceVersion = got.Object.GetObjectMeta().ResourceVersion
			req.Verb, req.Body = wire.VerbUpdate, lease
		default:
			req.Verb = wire.VerbDelete
		}
		_, err := s.Do(ctx, &req)
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) && !apierrors.IsConflict(err) && (unknown == nil || !unknown(err)) {
			t.Errorf("%s %s/%s: %v", req.Verb, ns, name, err)
			return
		}
	}
}
