// This file is the store's watch: a stream of the changes under a key
// prefix, starting at a chosen revision.
//
//	EventType, Event    one change (Put or Delete) at one revision
//	(*Store).Watch      start a watch (WithoutPrevious: without what each change replaced)
//	(*Watch).Events     batches of events, in revision order
//	(*Watch).Err        why the stream ended
//	(*Watch).Stop       end it
//
// This is the etcd half of every Kubernetes watch. The kube-apiserver keeps
// one etcd watch per resource (its watch cache, or Cacher) and fans the
// events out to its own clients; when a client asks for a resourceVersion
// whose history etcd has compacted, it answers 410 Gone and the client
// lists again. See k8s.io/apiserver/pkg/storage/etcd3/watcher.go.

package store

import (
	"context"
	"errors"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/storage/mvcc"
)

// EventType says what happened to a key.
type EventType int

const (
	// Put means the key was created or updated.
	Put EventType = iota + 1
	// Delete means the key was deleted.
	Delete
)

// String returns the type as etcdctl prints it.
func (t EventType) String() string {
	switch t {
	case Put:
		return "PUT"
	case Delete:
		return "DELETE"
	}
	return "UNKNOWN"
}

// Event is one change to one key.
type Event struct {
	Type EventType
	// KV is the key after a Put. After a Delete, KV.ModRevision is the
	// revision of the delete and KV.Value the value the key had, which is
	// what a Kubernetes DELETED watch event carries: the last state (nil
	// in a watch WithoutPrevious).
	KV KV
	// PrevKV is the key before the change; nil when a Put created it, and
	// always in a watch WithoutPrevious.
	PrevKV *KV
	// Revision is the revision of the change; it equals KV.ModRevision.
	Revision int64
}

func eventFrom(e *clientv3.Event) Event {
	ev := Event{Type: Put, KV: kvFrom(e.Kv), Revision: e.Kv.ModRevision}
	if e.PrevKv != nil {
		prev := kvFrom(e.PrevKv)
		ev.PrevKV = &prev
	}
	if e.Type == mvccpb.DELETE {
		ev.Type = Delete
		if ev.PrevKV != nil {
			ev.KV.Value = ev.PrevKV.Value
			ev.KV.CreateRevision = ev.PrevKV.CreateRevision
		}
	}
	return ev
}

// Watch is a running watch. Read Events until it is closed, then ask Err
// why.
type Watch struct {
	events chan []Event
	cancel context.CancelFunc
	// done is closed after err is set and before events is closed, so a
	// reader that saw events close also sees err.
	done chan struct{}
	err  error
}

// WatchOption changes what a watch carries.
type WatchOption func(*watchOptions)

type watchOptions struct{ withoutPrevious bool }

// WithoutPrevious leaves out what each change replaced: no PrevKV, and a
// Delete carries its key and revision but not the value the key had. For a
// reader that keeps the current values itself (the apiserver's watch
// cache): etcd reads the previous value of every update and delete at the
// revision before it, one read at a time on the watch's stream, which
// limits how many changes a second the stream can carry.
func WithoutPrevious() WatchOption { return func(o *watchOptions) { o.withoutPrevious = true } }

// Watch streams every change under prefix whose revision is fromRevision or
// later (0 means: every change after Watch returns), each exactly once and
// in revision order. Like Kubernetes, pass a list's revision + 1 to miss
// nothing between a List and its Watch.
//
// The stream ends when ctx is done, on Stop, or on an error: a
// *CompactedError if the revisions it needs were compacted away, which the
// caller answers by listing again.
func (s *Store) Watch(ctx context.Context, prefix string, fromRevision int64, opts ...WatchOption) *Watch {
	var o watchOptions
	for _, opt := range opts {
		opt(&o)
	}
	s.watches.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	// The channel holds some batches, so that forwarding etcd's responses does not wait for each
	// to be read: a reader on a busy machine then takes several at a time (see Events).
	w := &Watch{events: make(chan []Event, watchBuffer), cancel: cancel, done: make(chan struct{})}
	if fromRevision == 0 {
		// etcd's own "now" is when the request reaches the server, which is
		// after Watch returns; pinning it here means a write that completes
		// after Watch returns is never missed.
		rev, err := s.CurrentRevision(ctx)
		if err != nil {
			if ctx.Err() != nil {
				err = nil // stopped before it started
			}
			w.finish(err)
			return w
		}
		fromRevision = rev + 1
	}
	// WithRequireLeader ends the watch when this member loses its leader,
	// instead of leaving it silently stale; the kube-apiserver does the same.
	etcdOpts := []clientv3.OpOption{clientv3.WithPrefix(), clientv3.WithRev(fromRevision)}
	if !o.withoutPrevious {
		etcdOpts = append(etcdOpts, clientv3.WithPrevKV())
	}
	if s.etcd != nil {
		s.watchMember(ctx, w, prefix, fromRevision, !o.withoutPrevious)
		return w
	}
	wch := s.client.Watch(clientv3.WithRequireLeader(ctx), prefix, etcdOpts...)
	go func() { w.finish(w.run(ctx, wch, fromRevision)) }()
	return w
}

