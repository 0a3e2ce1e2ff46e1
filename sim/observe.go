// observe.go: the one way scenarios, lab and tests look at a cluster and wait for it.
//
//   - Wait: run the cluster until a Condition holds, within a budget of cluster time and units of
//     work. Check turns a Go function into a Condition, AllOf joins several. Seen says what a
//     condition that does not hold sees instead ("2 pods ImagePullBackOff, 1 Running").
//   - CatchUp: let the cluster react to what was just done before checking anything, so that a check
//     reads the cluster's answer and not the instant before it.
//   - List, Get, Objects: read objects as `kubectl get` would, quietly (the simulator looking is not
//     part of the story: an administrator identity of its own whose requests stay out of the trace).
//   - FindEvent, CountEvents: the events among them with a reason and a message.
//   - Events: the events as a list of them reads them (from etcd: the watch cache keeps none), each
//     decoded once while etcd holds the same bytes for it, for conditions asked after every step.
//   - Tap, FindLine: the trace lines the components record (what `journalctl -u kubelet` would show).
//
// Session.Until (scenario.go) is Wait as a scenario uses it: a wait that does not end is an unmet sign.
package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/store"
	"kubesim/trace"
	"kubesim/wire"
)

// Condition is a state of the cluster that can be checked at any moment.
type Condition interface {
	// String names the condition ("deployment nginx available").
	String() string
	// Met reports whether the cluster is in that state now.
	Met(ctx context.Context, c *Cluster) (bool, error)
}

// Check is a Condition written in Go: what names it, met checks it.
func Check(what string, met func() (bool, error)) Condition { return check{what, met} }

type check struct {
	what string
	met  func() (bool, error)
}

func (f check) String() string                              { return f.what }
func (f check) Met(context.Context, *Cluster) (bool, error) { return f.met() }

// AllOf holds when every one of conds holds at once.
func AllOf(conds ...Condition) Condition {
	if len(conds) == 1 {
		return conds[0]
	}
	return allOf(conds)
}

type allOf []Condition

