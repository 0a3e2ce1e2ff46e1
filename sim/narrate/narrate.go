// Package narrate renders a trace for people and tools: a numbered story in English or Chinese
// (text), one JSON object per line (json), or a Mermaid sequence diagram (mermaid). The trace is the
// same; only the telling differs.
//
// Read next: kubesim/trace for the event itself, and sim for where the trace comes from.
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
	Lang   string // "en" (default) or "zh", for text
	// Verbose shows every gate of every request; by default the text story shows the gates of the
	// learner's own requests (identities outside system:) and hides the routine ones of components.
	Verbose bool
	Color   bool // ANSI colours, for a terminal
	Width   int  // wrap messages to this many columns (0 = 110)
}

// Narrator writes events as they happen and finishes the story at the end.
type Narrator interface {
	Event(e trace.Event)
	Close() error
}

// New returns the narrator for o.Format, writing to w.
func New(w io.Writer, o Options) (Narrator, error) {
	switch o.Format {
	case "", "text":
		if o.Lang != "" && o.Lang != "en" && o.Lang != "zh" {
			return nil, fmt.Errorf("unknown language %q: use en or zh", o.Lang)
		}
		return newText(w, o), nil
	case "json":
		return &jsonNarrator{w: w}, nil
	case "mermaid":
		return newMermaid(w), nil
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