// watchMember serves a watch of the embedded member from its own watch stream, in process: the
// events the member's store hands its watchers reach w without passing etcd's gRPC watch server
// and the client's watch goroutines, each a goroutine hop per batch. What a watcher receives is
// the same: etcd's watch server forwards the store's responses as they are, reading each
// previous value at the revision before the change, as here. A single member is always its own
// leader, so there is nothing for WithRequireLeader to end.
func (s *Store) watchMember(ctx context.Context, w *Watch, prefix string, from int64, prev bool) {
	kv := s.etcd.Server.KV()
	ws := kv.NewWatchStream()
	if _, err := ws.Watch(0, []byte(prefix), []byte(clientv3.GetPrefixRangeEnd(prefix)), from); err != nil {
		ws.Close()
		w.finish(err)
		return
	}
	go func() {
		defer ws.Close()
		w.finish(w.runMember(ctx, s.closing, ws, kv, from, prev))
	}()
}

// runMember forwards the member's watch responses until ctx ends, the store closes or the
// watched history is compacted. next is the first revision not yet delivered.
func (w *Watch) runMember(ctx, closing context.Context, ws mvcc.WatchStream, kv mvcc.KV, next int64, prev bool) error {
	for {
		var resp mvcc.WatchResponse
		select {
		case <-ctx.Done():
			return nil
		case <-closing.Done():
			if ctx.Err() != nil {
				return nil
			}
			return errWatchClosed
		case resp = <-ws.Chan():
		}
		if resp.CompactRevision != 0 {
			return &CompactedError{Requested: next, Compacted: resp.CompactRevision}
		}
		if len(resp.Events) == 0 {
			continue
		}
		batch := make([]Event, len(resp.Events))
		for i := range resp.Events {
			e := &resp.Events[i]
			if prev && !(e.Type == mvccpb.PUT && e.Kv.CreateRevision == e.Kv.ModRevision) {
				r, err := kv.Range(ctx, e.Kv.Key, nil, mvcc.RangeOptions{Rev: e.Kv.ModRevision - 1})
				if err == nil && len(r.KVs) != 0 {
					e.PrevKv = &r.KVs[0]
				}
			}
			batch[i] = eventFrom((*clientv3.Event)(e))
		}
		next = batch[len(batch)-1].Revision + 1
		if !w.deliver(ctx, batch) {
			return nil
		}
	}
}

// run forwards etcd's watch responses until ctx ends or the stream fails.
// next is the first revision not yet delivered.
func (w *Watch) run(ctx context.Context, wch clientv3.WatchChan, next int64) error {
	for {
		var resp clientv3.WatchResponse
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case resp, ok = <-wch:
		}
		switch {
		case !ok:
			if ctx.Err() != nil {
				return nil
			}
			return errWatchClosed
		case resp.CompactRevision != 0:
			return &CompactedError{Requested: next, Compacted: resp.CompactRevision}
		case resp.Err() != nil:
			return resp.Err()
		case len(resp.Events) == 0:
			continue // the "created" notification
		}
		batch := make([]Event, len(resp.Events))
		for i, e := range resp.Events {
			batch[i] = eventFrom(e)
		}
		next = batch[len(batch)-1].Revision + 1
		if !w.deliver(ctx, batch) {
			return nil
		}
	}
}

// errWatchClosed ends a watch whose etcd went away under it (the store closed).
var errWatchClosed = errors.New("etcd closed the watch")

// deliver hands batch to the watch's reader, and says false if ctx ended first.
func (w *Watch) deliver(ctx context.Context, batch []Event) bool {
	select {
	case w.events <- batch:
		return true
	case <-ctx.Done():
		return false
	}
}

// finish records why the watch ended and closes its channel.
func (w *Watch) finish(err error) {
	w.err = err
	close(w.done)
	close(w.events)
	w.cancel()
}

// watchBuffer is how many batches a Watch holds that its reader has not taken yet.
const watchBuffer = 256

// Events returns the stream of event batches. A batch holds the events of
// one etcd response, in revision order; batches follow in revision order.
// The channel is closed when the watch ends.
func (w *Watch) Events() <-chan []Event { return w.events }

// Err returns why the watch ended: nil if it was stopped (by Stop or its
// context) or is still running, a *CompactedError if its history was
// compacted, or another error if etcd ended it.
func (w *Watch) Err() error {
	select {
	case <-w.done:
		return w.err
	default:
		return nil
	}
}

// Stop ends the watch and waits until its channel is closed. Events still
// unread are dropped.
func (w *Watch) Stop() {
	w.cancel()
	<-w.done
}
