// record.go: the event recorder (client-go's record.EventRecorder with its EventCorrelator). A
// component reports what it did or what went wrong as an Event about an object
// (`Normal Scheduled: Successfully assigned default/nginx-x2k9p to node-2`); that is what
// `kubectl describe` shows under Events and `kubectl get events` lists.
//
// Like client-go, the recorder aggregates: an identical event (same object, type, reason, message and
// source) seen again within ten minutes is not written anew; the existing Event's count goes up and
// its lastTimestamp moves, which is why a crash-looping pod shows `Back-off restarting failed
// container (x12 over 5m)`. And like client-go's EventSourceObjectSpamFilter, it limits what one
// source says about one object: each (source, object, type) has a bucket of 25 events refilled at one
// every 5 minutes, and an event that finds it empty is dropped (a repeat only raises the count the next
// written one carries). So a ReplicaSet controller scaling one ReplicaSet to 10,000 writes 25
// SuccessfulCreate events, not 10,000. Both memories keep the 4,096 keys last used, as client-go's
// LRU caches do. kubesim simplifications: the write is synchronous (client-go queues it
// and writes in the background, dropping events under pressure), and "similar event" aggregation
// (10 events that differ only in message) is not done.
package client

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/clock"
	"kubesim/trace"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// aggregationWindow is how long an identical event keeps being folded into the first one.
const aggregationWindow = 10 * time.Minute

// client-go's correlator defaults: the spam filter's burst and refill, and the size of its caches.
const (
	spamBurst        = 25
	spamRefill       = 5 * time.Minute
	correlatorLRUMax = 4096
)

// EventRecorder posts Events under a component's identity.
type EventRecorder struct {
	events    Resource[api.Event, *api.Event]
	component string // source.component / reportingComponent: "kube-scheduler", "kubelet"
	host      string // source.host: the node, for kubelets
	clock     clock.Clock
	trace     *trace.Recorder

	mu       sync.Mutex
	seen     *lru[correlatorKey, eventLog]   // guarded by mu: aggregation key -> the Event as last written
	spam     *lru[correlatorKey, spamBucket] // guarded by mu: source, object and type -> what they may still say
	lastNano int64                           // guarded by mu: the timestamp in the last event name, see eventName
}

// eventLog is what the recorder remembers of an Event it wrote, as client-go's eventLogger does:
// enough to write the next repeat, not the whole object (every kubelet would otherwise keep every
// event of every pod it ran). Of the involved object it keeps what a repeat may not change and the
// aggregation key does not hold: its uid and resourceVersion when the Event was first written. The
// timestamps are Unix seconds: an Event's are whole seconds in UTC (api.NewTime), and a kubelet
// remembers a few of its events for every pod it runs.
type eventLog struct {
	name, resourceVersion   string
	involvedUID, involvedRV string
	count                   int32
	first, last             int64
}

// eventTime is an eventLog timestamp as the Event holds it.
func eventTime(unix int64) api.Time { return api.NewTime(time.Unix(unix, 0)) }

// spamBucket is a token bucket of the spam filter.
type spamBucket struct {
	tokens float64
	at     time.Time // when tokens was last brought up to date
}

