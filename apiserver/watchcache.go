// watchcache.go: the watch cache (k8s.io/apiserver's Cacher). One etcd watch on /registry/ feeds it;
// it decodes each change once, keeps the current state of every resource and a window of recent
// events per resource, and fans each event out to the watchers whose selectors it matches. Lists and
// watches are served from here, so a thousand kubelets watching pods cost etcd one watch, not a
// thousand. Events are the exception, as in kube-apiserver: the cache keeps their window for watches
// but not their current state, and lists of them read etcd (uncached.go).
//
// Its promises, which informers rely on:
//   - a watch from resourceVersion R receives every later change once, in revision order, with no gap;
//   - a watch with no resourceVersion first receives the current state as ADDED events;
//   - a watch from a resourceVersion older than the window gets 410 Gone
//     `too old resource version: R (F)`, and the client must relist;
//   - rev tells how far the cache has read etcd, so a consistent list (and the step driver) can wait
//     until the cache has seen a given revision.
package apiserver

import (
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/fields"
	"kubesim/api/labels"
	"kubesim/store"
	"kubesim/wire"
)

// cacheEvent is a change as the cache stores it: the object before and after.
type cacheEvent struct {
	rev  int64
	key  string
	obj  api.Object // nil for a delete
	prev api.Object // nil for a create
}

// defaultWindow is how many events per resource the cache keeps, at least, for watches that resume
// (it keeps up to a quarter more between trims, see windowSlack). Kubernetes sizes its window
// dynamically (by default about 75 seconds of history, between 100 and 100k events); kubesim keeps
// a fixed count.
const defaultWindow = 2000

// windowSlack is how far past the window the events of a resource may grow before the oldest are
// dropped, as a fraction of the window: trimming then copies the window once per window/4 events,
// four copies per event, while each old object the window holds is kept for at most 1.25 windows of
// changes (with 2, the window's memory was up to twice what it promises).
const windowSlack = 4

type watchCache struct {
	mu  sync.RWMutex
	rev int64 // guarded by mu: the last etcd revision read
	err error // guarded by mu: why the etcd watch ended, if it did
	// waiters are the requests waiting for the cache to reach a revision (waitFor), lowest first,
	// guarded by mu: each is woken when the cache reaches its revision or stops, and no other. (A
	// condition variable broadcast at every batch woke every waiter to sleep again: with a thousand
	// kubelets' requests waiting, 5% of a 1,000-node envelope's CPU went to that.)
	waiters revWaiters
	// resources holds one resourceCache per resource name; fixed after newWatchCache, so reading the
	// map needs no lock (each resourceCache is guarded by the cache's mu).
	resources map[string]*resourceCache
	window    int

	// written holds, by etcd key, the object this apiserver is writing there (and the bytes it
	// sends), stored before the write, so that when etcd's watch reports a change to that key with
	// exactly those bytes the cache takes the object instead of decoding it again: a write costs one
	// JSON encoding, not an encoding and a decoding. Because the entry is there before etcd can report
	// the write, the same writes always take the same path (step mode stays reproducible).
	written sync.Map // string -> pendingWrite

	// shared makes the pods the cache keeps share their controller's common parts (share.go).
	shared *sharer
}

// pendingWrite is an object on its way to etcd: the bytes sent and the object they encode.
type pendingWrite struct {
	value []byte
	obj   api.Object
}

// expectWrite notes that obj, encoded as value, is about to be written to key. The cache keeps a
// copy of its own (sharing its controller's parts): the caller keeps obj. With given, the caller
// gives obj to the cache instead: from this call on nobody changes it (the cache sets its
// resourceVersion once etcd reports the write), and whatever obj shares with others is as
// unchanging.
func (c *watchCache) expectWrite(key string, value []byte, obj api.Object, given bool) *pendingWrite {
	if !given {
		obj = c.shared.keep(obj)
	}
	p := &pendingWrite{value: value, obj: obj}
	c.written.Store(key, p)
	return p
}

// settled reports whether every write this apiserver made to key is in the cache (none is still on
// its way from etcd): then the cache's copy is no older than what this apiserver last wrote.
func (c *watchCache) settled(key string) bool {
	_, pending := c.written.Load(key)
	return !pending
}

