// informer.go: the Informer (client-go's Reflector + DeltaFIFO + Indexer + SharedInformer in one
// small type). It lists a resource once, then watches from the list's resourceVersion, keeping a
// local cache that the component reads instead of asking the apiserver, and calling the component's
// handlers for every change. This is how every controller, the scheduler and each kubelet "see" the
// cluster.
//
// The cycle, as in client-go:
//
//	List (get everything + resourceVersion R) -> Watch from R -> apply each event to the cache,
//	call handlers, remember its resourceVersion -> if the watch breaks: Watch again from the last
//	resourceVersion -> if that is 410 Gone (too old): List again (relist) and replace the cache.
//
// Two ways to drive it: Run loops in real time; Pump applies whatever has arrived and returns, which
// is how the step driver makes every informer catch up before it runs the next unit of work.
//
// Objects in the cache are shared with the apiserver's watch cache: never modify them; copy first
// (api.DeepCopy).
package client

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/trace"
	"kubesim/wire"
)

// Handler receives an informer's changes (cache.ResourceEventHandler). Handlers run one at a time, in
// the order of the changes, and must be quick: enqueue a key and return.
type Handler[PT any] struct {
	OnAdd    func(obj PT)
	OnUpdate func(oldObj, newObj PT)
	OnDelete func(obj PT)
}

// keySet is a set of cache keys (client-go's sets.String): struct{} values take no room in the map's
// slots, where a bool's byte would be padded to 8 (an index holds a key per object).
type keySet map[string]struct{}

// IndexFunc returns the index values of an object (cache.IndexFunc).
type IndexFunc[PT any] func(obj PT) []string

// Informer watches one resource, keeps a local indexed cache and calls handlers.
type Informer[T any, PT ObjectPtr[T]] struct {
	resource  Resource[T, PT]
	namespace string
	opts      ListOptions
	clock     clock.Clock
	trace     *trace.Recorder
	name      string // for the trace: "kube-scheduler pods informer"

	// mu guards everything below. Handlers are called with mu released, but only from the goroutine
	// that applies events, so they still see changes one at a time.
	mu       sync.RWMutex
	items    map[string]PT                // key -> object
	indexers map[string]IndexFunc[PT]     // index name -> function
	indices  map[string]map[string]keySet // index name -> value -> set of keys
	handlers []Handler[PT]
	watcher  wire.Watch
	lastRV   string
	synced   bool
	relists  int
	lastErr  string            // the last re-watch failure, "" once a watch is open again
	detector *mutationDetector // see mutation.go; nil unless KUBESIM_CACHE_MUTATION_DETECTOR=true
}

// InformerOptions configure an informer.
type InformerOptions struct {
	Namespace string
	List      ListOptions
	Clock     clock.Clock
	Trace     *trace.Recorder
	// Name is how the informer is named in the trace, e.g. "kubelet/node-2 pods".
	Name string
}

// NewInformer returns an informer for T. Add handlers and indexers before Sync or Run.
func NewInformer[T any, PT ObjectPtr[T]](c *Client, o InformerOptions) *Informer[T, PT] {
	r := For[T, PT](c)
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	name := o.Name
	if name == "" {
		name = c.agent + " " + r.dyn.res.Name
	}
	inf := &Informer[T, PT]{resource: r, namespace: o.Namespace, opts: o.List, clock: o.Clock, trace: o.Trace, name: name,
		items: map[string]PT{}, indexers: map[string]IndexFunc[PT]{}, indices: map[string]map[string]keySet{},
		detector: newMutationDetector()}
	inf.AddIndexer(IndexNamespace, func(obj PT) []string { return []string{obj.GetObjectMeta().Namespace} })
	return inf
}

// IndexNamespace is the index every informer has (cache.NamespaceIndex).
const IndexNamespace = "namespace"

// IndexNodeName indexes pods by spec.nodeName.
const IndexNodeName = "spec.nodeName"

// PodNodeNameIndex is the IndexFunc for IndexNodeName.
func PodNodeNameIndex(p *api.Pod) []string { return []string{p.Spec.NodeName} }

