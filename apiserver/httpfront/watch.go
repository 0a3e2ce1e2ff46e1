// watch.go: a watch as a stream (k8s.io/apiserver/pkg/endpoints/handlers/watch.go): a 200 response
// whose body is one JSON document per line, {"type": "ADDED", "object": {...}}, flushed as each event
// arrives, until the client goes, the watch's timeout passes, or the apiserver ends it.
//
// A watch from a resourceVersion the cache has already forgotten is not an HTTP error: Kubernetes
// answers 200 and sends one ERROR event whose object is the 410 Status (`too old resource version`),
// which is how a reflector learns to relist. kubesim does the same.
package httpfront

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// defaultWatchTimeout bounds a watch that names no timeoutSeconds (kube-apiserver picks between its
// --min-request-timeout of 30 minutes and twice that).
const defaultWatchTimeout = 30 * time.Minute

// watchEvent is metav1.WatchEvent on the wire.
type watchEvent struct {
	Type   wire.EventType `json:"type"`
	Object any            `json:"object"`
}

func (h *Handler) serveWatch(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route) {
	timeout := defaultWatchTimeout
	if s := r.URL.Query().Get("timeoutSeconds"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			writeError(w, apierrors.NewBadRequest("invalid timeoutSeconds "+strconv.Quote(s)))
			return
		}
		if n > 0 {
			timeout = time.Duration(n) * time.Second
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	resp, err := h.srv.Do(ctx, req)
	if err != nil && apierrors.CodeForError(err) != http.StatusGone {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	send := func(ev watchEvent) bool {
		if err := enc.Encode(ev); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if err != nil { // 410: the stream carries the Status
		send(watchEvent{Type: wire.Error, Object: statusOf(err)})
		return
	}
	defer resp.Watch.Stop()
	if flusher != nil {
		flusher.Flush()
	}
	table, include := wantsTable(r), includeObject(r)
	for {
		ev, ok := resp.Watch.Next(ctx)
		if !ok {
			if err := resp.Watch.Err(); err != nil && ctx.Err() == nil {
				send(watchEvent{Type: wire.Error, Object: statusOf(err)})
			}
			return
		}
		var obj any = ev.Object
		if table && ev.Type != wire.Bookmark {
			obj = h.table(rt.res, []api.Object{ev.Object}, metav1.ListMeta{ResourceVersion: strconv.FormatInt(ev.ResourceVersion, 10)}, include)
		}
		if !send(watchEvent{Type: ev.Type, Object: obj}) {
			return
		}
	}
}
