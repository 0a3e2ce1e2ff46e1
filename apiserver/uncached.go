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

// previous is the object an etcd change of an uncached resource replaced (nil for a create), read
// from the change itself since the cache keeps no state: after a delete etcd reports the last value,
// after an update the value before it.
func (c *watchCache) previous(rc *resourceCache, ev store.Event) api.Object {
	kv := ev.PrevKV
	if ev.Type == store.Delete {
		kv = &ev.KV
	}
	if kv == nil {
		return nil
	}
	obj := rc.res.NewObject()
	if err := json.Unmarshal(kv.Value, obj); err != nil {
		return nil
	}
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(kv.ModRevision, 10)
	return obj
}

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