// AddIndexer adds a named index (call before Sync).
func (inf *Informer[T, PT]) AddIndexer(name string, fn IndexFunc[PT]) {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	inf.indexers[name] = fn
	inf.indices[name] = map[string]keySet{}
	for key, obj := range inf.items {
		inf.indexLocked(name, fn, key, obj)
	}
}

// AddHandler registers a handler. Objects already in the cache are delivered to it as adds, as
// client-go does for a handler added to a running informer.
func (inf *Informer[T, PT]) AddHandler(h Handler[PT]) {
	inf.mu.Lock()
	inf.handlers = append(inf.handlers, h)
	existing := inf.sortedLocked(inf.keysLocked())
	inf.mu.Unlock()
	if h.OnAdd != nil {
		for _, obj := range existing {
			h.OnAdd(obj)
		}
	}
}

// Sync lists the resource, replaces the cache and opens the watch from the list's resourceVersion.
func (inf *Informer[T, PT]) Sync(ctx context.Context) error {
	items, rv, err := inf.resource.listShared(ctx, inf.namespace, inf.opts)
	if err != nil {
		return err
	}
	inf.replace(items, rv)
	return inf.rewatch(ctx)
}

func (inf *Informer[T, PT]) rewatch(ctx context.Context) error {
	opts := inf.opts
	inf.mu.RLock()
	opts.ResourceVersion = inf.lastRV
	inf.mu.RUnlock()
	opts.AllowWatchBookmarks = true
	w, err := inf.resource.Watch(ctx, inf.namespace, opts)
	if err != nil {
		return err
	}
	inf.mu.Lock()
	if inf.watcher != nil {
		inf.watcher.Stop()
	}
	inf.watcher = w
	inf.lastErr = ""
	inf.mu.Unlock()
	return nil
}

// replace makes the cache equal to a fresh list, telling handlers what appeared, changed and vanished
// (the informer's "resync after relist").
func (inf *Informer[T, PT]) replace(items []PT, rv string) {
	fresh := make(map[string]PT, len(items))
	for _, obj := range items {
		fresh[obj.GetObjectMeta().Key()] = obj
	}
	inf.mu.Lock()
	var gone []PT
	for _, key := range inf.sortedKeysLocked() {
		if _, ok := fresh[key]; !ok {
			gone = append(gone, inf.items[key])
		}
	}
	inf.mu.Unlock()
	for _, obj := range gone {
		inf.apply(wire.Deleted, obj)
	}
	for _, obj := range items {
		inf.apply(wire.Added, obj)
	}
	inf.mu.Lock()
	inf.lastRV, inf.synced = rv, true
	inf.mu.Unlock()
}

// apply puts one change into the cache and calls the handlers. An ADDED for a key already cached
// (after a relist) is an update, as in client-go.
func (inf *Informer[T, PT]) apply(t wire.EventType, obj PT) {
	key := obj.GetObjectMeta().Key()
	inf.mu.Lock()
	old, had := inf.items[key]
	if t == wire.Deleted {
		if !had {
			inf.mu.Unlock()
			return
		}
		inf.unindexLocked(key, old)
		delete(inf.items, key)
		inf.detector.leaving(inf.name, key, old)
	} else {
		if had {
			if old.GetObjectMeta().ResourceVersion == obj.GetObjectMeta().ResourceVersion {
				inf.mu.Unlock()
				return // a relist returned what we already have
			}
			inf.unindexLocked(key, old)
			inf.detector.leaving(inf.name, key, old)
		}
		inf.items[key] = obj
		inf.detector.cached(key, obj)
		for name, fn := range inf.indexers {
			inf.indexLocked(name, fn, key, obj)
		}
	}
	handlers := inf.handlers
	inf.mu.Unlock()
	for _, h := range handlers {
		switch {
		case t == wire.Deleted && h.OnDelete != nil:
			h.OnDelete(obj) // the final state from the deletion event (after a relist: the last cached one)
		case t != wire.Deleted && had && h.OnUpdate != nil:
			h.OnUpdate(old, obj)
		case t != wire.Deleted && !had && h.OnAdd != nil:
			h.OnAdd(obj)
		}
	}
}