// takeWritten returns the object this apiserver wrote to kv's key as kv's value, stamped with kv's
// revision, and forgets the pending write; nil when kv is not such a write (another writer, or bytes
// that differ).
func (c *watchCache) takeWritten(kv store.KV) api.Object {
	w, ok := c.written.Load(kv.Key)
	if !ok || !bytes.Equal(w.(*pendingWrite).value, kv.Value) {
		return nil
	}
	c.written.CompareAndDelete(kv.Key, w)
	obj := w.(*pendingWrite).obj
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(kv.ModRevision, 10)
	return obj
}

// abandonWrite forgets p after a write that failed.
func (c *watchCache) abandonWrite(key string, p *pendingWrite) { c.written.CompareAndDelete(key, p) }

// resourceCache is the state and history of one resource. All fields are guarded by watchCache.mu.
type resourceCache struct {
	res     *api.Resource
	objects map[string]api.Object // key -> current object; empty when uncached
	// uncached: the cache keeps no current state of this resource, only its window (uncached.go).
	uncached bool
	// byNode indexes pods by spec.nodeName (the kubelet's field selector), key set per node.
	byNode map[string]map[string]struct{}
	// sorted memoises the keys of objects in order, for lists and initial watch states; nil after a
	// key is added or removed, built again by the next reader (under the read lock, hence atomic).
	// A resource that changes without lists between (pods in a rollout) never pays for it; one
	// read on every request (RBAC's ClusterRoleBindings) sorts once per change, not per request.
	sorted atomic.Pointer[[]string]
	// snap memoises the objects in key order, for a reader on every request (RBAC walks every
	// ClusterRoleBinding); nil after any change, built again by the next reader, like sorted.
	snap atomic.Pointer[snapshot]
	// events is the window, oldest first; floor is the revision from which the window is complete:
	// every change with revision > floor is in events.
	events []cacheEvent
	floor  int64
	// watchers whose field selector pins one value of an indexed field (a kubelet's pods by
	// spec.nodeName, its Node by metadata.name), by that pin, and all the others: a change is offered
	// only to the watchers of its pins, so a thousand kubelets' watches cost a change a few map
	// lookups, not a thousand filters.
	pinned   map[pin]map[*Watcher]struct{}
	watchers map[*Watcher]struct{}
}

func newWatchCache(window int) *watchCache {
	c := &watchCache{resources: map[string]*resourceCache{}, window: window, shared: newSharer()}
	for _, r := range api.Resources() {
		c.resources[r.Name] = &resourceCache{
			res: r, objects: map[string]api.Object{}, byNode: map[string]map[string]struct{}{},
			pinned: map[pin]map[*Watcher]struct{}{}, watchers: map[*Watcher]struct{}{},
			uncached: uncachedResources[r.Name],
		}
	}
	return c
}

// start lists everything under /registry/ and then follows etcd's watch from the next revision, until
// ctx ends.
func (c *watchCache) start(ctx context.Context, st *store.Store) error {
	kvs, rev, err := st.List(ctx, "/registry/", 0)
	if err != nil {
		return err
	}
	if err := c.replace(kvs, rev); err != nil {
		return err
	}
	go c.follow(ctx, st, st.Watch(ctx, "/registry/", rev+1, store.WithoutPrevious()))
	return nil
}

