// trace.go: the trace event and the Recorder every component writes to.
//
// A trace event says who acted (component and identity), on what (object and resourceVersion), what it
// did (action), and why (message). The Recorder numbers events in the order they happen and stamps them
// with the time since the scenario started, read from the injected clock, so that in step mode the same
// scenario gives the same trace on every run.
package trace

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/clock"
)

// Event is one line of the trace. Its JSON form (one object per line) is a public contract: tools and
// tests read the fields seq, time, component, action, object, message, and where they apply actor,
// resourceVersion and code.
type Event struct {
	Seq             int64    `json:"seq"`
	Time            Duration `json:"time"`
	Component       string   `json:"component"`
	Actor           string   `json:"actor,omitempty"`
	Action          string   `json:"action"`
	Object          string   `json:"object,omitempty"`
	ResourceVersion string   `json:"resourceVersion,omitempty"`
	Code            int      `json:"code,omitempty"`
	Message         string   `json:"message"`
	// Detail marks the fine-grained steps (each gate of a routine request, each watch delivery) that
	// the text narrator hides unless asked for them; the JSON narrator always shows them.
	Detail bool `json:"detail,omitempty"`

	// format and args are the message before formatting, so that a narrator can tell the same story
	// in another language (see Catalog).
	format string
	args   []any
}

// Msgf sets the message from a format and its arguments and returns the event, so a call site reads
// rec.Record(trace.Event{Component: ..., Action: ...}.Msgf("wants %d, has %d", want, have)).
// The message is formatted when the event is recorded, so an untraced component pays nothing.
func (e Event) Msgf(format string, args ...any) Event {
	e.format, e.args = format, args
	e.Message = ""
	return e
}

// Format returns the message's format string and arguments (the message itself when it was set
// directly).
func (e Event) Format() (string, []any) {
	if e.format == "" {
		return "%s", []any{e.Message}
	}
	return e.format, e.args
}

// Duration is a time.Duration that marshals as a Go duration string ("1m30.5s").
type Duration time.Duration

// MarshalJSON writes the duration as a string such as "1m30.5s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

func (d Duration) String() string { return time.Duration(d).String() }

// Recorder numbers and timestamps events and hands them to its subscribers. A nil *Recorder records
// nothing, so components can run untraced (benchmarks) without checks at every call site.
type Recorder struct {
	clock clock.Clock
	start time.Time

	// mu guards seq, events and subs; subscribers are called with mu held so that they see events
	// in sequence order, hence they must not call back into the Recorder.
	mu     sync.Mutex
	seq    int64
	events []Event
	keep   bool
	subs   []func(Event)
	// read is set once the trace has a reader: keep, or a subscriber. Until then Record drops events
	// without formatting them, so a benchmark's cluster pays nothing for the story nobody reads.
	read atomic.Bool
}

// NewRecorder starts a trace whose times count from clk.Now(). When keep is true the Recorder also keeps
// every event for Events (tests and golden files); long real-time runs pass false.
func NewRecorder(clk clock.Clock, keep bool) *Recorder {
	r := &Recorder{clock: clk, start: clk.Now(), keep: keep}
	r.read.Store(keep)
	return r
}

// Enabled reports whether anyone reads the trace (it is kept, or has a subscriber). A component may
// skip building costly detail lines when it does not; Record drops them anyway.
func (r *Recorder) Enabled() bool { return r != nil && r.read.Load() }

// Record numbers e, stamps it and delivers it; with no reader (Enabled false) it does nothing.
func (r *Recorder) Record(e Event) {
	if !r.Enabled() {
		return
	}
	if e.Message == "" && e.format != "" {
		e.Message = fmt.Sprintf(e.format, e.args...)
	}
	now := r.clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e.Seq = r.seq
	e.Time = Duration(now.Sub(r.start))
	if r.keep {
		r.events = append(r.events, e)
	}
	for _, s := range r.subs {
		s(e)
	}
}

// Subscribe calls fn for every later event, in sequence order.
func (r *Recorder) Subscribe(fn func(Event)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subs = append(r.subs, fn)
	r.read.Store(true)
}

// Events returns a copy of the events kept so far.
func (r *Recorder) Events() []Event {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Since is the time elapsed since the trace started.
func (r *Recorder) Since() time.Duration {
	if r == nil {
		return 0
	}
	return r.clock.Since(r.start)
}
