// watcher.go: one open watch. The cache pushes events into the watcher's buffer while it holds its own
// lock, so by the time the cache has read revision R every event up to R is already buffered here; the
// consumer takes them with Next (blocking, real-time mode) or TryNext (the step driver's non-blocking
// drain).
package apiserver

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"kubesim/api"
	"kubesim/wire"
)

// maxBuffered is how far a watcher may fall behind before the apiserver gives up on it, as
// kube-apiserver closes the watch of an unresponsive client; the client then re-watches or relists.
const maxBuffered = 100_000

// Watcher is an open watch on one resource.
type Watcher struct {
	cache     *watchCache
	rc        *resourceCache
	sel       selection
	bookmarks bool

	mu     sync.Mutex
	buf    []wire.WatchEvent // guarded by mu: delivered but not yet taken
	closed bool              // guarded by mu: no more events will be buffered
	err    error             // guarded by mu: why the watch ended, nil if the consumer stopped it
	notify chan struct{}     // has a token whenever buf went from empty to non-empty or the watch closed
}

func newWatcher(c *watchCache, rc *resourceCache, sel selection, bookmarks bool) *Watcher {
	return &Watcher{cache: c, rc: rc, sel: sel, bookmarks: bookmarks, notify: make(chan struct{}, 1)}
}

// offer turns a change into this watcher's view of it. A filtered watch sees an object that starts
// matching as ADDED and one that stops matching as DELETED, as Kubernetes' cacher does.
func (w *Watcher) offer(ce cacheEvent) {
	oldMatch := ce.prev != nil && w.sel.matches(ce.prev)
	newMatch := ce.obj != nil && w.sel.matches(ce.obj)
	switch {
	case newMatch && oldMatch:
		w.push(wire.WatchEvent{Type: wire.Modified, Object: ce.obj, ResourceVersion: ce.rev})
	case newMatch:
		w.push(wire.WatchEvent{Type: wire.Added, Object: ce.obj, ResourceVersion: ce.rev})
	case oldMatch:
		// The last state the watcher saw, stamped with the revision at which it went away.
		gone := api.DeepCopy(ce.prev)
		gone.GetObjectMeta().ResourceVersion = strconv.FormatInt(ce.rev, 10)
		w.push(wire.WatchEvent{Type: wire.Deleted, Object: gone, ResourceVersion: ce.rev})
	}
}

func (w *Watcher) push(ev wire.WatchEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if len(w.buf) >= maxBuffered {
		w.closeLocked(errTooSlow)
		return
	}
	w.buf = append(w.buf, ev)
	w.signal()
}

func (w *Watcher) signal() {
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

// errTooSlow ends a watch whose consumer stopped taking events.
var errTooSlow = errors.New("watch closed: the client fell too far behind")

func (w *Watcher) closeWith(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closeLocked(err)
}

func (w *Watcher) closeLocked(err error) {
	if w.closed {
		return
	}
	w.closed, w.err = true, err
	w.signal()
}

// TryNext returns the next buffered event without waiting. ok is false when nothing is buffered;
// Done then tells whether more can come.
func (w *Watcher) TryNext() (ev wire.WatchEvent, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) == 0 {
		return wire.WatchEvent{}, false
	}
	ev = w.buf[0]
	w.buf[0] = wire.WatchEvent{}
	w.buf = w.buf[1:]
	if len(w.buf) == 0 {
		w.buf = nil
	}
	return ev, true
}

// Next waits for the next event. ok is false when the watch has ended (see Err) or ctx is done.
func (w *Watcher) Next(ctx context.Context) (wire.WatchEvent, bool) {
	for {
		if ev, ok := w.TryNext(); ok {
			return ev, true
		}
		if w.Done() {
			return wire.WatchEvent{}, false
		}
		select {
		case <-w.notify:
		case <-ctx.Done():
			return wire.WatchEvent{}, false
		}
	}
}

// Pending is the number of buffered events.
func (w *Watcher) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.buf)
}

// Done reports that the watch has ended and every buffered event has been taken.
func (w *Watcher) Done() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed && len(w.buf) == 0
}

// Err is why the watch ended: nil after Stop, else the cause (etcd gone, the watcher fell too far
// behind). The client re-watches from its last resourceVersion, or relists on 410.
func (w *Watcher) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Stop ends the watch. It is safe to call more than once.
func (w *Watcher) Stop() {
	w.cache.unregister(w)
	w.closeWith(nil)
}