func (a allOf) String() string {
	names := make([]string, len(a))
	for i, c := range a {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}

func (a allOf) Met(ctx context.Context, c *Cluster) (bool, error) {
	for _, cond := range a {
		if ok, err := cond.Met(ctx, c); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// Wait runs the cluster until cond holds, for at most within of cluster time (0: MaxWait) and
// maxSteps units of work (0: no limit). It reports whether cond held; a budget spent is not an error
// (a story may expect a pod to stay Pending), a failing component is. A cond that never holds costs
// exactly within of cluster time. In real time it polls while the components run.
func (c *Cluster) Wait(ctx context.Context, cond Condition, within time.Duration, maxSteps int) (bool, error) {
	if within <= 0 {
		within = c.Driver.maxWait()
	}
	return c.Driver.until(ctx, func() (bool, error) { return cond.Met(ctx, c) }, within, maxSteps)
}

// Reporter is a Condition that can say what it sees when it does not hold, in the words of kubectl
// get: "3 pods: 2 Running, 1 ImagePullBackOff", "deployment nginx: 2/3 ready, 2 available".
type Reporter interface {
	Seen(ctx context.Context, c *Cluster) (string, error)
}

// Seen is what cond sees of the cluster now, for the message of a wait that did not end; "" if cond
// cannot say (a Check written in Go).
func Seen(ctx context.Context, c *Cluster, cond Condition) string {
	if parts, ok := cond.(allOf); ok {
		var seen []string
		for _, p := range parts {
			if s := Seen(ctx, c, p); s != "" {
				seen = append(seen, s)
			}
		}
		return strings.Join(seen, "; ")
	}
	r, ok := cond.(Reporter)
	if !ok {
		return ""
	}
	s, err := r.Seen(ctx, c)
	if err != nil {
		return err.Error()
	}
	return s
}

// CatchUp lets the cluster react to what was just done (a kubectl command, a fault) before anything
// is checked: a check made at the instant after a delete still sees every pod Ready, because no
// controller has had its turn. In step mode it runs every unit of work that is due now (each
// informer's events, each reconcile, scheduling cycle and pod sync they lead to) without moving the
// clock. In real time, where nothing tells when the components are done, it lets ReactionTime pass.
func (c *Cluster) CatchUp(ctx context.Context) error {
	d := c.Driver
	if d.real != nil {
		d.real.Sleep(c.reactionTime())
		return d.Settle(ctx)
	}
	for n := 0; ; n++ {
		if n == catchUpMaxSteps {
			return fmt.Errorf("the cluster is still busy after %d units of work at one instant", n)
		}
		did, err := d.stepNow(ctx)
		if err != nil || !did {
			return err
		}
	}
}

// catchUpMaxSteps bounds CatchUp in step mode: components that keep finding work without the clock
// moving are a bug, not a busy cluster.
const catchUpMaxSteps = 10000

// ReactionTime is how long CatchUp waits in real time, in cluster time: long enough for the
// components to take their turn (a watch event, a reconcile, a write), and never less than
// ReactionWallTime of the wall clock, so that a sped-up cluster on a loaded machine still gets it.
const (
	ReactionTime     = 2 * time.Second
	ReactionWallTime = 200 * time.Millisecond
)

func (c *Cluster) reactionTime() time.Duration {
	speed := c.Config.Speed
	if speed <= 0 {
		speed = 1
	}
	return max(ReactionTime, time.Duration(float64(ReactionWallTime)*speed))
}

// observer is the client the simulator reads the cluster with: an administrator (system:masters) of
// its own, on its own connection, whose requests are Quiet: not in the trace.
func (c *Cluster) observer() *client.Client {
	return c.Client("system:kubesim", "kubesim", apiserver.GroupMasters).Quiet()
}

// Objects lists the objects of res in namespace that match selector and name (see MatchName),
// sorted by name, quietly. The objects are the apiserver's cached ones, shared with every other
// reader: read them, never modify them (api.DeepCopy one to change it). Events without a selector
// come from Events, which keeps them decoded between calls: shared the same way.
func (c *Cluster) Objects(ctx context.Context, res *api.Resource, namespace, selector, name string) ([]api.Object, error) {
	if !res.Namespaced {
		namespace = ""
	}
	if res.Name == "events" && selector == "" {
		return c.eventObjects(ctx, namespace, name)
	}
	resp, err := c.observer().Do(ctx, &wire.Request{Verb: wire.VerbList, Resource: res.Name, Namespace: namespace, LabelSelector: selector, Quiet: true})
	if err != nil {
		return nil, err
	}
	var out []api.Object
	for _, obj := range resp.List.Items {
		if MatchName(name, obj.GetObjectMeta().Name) {
			out = append(out, obj)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetObjectMeta().Name < out[j].GetObjectMeta().Name })
	return out, nil
}

// eventObjects is Objects for events without a selector: the Events that Events lists (the same
// etcd range the apiserver's list reads, in the same key order), filtered and sorted as Objects does.
func (c *Cluster) eventObjects(ctx context.Context, namespace, name string) ([]api.Object, error) {
	evs, err := c.Events(ctx, namespace)
	if err != nil {
		return nil, err
	}
	var out []api.Object
	for _, ev := range evs {
		if MatchName(name, ev.Name) {
			out = append(out, ev)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetObjectMeta().Name < out[j].GetObjectMeta().Name })
	return out, nil
}

// List is Objects for one kind: `kubectl get pods -n NAMESPACE -l SELECTOR` ("" for all), the names
// matching name, sorted by name. Like Objects, it returns shared objects: never modify them.
func List[T any, PT client.ObjectPtr[T]](ctx context.Context, c *Cluster, namespace, selector, name string) ([]PT, error) {
	res, _ := api.ResourceOf(PT(new(T)))
	objs, err := c.Objects(ctx, res, namespace, selector, name)
	out := make([]PT, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(PT))
	}
	return out, err
}

// Get reads one object (`kubectl get pod NAME`); it is an error if there is none.
func Get[T any, PT client.ObjectPtr[T]](ctx context.Context, c *Cluster, namespace, name string) (PT, error) {
	objs, err := List[T, PT](ctx, c, namespace, "", name)
	if err == nil && len(objs) == 0 {
		res, _ := api.ResourceOf(PT(new(T)))
		err = fmt.Errorf("%s %q not found", res.Name, name)
	}
	if err != nil {
		return nil, err
	}
	return objs[0], nil
}

// MatchName reports whether name matches pattern: "" matches all, "nginx-*" every name with that
// prefix, anything else only itself.
func MatchName(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == "" || pattern == name
}

// FindEvent is the first event with the reason whose message contains message, or nil.
func FindEvent(events []*api.Event, reason, message string) *api.Event {
	for _, e := range events {
		if e.Reason == reason && strings.Contains(e.Message, message) {
			return e
		}
	}
	return nil
}

// CountEvents counts the events with the reason whose message contains message.
func CountEvents(events []*api.Event, reason, message string) int {
	n := 0
	for _, e := range events {
		if e.Reason == reason && strings.Contains(e.Message, message) {
			n++
		}
	}
	return n
}

// Tap collects the trace lines that match, from the moment it is made: how a story counts what the
// components did (etcd's writes, a kubelet's log) without reading their insides.
type Tap struct {
	match func(trace.Event) bool

	mu    sync.Mutex
	lines []trace.Event // guarded by mu: the matching lines since the tap was made or last Reset
}

// Tap starts collecting the trace lines that match.
func (c *Cluster) Tap(match func(trace.Event) bool) *Tap {
	t := &Tap{match: match}
	c.Trace.Subscribe(func(e trace.Event) {
		if t.match(e) {
			t.mu.Lock()
			t.lines = append(t.lines, e)
			t.mu.Unlock()
		}
	})
	return t
}

// Lines returns the lines collected so far.
func (t *Tap) Lines() []trace.Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]trace.Event(nil), t.lines...)
}