// replace makes the cache hold exactly kvs, etcd's state at rev, with a window that starts at rev.
// The watches still open (at a relist) end, as kube-apiserver's cacher ends its watchers whenever its
// reflector lists again: without an error, the stream simply ends; each client watches again from its
// last resourceVersion, gets 410 Gone (the window starts at rev) and lists. The objects are decoded before the
// lock is taken: a relist of a large cluster does not stop the cache's readers meanwhile.
func (c *watchCache) replace(kvs []store.KV, rev int64) error {
	type entry struct {
		key string
		obj api.Object
	}
	fresh := map[*resourceCache][]entry{}
	for _, kv := range kvs {
		rc, key, err := c.locate(kv.Key)
		if err != nil {
			return err
		}
		if rc.uncached {
			continue
		}
		obj := c.takeWritten(kv) // this apiserver's own write, whose event the watch missed
		if obj == nil {
			if _, _, obj, err = c.decode(kv); err != nil {
				return err
			}
		}
		fresh[rc] = append(fresh[rc], entry{key, obj})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeWatchersLocked(nil)
	for _, rc := range c.resources {
		rc.watchers, rc.pinned = map[*Watcher]struct{}{}, map[pin]map[*Watcher]struct{}{}
		rc.objects, rc.byNode = make(map[string]api.Object, len(fresh[rc])), map[string]map[string]struct{}{}
		rc.sorted.Store(nil)
		rc.snap.Store(nil)
		for _, e := range fresh[rc] {
			rc.put(e.key, e.obj)
		}
		rc.events, rc.floor = nil, rev
	}
	c.rev = rev
	c.wakeLocked()
	return nil
}

// relist lists etcd again after it compacted the history the cache needed to resume, and replaces
// what the cache holds; it tries again while etcd cannot answer (a member without a leader), until
// ctx ends. It returns the revision the cache now holds.
func (c *watchCache) relist(ctx context.Context, st *store.Store) (int64, error) {
	for {
		kvs, rev, err := st.List(ctx, "/registry/", 0)
		if err == nil {
			return rev, c.replace(kvs, rev)
		}
		if ctx.Err() != nil || st.Closed() {
			return 0, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(rewatchDelay):
		}
	}
}

// maxBatchesAtOnce bounds how many of etcd's responses the cache applies under one hold of its lock.
const maxBatchesAtOnce = 256

// rewatchDelay is how long the cache waits before it watches etcd again after etcd ended its watch.
const rewatchDelay = 100 * time.Millisecond

func (c *watchCache) follow(ctx context.Context, st *store.Store, w *store.Watch) {
	var cause error // why the cache stops following etcd
	for {
		for batch := range w.Events() {
			// etcd sends a response per transaction: on a busy machine each would cost the cache a
			// wait for its turn to run, and the cache would fall behind etcd by thousands of
			// revisions. The batches already waiting are applied together, under one lock.
			batches := [][]store.Event{batch}
		more:
			for len(batches) < maxBatchesAtOnce {
				select {
				case next, ok := <-w.Events():
					if !ok {
						break more
					}
					batches = append(batches, next)
				default:
					break more
				}
			}
			for _, b := range batches {
				c.readDeleted(ctx, st, b)
			}
			c.mu.Lock()
			for _, b := range batches {
				for _, ev := range b {
					c.applyLocked(ev)
				}
			}
			c.wakeLocked()
			c.mu.Unlock()
		}
		w.Stop()
		if cause = w.Err(); cause == nil || ctx.Err() != nil || st.Closed() {
			break
		}
		if store.IsCompacted(cause) {
			// etcd compacted past the cache's revision while its watch was down (an outage longer
			// than the compaction interval): what changed between is lost, so list everything
			// again, as kube-apiserver's cacher does, and follow from the list's revision.
			rev, err := c.relist(ctx, st)
			if cause = err; err != nil {
				break
			}
			w = st.Watch(ctx, "/registry/", rev+1, store.WithoutPrevious())
			continue
		}
		// etcd ended the watch, as it does when its member loses the leader: like kube-apiserver's
		// cacher, keep serving what the cache holds and watch again from the next revision. The
		// wait is on the wall clock, as etcd's elections are.
		select {
		case <-ctx.Done():
		case <-time.After(rewatchDelay):
		}
		c.mu.Lock()
		next := c.rev + 1
		c.mu.Unlock()
		w = st.Watch(ctx, "/registry/", next, store.WithoutPrevious())
	}
	c.mu.Lock()
	c.err = cause
	if c.err == nil {
		c.err = ctx.Err()
	}
	if c.err == nil {
		c.err = fmt.Errorf("etcd watch closed")
	}
	c.closeWatchersLocked(c.err)
	c.wakeLocked()
	c.mu.Unlock()
}

// closeWatchersLocked ends every open watch with err (nil: the stream simply ends). c.mu must be held.
func (c *watchCache) closeWatchersLocked(err error) {
	for _, rc := range c.resources {
		for w := range rc.watchers {
			w.closeWith(err)
		}
		for _, ws := range rc.pinned {
			for w := range ws {
				w.closeWith(err)
			}
		}
	}
}

// decode turns an etcd key and value into (resource cache, object key, object).
func (c *watchCache) decode(kv store.KV) (*resourceCache, string, api.Object, error) {
	rc, key, err := c.locate(kv.Key)
	if err != nil {
		return nil, "", nil, err
	}
	obj := rc.res.NewObject()
	if err := json.Unmarshal(kv.Value, obj); err != nil {
		return nil, "", nil, fmt.Errorf("decoding %s: %w", kv.Key, err)
	}
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(kv.ModRevision, 10)
	return rc, key, c.shared.share(obj), nil
}

// locate maps "/registry/pods/default/nginx" to the pods cache and key "default/nginx".
func (c *watchCache) locate(etcdKey string) (*resourceCache, string, error) {
	rest, ok := strings.CutPrefix(etcdKey, "/registry/")
	if !ok {
		return nil, "", fmt.Errorf("key %q is outside /registry/", etcdKey)
	}
	resource, key, _ := strings.Cut(rest, "/")
	rc := c.resources[resource]
	if rc == nil {
		return nil, "", fmt.Errorf("key %q names no known resource", etcdKey)
	}
	return rc, key, nil
}

func (c *watchCache) applyLocked(ev store.Event) {
	c.rev = ev.Revision
	var (
		rc  *resourceCache
		key string
		obj api.Object
		err error
	)
	switch {
	case ev.Type == store.Delete:
		rc, key, err = c.locate(ev.KV.Key)
	default:
		if obj = c.takeWritten(ev.KV); obj != nil {
			rc, key, err = c.locate(ev.KV.Key)
		} else {
			rc, key, obj, err = c.decode(ev.KV)
		}
	}
	if err != nil {
		return // not an object kubesim knows; nothing watches it
	}
	var prev api.Object
	switch {
	case rc.uncached:
		prev = c.previous(rc, key, ev, obj)
	case obj == nil:
		prev = rc.objects[key]
		rc.remove(key, prev)
	default:
		prev = rc.objects[key]
		rc.put(key, obj)
	}
	ce := cacheEvent{rev: ev.Revision, key: key, obj: obj, prev: prev}
	rc.events = append(rc.events, ce)
	if limit := c.window + max(c.window/windowSlack, 1); len(rc.events) >= limit {
		// Trim back to the window once it has grown by the slack: amortised O(1) per event.
		drop := len(rc.events) - c.window
		rc.floor = rc.events[drop-1].rev
		rc.events = append(make([]cacheEvent, 0, limit), rc.events[drop:]...)
	}
	rc.dispatch(ce)
}

func (rc *resourceCache) put(key string, obj api.Object) {
	rc.snap.Store(nil)
	if prev, ok := rc.objects[key]; ok {
		rc.unindex(key, prev)
	} else {
		rc.sorted.Store(nil)
	}
	rc.objects[key] = obj
	if node := nodeNameOf(obj); node != "" {
		set := rc.byNode[node]
		if set == nil {
			set = map[string]struct{}{}
			rc.byNode[node] = set
		}
		set[key] = struct{}{}
	}
}

// sortedKeys returns the keys of rc's objects in order (shared: do not modify). The cache's lock must
// be held, for reading at least.
func (rc *resourceCache) sortedKeys() []string {
	if p := rc.sorted.Load(); p != nil {
		return *p
	}
	keys := make([]string, 0, len(rc.objects))
	for k := range rc.objects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rc.sorted.Store(&keys)
	return keys
}

func (rc *resourceCache) remove(key string, prev api.Object) {
	rc.snap.Store(nil)
	if prev != nil {
		rc.unindex(key, prev)
	}
	if _, ok := rc.objects[key]; ok {
		rc.sorted.Store(nil)
	}
	delete(rc.objects, key)
}

func (rc *resourceCache) unindex(key string, obj api.Object) {
	if node := nodeNameOf(obj); node != "" {
		delete(rc.byNode[node], key)
		if len(rc.byNode[node]) == 0 {
			delete(rc.byNode, node)
		}
	}
}

func nodeNameOf(obj api.Object) string {
	if p, ok := obj.(*api.Pod); ok {
		return p.Spec.NodeName
	}
	return ""
}

// dispatch hands one change to every watcher it concerns. A pinned watcher only hears about objects
// whose pinned field has its value before or after the change (a pod moving onto or off its node).
func (rc *resourceCache) dispatch(ce cacheEvent) {
	for w := range rc.watchers {
		w.offer(ce)
	}
	if len(rc.pinned) == 0 {
		return
	}
	for _, field := range pinFields {
		var before, after pin
		if ce.prev != nil {
			before = pinOf(field, ce.prev)
		}
		if ce.obj != nil {
			after = pinOf(field, ce.obj)
		}
		for w := range rc.pinned[before] {
			w.offer(ce)
		}
		if after != before {
			for w := range rc.pinned[after] {
				w.offer(ce)
			}
		}
	}
}

// pin is one value of an indexed field that a watcher's field selector requires exactly; the zero
// pin is no pin.
type pin struct{ field, value string }

// pinFields are the fields watchers are indexed by: the ones kubelets (one per node) watch through.
var pinFields = [...]string{"spec.nodeName", "metadata.name"}

// pinOf is obj's pin on field; the zero pin where obj has no value there (a pod not yet bound).
func pinOf(field string, obj api.Object) pin {
	var v string
	switch field {
	case "spec.nodeName":
		v = nodeNameOf(obj)
	case "metadata.name":
		v = obj.GetObjectMeta().Name
	}
	if v == "" {
		return pin{}
	}
	return pin{field, v}
}

// waitFor blocks until the cache has read etcd up to rev, or ctx ends.
func (c *watchCache) waitFor(ctx context.Context, rev int64) error {
	c.mu.RLock()
	reached, err := c.rev >= rev, c.err
	c.mu.RUnlock()
	if reached {
		return nil
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.rev >= rev || c.err != nil {
		c.mu.Unlock()
		return c.reached(ctx, rev)
	}
	wake := make(chan struct{})
	heap.Push(&c.waiters, revWaiter{rev: rev, wake: wake})
	c.mu.Unlock()
	select {
	case <-wake:
	case <-ctx.Done():
		// The entry stays until the cache reaches rev or stops, and is closed then: rev was
		// written to etcd, so the cache will read it.
	}
	return c.reached(ctx, rev)
}

// reached is waitFor's answer once it stops waiting: nil if the cache has read rev, else why not.
func (c *watchCache) reached(ctx context.Context, rev int64) error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	switch {
	case c.rev >= rev:
		return nil
	case c.err != nil:
		return c.err
	default:
		return ctx.Err()
	}
}

// wakeLocked wakes the waiters whose revision the cache has read, or all of them once it has
// stopped. c.mu must be held.
func (c *watchCache) wakeLocked() {
	for len(c.waiters) > 0 && (c.waiters[0].rev <= c.rev || c.err != nil) {
		close(heap.Pop(&c.waiters).(revWaiter).wake)
	}
}

// revWaiter is one waitFor call: closing wake tells it the cache reached rev (or stopped).
type revWaiter struct {
	rev  int64
	wake chan struct{}
}

// revWaiters is a min-heap of waiters by revision (container/heap).
type revWaiters []revWaiter

func (h revWaiters) Len() int           { return len(h) }
func (h revWaiters) Less(i, j int) bool { return h[i].rev < h[j].rev }
func (h revWaiters) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *revWaiters) Push(x any)        { *h = append(*h, x.(revWaiter)) }
func (h *revWaiters) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// revision is how far the cache has read etcd.
func (c *watchCache) revision() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.rev
}