// Pump applies every event that has arrived, without waiting, re-watching or relisting as needed. It
// returns how many events it applied. The step driver calls it until every informer is idle.
func (inf *Informer[T, PT]) Pump(ctx context.Context) (int, error) {
	n := 0
	for {
		inf.mu.RLock()
		w := inf.watcher
		inf.mu.RUnlock()
		if w == nil {
			return n, fmt.Errorf("informer %s: Pump before Sync", inf.name)
		}
		ev, ok := w.TryNext()
		if ok {
			inf.handle(ev)
			n++
			continue
		}
		if !w.Done() {
			return n, nil
		}
		if err := inf.recover(ctx); err != nil {
			// The apiserver is unreachable (or refuses us): keep the cache as it is and try again on
			// the next Pump, as a reflector retries with backoff. Running components keep working from
			// what they last saw.
			inf.noteFailure(err)
			return n, nil
		}
	}
}

// noteFailure records a failed re-watch in the trace, once per distinct error.
func (inf *Informer[T, PT]) noteFailure(err error) {
	inf.mu.Lock()
	repeat := inf.lastErr == err.Error()
	inf.lastErr = err.Error()
	inf.mu.Unlock()
	if !repeat {
		inf.trace.Record(trace.Event{Component: inf.componentName(), Action: "watch", Code: apierrors.CodeForError(err)}.
			Msgf("%s: watch failed, will retry: %v", inf.name, err))
	}
}

// Run applies events as they arrive until ctx ends (real-time mode).
func (inf *Informer[T, PT]) Run(ctx context.Context) {
	for ctx.Err() == nil {
		inf.mu.RLock()
		w := inf.watcher
		inf.mu.RUnlock()
		if w == nil {
			if err := inf.Sync(ctx); err != nil {
				inf.clock.Sleep(time.Second)
			}
			continue
		}
		ev, ok := w.Next(ctx)
		if ok {
			inf.handle(ev)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if err := inf.recover(ctx); err != nil {
			inf.clock.Sleep(time.Second) // the apiserver is unreachable: try again shortly
		}
	}
}

func (inf *Informer[T, PT]) handle(ev wire.WatchEvent) {
	rv := strconv.FormatInt(ev.ResourceVersion, 10)
	if ev.Type != wire.Bookmark {
		inf.apply(ev.Type, ev.Object.(PT))
	}
	inf.mu.Lock()
	inf.lastRV = rv
	inf.mu.Unlock()
}

// recover reopens a watch that ended: from the last resourceVersion if the apiserver still has the
// history, else (410 Gone) by listing everything again.
func (inf *Informer[T, PT]) recover(ctx context.Context) error {
	err := inf.rewatch(ctx)
	if err == nil || !apierrors.IsResourceExpired(err) {
		return err
	}
	inf.mu.Lock()
	inf.relists++
	lastRV := inf.lastRV
	inf.mu.Unlock()
	inf.trace.Record(trace.Event{Component: inf.componentName(), Action: "relist", Code: 410}.
		Msgf("%s: watch from resourceVersion %s answered 410 Gone (%s): listing everything again", inf.name, lastRV, err.Error()))
	return inf.Sync(ctx)
}

func (inf *Informer[T, PT]) componentName() string { return inf.resource.dyn.c.agent }

// Stop closes the watch.
func (inf *Informer[T, PT]) Stop() {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	if inf.watcher != nil {
		inf.watcher.Stop()
		inf.watcher = nil
	}
	if inf.detector != nil {
		for key, obj := range inf.items {
			inf.detector.check(inf.name, key, obj)
		}
	}
}

// Disconnect drops the watch as a broken connection would, keeping the cache and the last
// resourceVersion: the next Pump or Run resumes from there (the watch-resume scenario).
func (inf *Informer[T, PT]) Disconnect() {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	if inf.watcher != nil {
		inf.watcher.Stop()
	}
}

// HasSynced reports whether the first list has been applied.
func (inf *Informer[T, PT]) HasSynced() bool {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	return inf.synced
}

// LastResourceVersion is the resourceVersion the informer would resume from.
func (inf *Informer[T, PT]) LastResourceVersion() string {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	return inf.lastRV
}

// Relists counts how many times the informer had to list again after a 410.
func (inf *Informer[T, PT]) Relists() int {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	return inf.relists
}

// Pending is how many events have arrived but not been applied.
func (inf *Informer[T, PT]) Pending() int {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	if inf.watcher == nil {
		return 0
	}
	return inf.watcher.Pending()
}

// Get returns the cached object with this key ("namespace/name" or "name").
func (inf *Informer[T, PT]) Get(key string) (PT, bool) {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	obj, ok := inf.items[key]
	return obj, ok
}

// List returns every cached object, sorted by key.
func (inf *Informer[T, PT]) List() []PT {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	return inf.sortedLocked(inf.keysLocked())
}

// ByIndex returns the cached objects whose index value is v, sorted by key.
func (inf *Informer[T, PT]) ByIndex(index, v string) []PT {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	keys := make([]string, 0, len(inf.indices[index][v]))
	for k := range inf.indices[index][v] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]PT, 0, len(keys))
	for _, k := range keys {
		out = append(out, inf.items[k])
	}
	return out
}