// allow takes a token if there is one, after adding those refilled since the last call.
func (b *spamBucket) allow(now time.Time) bool {
	b.tokens = min(spamBurst, b.tokens+float64(now.Sub(b.at))/float64(spamRefill))
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// lru is a map that keeps only its max most recently used keys. Its entries form a doubly linked
// list, most recent first, that is threaded through the entries themselves: one allocation per key.
type lru[K comparable, V any] struct {
	max   int
	items map[K]*lruEntry[K, V]
	head  lruEntry[K, V] // sentinel: head.next is the most recent entry, head.prev the oldest
}

type lruEntry[K comparable, V any] struct {
	key        K
	value      V
	prev, next *lruEntry[K, V]
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	c := &lru[K, V]{max: max, items: map[K]*lruEntry[K, V]{}}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

func (c *lru[K, V]) get(key K) (V, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.toFront(e)
	return e.value, true
}

func (c *lru[K, V]) put(key K, value V) {
	if e, ok := c.items[key]; ok {
		e.value = value
		c.toFront(e)
		return
	}
	e := &lruEntry[K, V]{key: key, value: value}
	c.items[key] = e
	c.toFront(e)
	if len(c.items) > c.max {
		oldest := c.head.prev
		oldest.prev.next, oldest.next.prev = oldest.next, oldest.prev
		delete(c.items, oldest.key)
	}
}

// toFront makes e the most recent entry (inserting it if it is in no list yet).
func (c *lru[K, V]) toFront(e *lruEntry[K, V]) {
	if e.prev != nil {
		e.prev.next, e.next.prev = e.next, e.prev
	}
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

// correlatorKey is what the recorder's memories are keyed by: a 128-bit FNV-1a hash of the fields
// client-go joins into its key strings (source, involved object, type, reason and message for the
// aggregation; source, involved object and type for the spam filter). client-go keeps the strings
// themselves; in one process with a recorder per kubelet, each remembering 4,096 keys, the hash keeps
// 16 bytes per key instead of a string of about 200 (the message included), and two different keys
// collide with a probability of about 2^-128.
type correlatorKey [16]byte

func keyOf(parts ...string) correlatorKey {
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	buf := make([]byte, 0, n)
	for _, p := range parts {
		buf = append(append(buf, p...), 0) // a separator no field contains: ("ab", "c") is not ("a", "bc")
	}
	h := fnv.New128a()
	h.Write(buf)
	var k correlatorKey
	h.Sum(k[:0])
	return k
}

// eventName is how Kubernetes names events: <object>.<hex of the timestamp in nanoseconds>. On a
// virtual clock many events share an instant, so the recorder never reuses a timestamp: each name
// takes the next nanosecond after the last one it gave out.
func (r *EventRecorder) eventName(object string, now time.Time) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastNano = max(now.UnixNano(), r.lastNano+1)
	return object + "." + strconv.FormatInt(r.lastNano, 16)
}

// NewEventRecorder returns a recorder for component (and host, for a kubelet).
func NewEventRecorder(c *Client, component, host string, clk clock.Clock, tr *trace.Recorder) *EventRecorder {
	return &EventRecorder{events: For[api.Event](c), component: component, host: host, clock: clk, trace: tr,
		seen: newLRU[correlatorKey, eventLog](correlatorLRUMax), spam: newLRU[correlatorKey, spamBucket](correlatorLRUMax)}
}

// Event records an event about obj. Errors are reported in the trace, never returned: losing an
// event must not stop a controller.
func (r *EventRecorder) Event(ctx context.Context, obj api.Object, eventType, reason, message string) {
	m := obj.GetObjectMeta()
	tm := obj.GetTypeMeta()
	kind, apiVersion := tm.Kind, tm.APIVersion
	if res, ok := api.ResourceOf(obj); ok {
		kind, apiVersion = res.Kind, res.APIVersion()
	}
	ref := api.ObjectReference{Kind: kind, APIVersion: apiVersion, Namespace: m.Namespace, Name: m.Name,
		UID: m.UID, ResourceVersion: m.ResourceVersion}
	namespace := m.Namespace
	if namespace == "" {
		namespace = "default" // events about cluster-scoped objects (nodes) live in default
	}
	now := r.clock.Now()
	key := keyOf(r.component, r.host, ref.Kind, ref.Namespace, ref.Name, eventType, reason, message)
	spamKey := keyOf(r.component, r.host, ref.Kind, ref.Namespace, ref.Name, ref.UID, ref.APIVersion, eventType)

	r.mu.Lock()
	prev, repeat := r.seen.get(key)
	if repeat && now.Sub(eventTime(prev.last).Time) > aggregationWindow {
		repeat = false
	}
	bucket, ok := r.spam.get(spamKey)
	if !ok {
		bucket = spamBucket{tokens: spamBurst, at: now}
	}
	allowed := bucket.allow(now)
	r.spam.put(spamKey, bucket)
	if !allowed {
		if repeat {
			// Seen though not written: the next write of this event carries the count.
			prev.count, prev.last = prev.count+1, api.NewTime(now).Unix()
			r.seen.put(key, prev)
		}
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()

	ev := &api.Event{
		ObjectMeta:     api.ObjectMeta{Namespace: namespace},
		InvolvedObject: ref, Reason: reason, Message: message, Type: eventType,
		Source:         api.EventSource{Component: r.component, Host: r.host},
		FirstTimestamp: api.NewTime(now), LastTimestamp: api.NewTime(now), Count: 1,
		ReportingController: r.component, ReportingInstance: r.host,
	}
	var written *api.Event
	var err error
	if repeat {
		ev.Name, ev.ResourceVersion = prev.name, prev.resourceVersion
		ev.InvolvedObject.UID, ev.InvolvedObject.ResourceVersion = prev.involvedUID, prev.involvedRV
		ev.FirstTimestamp, ev.Count = eventTime(prev.first), prev.count+1
		written, err = r.events.Update(ctx, ev)
	} else {
		// Each try hands the apiserver an Event of its own: ev holds no map, slice or pointer, so a
		// copy of the struct is a whole copy.
		create := func() (*api.Event, error) {
			own := *ev
			own.Name = r.eventName(m.Name, now)
			return r.events.Create(ctx, &own, WriteOptions{HandOver: true})
		}
		written, err = create()
		for tries := 0; apierrors.IsAlreadyExists(err) && tries < 8; tries++ {
			written, err = create() // another component named an event of the same instant
		}
	}
	if err != nil {
		r.trace.Record(trace.Event{Component: r.traceComponent(), Action: "event", Object: resourceName(obj) + "/" + m.Key()}.
			Msgf("could not record event %s %s: %v", eventType, reason, err))
		return
	}
	r.mu.Lock()
	r.seen.put(key, eventLog{name: written.Name, resourceVersion: written.ResourceVersion,
		involvedUID: written.InvolvedObject.UID, involvedRV: written.InvolvedObject.ResourceVersion,
		count: written.Count, first: written.FirstTimestamp.Unix(), last: written.LastTimestamp.Unix()})
	r.mu.Unlock()
	if !r.trace.Enabled() {
		return // nobody reads the trace: its words are not worth making
	}
	object := resourceName(obj) + "/" + m.Key()
	msg := fmt.Sprintf("event %s %s: %s", eventType, reason, message)
	if written.Count > 1 {
		msg += fmt.Sprintf(" (x%d)", written.Count)
	}
	r.trace.Record(trace.Event{Component: r.traceComponent(), Action: "event", Object: object,
		ResourceVersion: m.ResourceVersion}.Msgf("%s", msg))
}

// Eventf is Event with a formatted message.
func (r *EventRecorder) Eventf(ctx context.Context, obj api.Object, eventType, reason, format string, args ...any) {
	r.Event(ctx, obj, eventType, reason, fmt.Sprintf(format, args...))
}

func (r *EventRecorder) traceComponent() string {
	if r.host != "" {
		return r.component + "/" + r.host
	}
	return r.component
}

func resourceName(obj api.Object) string {
	if res, ok := api.ResourceOf(obj); ok {
		return res.Name
	}
	return obj.GetTypeMeta().Kind
}