// compacted tells the cache that etcd dropped history up to rev: watches from before it must relist.
func (c *watchCache) compacted(rev int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rc := range c.resources {
		if rev <= rc.floor {
			continue
		}
		i := sort.Search(len(rc.events), func(i int) bool { return rc.events[i].rev > rev })
		rc.events = append(rc.events[:0:0], rc.events[i:]...)
		rc.floor = rev
	}
}

// selection is a list or watch filter: namespace, label selector, field selector.
type selection struct {
	namespace string
	labels    labels.Selector
	fields    fields.Selector
	pin       pin // set when the field selector pins an indexed field (pinFields): watchers are filed by it
}

// node is the node whose pods the selection pins (spec.nodeName): a list reads the node index.
func (s selection) node() string {
	if s.pin.field == "spec.nodeName" {
		return s.pin.value
	}
	return ""
}

func newSelection(res *api.Resource, namespace, labelSel, fieldSel string) (selection, error) {
	s := selection{namespace: namespace, labels: labels.Everything(), fields: fields.Everything()}
	var err error
	if labelSel != "" {
		if s.labels, err = labels.Parse(labelSel); err != nil {
			return s, apierrors.NewBadRequest(fmt.Sprintf("unable to parse requirement: %v", err))
		}
	}
	if fieldSel != "" {
		if s.fields, err = fields.ParseSelector(fieldSel); err != nil {
			return s, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector %q: %v", fieldSel, err))
		}
		for _, req := range s.fields.Requirements() {
			if !supportedField(res, req.Field) {
				return s, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", req.Field))
			}
		}
		// Only pods have spec.nodeName (supportedField refused it above for any other resource), and
		// a selector pinning both fields is indexed by the node, the first of pinFields.
		for _, field := range pinFields {
			if v, ok := s.fields.RequiresExactMatch(field); ok && v != "" {
				s.pin = pin{field, v}
				break
			}
		}
	}
	return s, nil
}