// Len is the number of cached objects.
func (inf *Informer[T, PT]) Len() int {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	return len(inf.items)
}

func (inf *Informer[T, PT]) keysLocked() []string {
	keys := make([]string, 0, len(inf.items))
	for k := range inf.items {
		keys = append(keys, k)
	}
	return keys
}

func (inf *Informer[T, PT]) sortedKeysLocked() []string {
	keys := inf.keysLocked()
	sort.Strings(keys)
	return keys
}

func (inf *Informer[T, PT]) sortedLocked(keys []string) []PT {
	sort.Strings(keys)
	out := make([]PT, 0, len(keys))
	for _, k := range keys {
		out = append(out, inf.items[k])
	}
	return out
}

func (inf *Informer[T, PT]) indexLocked(name string, fn IndexFunc[PT], key string, obj PT) {
	for _, v := range fn(obj) {
		set := inf.indices[name][v]
		if set == nil {
			set = keySet{}
			inf.indices[name][v] = set
		}
		set[key] = struct{}{}
	}
}

func (inf *Informer[T, PT]) unindexLocked(key string, obj PT) {
	for name, fn := range inf.indexers {
		for _, v := range fn(obj) {
			delete(inf.indices[name][v], key)
			if len(inf.indices[name][v]) == 0 {
				delete(inf.indices[name], v)
			}
		}
	}
}

// InformerHandle is an informer of any kind, as the code that runs components sees it: sync it once,
// then either Pump it (step mode) or Run it (real time).
type InformerHandle interface {
	Sync(ctx context.Context) error
	Pump(ctx context.Context) (int, error)
	Run(ctx context.Context)
	HasSynced() bool
	// View is the cache as it stands, for a person to compare with etcd (kubesim's cache command).
	View() CacheView
}

// CacheView is what an informer holds: its resource, the resourceVersion it has caught up to, and its
// objects sorted by key (shared with the cache: never modify them).
type CacheView struct {
	Name            string // "kube-scheduler pods"
	Resource        string // "pods"
	ResourceVersion string
	// Selection is what the informer lists of the resource ("" = all of it): a namespace, a label or
	// a field selector (a kubelet's pods: spec.nodeName=node-1).
	Selection string
	Objects   []api.Object
}

// View returns what the informer holds now.
func (inf *Informer[T, PT]) View() CacheView {
	inf.mu.RLock()
	defer inf.mu.RUnlock()
	v := CacheView{Name: inf.name, Resource: inf.resource.dyn.res.Name, ResourceVersion: inf.lastRV}
	var sel []string
	if inf.namespace != "" {
		sel = append(sel, "namespace "+inf.namespace)
	}
	for _, s := range []string{inf.opts.LabelSelector, inf.opts.FieldSelector} {
		if s != "" {
			sel = append(sel, s)
		}
	}
	v.Selection = strings.Join(sel, ", ")
	for _, obj := range inf.sortedLocked(inf.keysLocked()) {
		v.Objects = append(v.Objects, obj)
	}
	return v
}

var _ InformerHandle = (*Informer[api.Pod, *api.Pod])(nil)
