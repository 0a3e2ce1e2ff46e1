// watch.go: an open watch as the client sees it (watch.Interface in apimachinery): a stream of
// events, each naming the resourceVersion at which the change happened.
package wire

import (
	"context"

	"kubesim/api"
)

// EventType is the type of a watch event.
type EventType string

// Watch event types, as on the wire.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	Bookmark EventType = "BOOKMARK"
	Error    EventType = "ERROR"
)

// WatchEvent is one change delivered to a watcher. Object is shared by every watcher that receives the
// event and by the apiserver's cache: it must never be modified (client-go's rule for informer caches).
type WatchEvent struct {
	Type            EventType
	Object          api.Object
	ResourceVersion int64
}

// Watch is an open watch on one resource. Events arrive in resourceVersion order; a consumer takes
// them with Next (blocking, real time) or TryNext (the step driver's non-blocking drain).
type Watch interface {
	// TryNext returns the next buffered event without waiting. ok is false when nothing is buffered;
	// Done then tells whether more can come.
	TryNext() (ev WatchEvent, ok bool)
	// Next waits for the next event. ok is false when the watch has ended (see Err) or ctx is done.
	Next(ctx context.Context) (ev WatchEvent, ok bool)
	// Pending is the number of events buffered and not yet taken.
	Pending() int
	// Done reports that the watch has ended and every buffered event has been taken.
	Done() bool
	// Err is why the watch ended: nil after Stop, else the cause. The client re-watches from its last
	// resourceVersion, or relists when the cause is 410 Gone.
	Err() error
	// Stop ends the watch. It is safe to call more than once.
	Stop()
}
