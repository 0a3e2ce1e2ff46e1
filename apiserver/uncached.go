// uncached.go: the resource the watch cache does not hold, Events, as kube-apiserver serves it.
// kube-apiserver's default --watch-cache-sizes gives events no cache: there are many of them, each
// read rarely (kubectl describe, kubectl get events), and they expire after --event-ttl (one hour)
// through an etcd lease. So here:
//   - the cache keeps no current state of events, only its window of recent changes, so that
//     watches of events still come from the cache's one etcd watch and the step driver's wait
//     ("the cache has read revision R") covers their watchers too;
//   - a list of events reads etcd, and a watch of events without a resourceVersion starts from such
//     a list;
//   - every write of an event attaches it to an etcd lease of eventTTL, so etcd deletes it an hour
//     after its last write, and the watchers see it deleted.
package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/store"
	"kubesim/wire"
)

// uncachedResources are the resources whose current state the watch cache does not keep.
var uncachedResources = map[string]bool{"events": true}

// defaultEventTTL is kube-apiserver's --event-ttl.
const defaultEventTTL = time.Hour

// ttlFor is how long etcd keeps an object of res after its last write (0: for ever).
func (s *Server) ttlFor(res *api.Resource) time.Duration {
	if res.Name == "events" {
		return s.eventTTL
	}
	return 0
}

// previous is the object an etcd change of an uncached resource replaced (nil for a create), as far
// as its watchers need it. The cache's etcd watch carries no previous values (store.WithoutPrevious:
// etcd would read one for every update on the watch's stream), so:
//   - after a delete it is the value the key had, which readDeleted read from etcd before the batch
//     was applied; if that revision was compacted already, an object with only its name;
//   - after an update it is the new object itself. kubesim writes an Event again only to count it
//     again (count, lastTimestamp, series), which no field or label selector of events reads, so a
//     watcher's selector matches both or neither, and the watcher sees MODIFIED as it would.
func (c *watchCache) previous(rc *resourceCache, key string, ev store.Event, obj api.Object) api.Object {
	if ev.Type != store.Delete {
		if ev.KV.CreateRevision == ev.KV.ModRevision {
			return nil
		}
		return obj
	}
	gone := rc.res.NewObject()
	if ev.KV.Value == nil || json.Unmarshal(ev.KV.Value, gone) != nil {
		gone = rc.res.NewObject()
		meta := gone.GetObjectMeta()
		meta.Namespace, meta.Name, _ = strings.Cut(key, "/") // the uncached resource, events, is namespaced
	}
	meta := gone.GetObjectMeta()
	meta.ResourceVersion = strconv.FormatInt(ev.KV.ModRevision, 10)
	return gone
}

// readDeleted reads from etcd the value each deleted key of an uncached resource in batch had (at the
// revision before its delete), since the cache neither keeps it nor asks etcd's watch for it. Events
// are deleted when their TTL lease expires or their namespace goes: seldom, next to their writes.
func (c *watchCache) readDeleted(ctx context.Context, st *store.Store, batch []store.Event) {
	for i := range batch {
		ev := &batch[i]
		if ev.Type != store.Delete || ev.KV.Value != nil {
			continue
		}
		if rc, _, err := c.locate(ev.KV.Key); err != nil || !rc.uncached {
			continue
		}
		// Bounded: the cache must not stop following etcd for one read (an etcd without a quorum
		// answers none); unread, the delete still reaches the watchers, as the name it had.
		rctx, cancel := context.WithTimeout(ctx, deletedReadTimeout)
		if kv, err := st.GetAt(rctx, ev.KV.Key, ev.Revision-1); err == nil {
			ev.KV.Value, ev.KV.CreateRevision = kv.Value, kv.CreateRevision
		}
		cancel()
	}
}

// deletedReadTimeout bounds readDeleted's read of one deleted key.
const deletedReadTimeout = 5 * time.Second

// listUncached reads a list of an uncached resource from etcd: a chunk at an exact resourceVersion
// at that revision, anything else as of now (which is never older than what was asked for).
func (s *Server) listUncached(ctx context.Context, req *wire.Request, res *api.Resource, sel selection) (*wire.Response, error) {
	var rev int64
	if req.ResourceVersion != "" && req.ResourceVersion != "0" {
		rv, err := strconv.ParseInt(req.ResourceVersion, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", req.ResourceVersion))
		}
		if req.Limit > 0 {
			rev = rv
		}
	}
	chunk, err := s.listChunk(ctx, res, req.Namespace, sel, "", rev, req.Limit, false)
	if err != nil {
		return nil, err
	}
	return &wire.Response{List: chunk}, nil
}

// watchUncached starts a watch of an uncached resource without a resourceVersion: the current state
// read from etcd as ADDED events, then every change after that read, from the cache.
func (s *Server) watchUncached(ctx context.Context, res *api.Resource, sel selection, bookmarks bool) (*wire.Response, error) {
	chunk, err := s.listChunk(ctx, res, sel.namespace, sel, "", 0, 0, false)
	if err != nil {
		return nil, err
	}
	rev, _ := strconv.ParseInt(chunk.ResourceVersion, 10, 64)
	if err := s.cache.waitFor(ctx, rev); err != nil {
		return nil, apierrors.NewTimeout(fmt.Sprintf("too large resource version: %d", rev))
	}
	w, err := s.cache.watchAfterList(res, sel, chunk.Items, rev, bookmarks)
	if err != nil {
		return nil, err
	}
	return &wire.Response{Watch: w}, nil
}

// watchAfterList opens a watcher that first receives items, a list read from etcd at rev, then every
// change after rev. The cache must have read rev already. If the window no longer reaches back to
// rev (more changes came in between than it holds), the answer is 410 and the client lists again.
func (c *watchCache) watchAfterList(res *api.Resource, sel selection, items []api.Object, rev int64, bookmarks bool) (*Watcher, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, apierrors.NewServiceUnavailable("watch cache is not running: " + c.err.Error())
	}
	return c.open(c.resources[res.Name], sel, items, &rev, bookmarks)
}