// unfiltered reports that no label or field selector narrows the selection (a namespace may).
func (s selection) unfiltered() bool { return s.labels.Empty() && s.fields.Empty() }

func (s selection) matches(obj api.Object) bool {
	m := obj.GetObjectMeta()
	if s.namespace != "" && m.Namespace != s.namespace {
		return false
	}
	if !s.labels.Empty() && !s.labels.Matches(labels.Set(m.Labels)) {
		return false
	}
	return s.fields.Empty() || s.fields.Matches(objectFields(obj))
}

// list returns the current objects matching sel, sorted by key, at the cache's revision.
func (c *watchCache) list(res *api.Resource, sel selection) ([]api.Object, int64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rc := c.resources[res.Name]
	var keys []string
	if node := sel.node(); node != "" {
		keys = make([]string, 0, len(rc.byNode[node]))
		for k := range rc.byNode[node] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	} else {
		keys = rc.sortedKeys()
		if sel.namespace != "" && res.Namespaced {
			i, j := namespaceRun(keys, sel.namespace)
			keys = keys[i:j]
		}
	}
	out := make([]api.Object, 0, len(keys))
	for _, k := range keys {
		if obj := rc.objects[k]; sel.matches(obj) {
			out = append(out, obj)
		}
	}
	return out, c.rev
}