// Reset forgets the lines collected so far.
func (t *Tap) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = nil
}

// FindLine is the first line of component (any, if "") whose message contains text.
func FindLine(lines []trace.Event, component, text string) (trace.Event, bool) {
	for _, e := range lines {
		if (component == "" || e.Component == component) && strings.Contains(e.Message, text) {
			return e, true
		}
	}
	return trace.Event{}, false
}

// eventsRead keeps the Events the last Events call decoded, per etcd prefix, so that the next call
// decodes only those etcd wrote since.
type eventsRead struct {
	mu       sync.Mutex
	byPrefix map[string]map[string]decodedEvent // prefix -> etcd key -> its Event; guarded by mu
}

// decodedEvent is an Event decoded from the exact bytes etcd held for its key at mod.
type decodedEvent struct {
	mod   int64
	value []byte
	event *api.Event
}

// Events lists the Events in namespace ("" for every namespace), in the order of their etcd keys
// (by namespace, then name), as they stand in etcd now: what a quiet `kubectl get events` lists,
// since the apiserver serves a list of events from etcd too (apiserver/uncached.go), decoding each
// the same way (the stored JSON, with resourceVersion the key's ModRevision).
//
// It reads etcd directly rather than through the apiserver, and decodes an Event only when its key
// is new or its bytes or ModRevision changed since the last call: an event condition is asked after
// every step of a wait and events are the most numerous objects, so decoding all of them on every
// check was most of a wait's cost. Comparing the bytes, not just the revision, keeps a restored
// etcd (whose revisions repeat) from showing an Event decoded before. The simplification: a check
// does not pass through the apiserver, so it neither counts in apiserver_request_total nor fails
// when the apiserver alone is unavailable (it fails when etcd does). Like Objects, the Events are
// shared between calls: never modify them.
func (c *Cluster) Events(ctx context.Context, namespace string) ([]*api.Event, error) {
	prefix := "/registry/events/"
	if namespace != "" {
		prefix += namespace + "/"
	}
	kvs, _, err := c.Store.List(ctx, prefix, 0)
	if err != nil {
		return nil, err
	}
	r := &c.eventsRead
	r.mu.Lock()
	defer r.mu.Unlock()
	before := r.byPrefix[prefix]
	now := make(map[string]decodedEvent, len(kvs))
	out := make([]*api.Event, 0, len(kvs))
	for _, kv := range kvs {
		d, ok := before[kv.Key]
		if !ok || d.mod != kv.ModRevision || !bytes.Equal(d.value, kv.Value) {
			if d, err = decodeEvent(kv); err != nil {
				return nil, err
			}
		}
		now[kv.Key] = d
		out = append(out, d.event)
	}
	if r.byPrefix == nil {
		r.byPrefix = map[string]map[string]decodedEvent{}
	}
	r.byPrefix[prefix] = now
	return out, nil
}

// decodeEvent decodes an Event as the apiserver does (apiserver/registry.go, decode).
func decodeEvent(kv store.KV) (decodedEvent, error) {
	ev := &api.Event{}
	if err := json.Unmarshal(kv.Value, ev); err != nil {
		return decodedEvent{}, fmt.Errorf("decoding %s: %w", kv.Key, err)
	}
	ev.ResourceVersion = strconv.FormatInt(kv.ModRevision, 10)
	return decodedEvent{mod: kv.ModRevision, value: kv.Value, event: ev}, nil
}
