// tell.go: a trace told in a scenario's story, one trace line per hop, so that a built-in scenario,
// a scenario file's trace step and the prompt's `net trace` tell it alike.
//
//	(Result).Tell(rec)   record each hop as "hop N ok|FAILED: line; line" from "kubesim net trace"
//	(Result).Verdict()   "reached 10.244.0.2 -> ..." or "unreachable at the rules hop: why"
//	ZH                   the Chinese of those lines
package nettrace

import (
	"fmt"
	"strings"

	"kubesim/trace"
)

// Component is the name the story gives the tracer.
const Component = "kubesim net trace"

// Tell records the trace's hops in rec, as story lines.
func (r Result) Tell(rec *trace.Recorder) {
	for i, h := range r.Hops {
		mark := "ok"
		if h.Failed {
			mark = "FAILED"
		}
		rec.Record(trace.Event{Component: Component, Action: h.Kind}.
			Msgf("hop %d %s: %s", i+1, mark, strings.Join(h.Lines, "; ")))
	}
}

// Verdict says in one line how the trace ended.
func (r Result) Verdict() string {
	if r.Reached {
		return "reached " + strings.Join(r.Path, " -> ")
	}
	return fmt.Sprintf("unreachable at the %s hop: %s", r.StoppedAt(), r.Reason)
}

// StoppedAt is the kind of the hop where an unreachable trace stopped ("" when it was reached).
func (r Result) StoppedAt() string {
	if r.Reached || len(r.Hops) == 0 {
		return ""
	}
	return r.Hops[len(r.Hops)-1].Kind
}

// ZH translates the lines Tell records.
var ZH = trace.Catalog{
	"hop %d %s: %s": "第 %d 跳 %s：%s",
}