// firstOnNode returns the object of res bound to node in namespace for which match is true: the
// first in key order, or with anyOne whichever it meets first (cheaper: no order, and it stops
// there); nil if none is. It reads the cache's index by node, as the Node authorizer's graph answers
// from its edges, without listing.
func (c *watchCache) firstOnNode(res *api.Resource, node, namespace string, anyOne bool, match func(api.Object) bool) api.Object {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rc := c.resources[res.Name]
	var first api.Object
	var firstKey string
	for k := range rc.byNode[node] {
		if ns, _, _ := strings.Cut(k, "/"); ns != namespace || first != nil && k > firstKey {
			continue
		}
		if obj := rc.objects[k]; obj != nil && match(obj) {
			if anyOne {
				return obj
			}
			first, firstKey = obj, k
		}
	}
	return first
}

// snapshot is a resource's objects in key order, as one change left them: shared by every reader
// until the next change, so never modify it (nor its objects).
type snapshot struct {
	keys []string
	objs []api.Object // objs[i] is at keys[i]
}

// namespace is the part of s in one namespace.
func (s *snapshot) namespace(ns string) []api.Object {
	i, j := namespaceRun(s.keys, ns)
	return s.objs[i:j]
}

// namespaceRun is where a namespace's keys are in sorted keys: keys[i:j], one run.
func namespaceRun(keys []string, ns string) (i, j int) {
	prefix := ns + "/"
	i = sort.SearchStrings(keys, prefix)
	j = i
	for j < len(keys) && strings.HasPrefix(keys[j], prefix) {
		j++
	}
	return i, j
}

