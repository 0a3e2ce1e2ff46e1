// narrate.go: the narrators' common ground.
//
//	Options            how a trace is told: format, language, detail, one object only, colour, width
//	New(w, o)          the Narrator for a format, writing to w
//	Visible(e, v)      whether the text story shows an event
//	Flush(n)           what a narrator holds back, written now (before a pause)
package narrate

import (
	"fmt"
	"io"
	"strings"

	"kubesim/trace"
)

// Options choose how a trace is told.
type Options struct {
	Format string // "text" (default), "json", "mermaid"
	Lang   string // "en" (default) or "zh", for text and mermaid
	// Verbose shows every gate of every request; by default the text story shows the gates of the
	// learner's own requests (identities outside system:) and hides the routine ones of components.
	Verbose bool
	// Short tells the short story (short.go), for a first contact: the article's steps as
	// headings, one of many alike, roll-ups folded. Verbose overrides it.
	Short bool
	// Follow, if set (KIND/NAME, e.g. pod/nginx-77bf8679f9-fbb92), keeps only the lines that touch
	// that object: about it, or naming it.
	Follow string
	Color  bool // ANSI colours, for a terminal
	// Width is the number of terminal columns the text story wraps to: cmd passes the terminal's
	// (TerminalWidth); 0 does not wrap, one line per event, for a pipe, a file, tests and tools that
	// search the story.
	Width int
	// Catalog translates trace formats for Lang "zh" (see trace.Catalog); sim.Catalog merges every
	// component's.
	Catalog trace.Catalog
}

// Narrator writes events as they happen and finishes the story at the end.
type Narrator interface {
	Event(e trace.Event)
	Close() error
}

// New returns the narrator for o.Format, writing to w.
func New(w io.Writer, o Options) (Narrator, error) {
	if o.Lang != "" && o.Lang != "en" && o.Lang != "zh" {
		return nil, fmt.Errorf("unknown language %q: use en or zh", o.Lang)
	}
	switch o.Format {
	case "", "text":
		t := newText(w, o)
		var n Narrator = t
		if o.Short && !o.Verbose {
			n = newShort(t)
		}
		return follow(n, o.Follow)
	case "json":
		return follow(&jsonNarrator{w: w}, o.Follow)
	case "mermaid":
		return follow(newMermaid(w, o), o.Follow)
	}
	return nil, fmt.Errorf("unknown trace format %q: use text, json or mermaid", o.Format)
}

// Visible reports whether the text story shows e: story-level events always; detail events (each gate
// of a request that passed) only for a learner's own requests, or when verbose.
func Visible(e trace.Event, verbose bool) bool {
	if !e.Detail || verbose {
		return true
	}
	return e.Actor != "" && !strings.HasPrefix(e.Actor, "system:")
}

// Flush writes whatever n holds back (the short story keeps its last line until it knows what the
// line wrote to etcd): Play calls it before a pause, so the story shown is the story so far.
func Flush(n Narrator) {
	if f, ok := n.(interface{ flush() }); ok {
		f.flush()
	}
}