// snapshot returns res's objects as they stand, without copying them for every caller as list
// does: for readers that walk a resource that seldom changes on every request.
func (c *watchCache) snapshot(res *api.Resource) *snapshot {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rc := c.resources[res.Name]
	if sn := rc.snap.Load(); sn != nil {
		return sn
	}
	sn := &snapshot{keys: rc.sortedKeys()}
	sn.objs = make([]api.Object, len(sn.keys))
	for i, k := range sn.keys {
		sn.objs[i] = rc.objects[k]
	}
	rc.snap.Store(sn) // two readers may both build it: the same snapshot, either one kept
	return sn
}

// get returns the cached object (shared: do not modify) or nil.
func (c *watchCache) get(res *api.Resource, key string) api.Object {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.resources[res.Name].objects[key]
}

// watch opens a watcher. from is nil for "current state first", else the resourceVersion to resume
// after.
func (c *watchCache) watch(res *api.Resource, sel selection, from *int64, bookmarks bool) (*Watcher, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, apierrors.NewServiceUnavailable("watch cache is not running: " + c.err.Error())
	}
	rc := c.resources[res.Name]
	if from != nil {
		return c.open(rc, sel, nil, from, bookmarks)
	}
	objs := make([]api.Object, 0)
	for _, k := range rc.sortedKeys() {
		if obj := rc.objects[k]; sel.matches(obj) {
			objs = append(objs, obj)
		}
	}
	return c.open(rc, sel, objs, nil, bookmarks)
}

// open registers a watcher that first receives initial as ADDED events, then every change after
// from (when not nil) that the window holds, then every change to come. c.mu must be held.
func (c *watchCache) open(rc *resourceCache, sel selection, initial []api.Object, from *int64, bookmarks bool) (*Watcher, error) {
	if from != nil && *from < rc.floor {
		return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", *from, rc.floor))
	}
	w := newWatcher(c, rc, sel, bookmarks)
	for _, obj := range initial {
		rv, _ := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
		w.push(wire.WatchEvent{Type: wire.Added, Object: obj, ResourceVersion: rv})
	}
	if from != nil {
		i := sort.Search(len(rc.events), func(i int) bool { return rc.events[i].rev > *from })
		for _, ce := range rc.events[i:] {
			w.offer(ce)
		}
	}
	if sel.pin != (pin{}) {
		set := rc.pinned[sel.pin]
		if set == nil {
			set = map[*Watcher]struct{}{}
			rc.pinned[sel.pin] = set
		}
		set[w] = struct{}{}
	} else {
		rc.watchers[w] = struct{}{}
	}
	return w, nil
}

// bookmark sends every watcher that asked for bookmarks the cache's current revision, so that a
// watcher whose filter matched nothing for a while can still resume from a recent resourceVersion.
func (c *watchCache) bookmark() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rc := range c.resources {
		send := func(w *Watcher) {
			if w.bookmarks {
				obj := rc.res.NewObject()
				obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(c.rev, 10)
				w.push(wire.WatchEvent{Type: wire.Bookmark, Object: obj, ResourceVersion: c.rev})
			}
		}
		for w := range rc.watchers {
			send(w)
		}
		for _, ws := range rc.pinned {
			for w := range ws {
				send(w)
			}
		}
	}
}

func (c *watchCache) unregister(w *Watcher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(w.rc.watchers, w)
	if set := w.rc.pinned[w.sel.pin]; set != nil {
		delete(set, w)
		if len(set) == 0 {
			delete(w.rc.pinned, w.sel.pin)
		}
	}
}
