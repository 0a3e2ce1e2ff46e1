// Package narrate renders a trace for people and tools: a numbered story in English or Chinese
// (text: short along the article's steps, the whole story, or every gate too), one JSON object per
// line (json), or a Mermaid sequence diagram (mermaid); any of them about one object only (Follow).
// The trace is the same; only the telling differs. No one Kubernetes component mirrors it: it tells
// in one place what a real cluster scatters over the audit log, Events and each component's log.
//
// Read next: kubesim/trace for the event itself, sim for where the trace comes from (Play narrates a
// scenario as it runs), then text.go and short.go for the story.
//
// What it promises:
//
//  1. Every front end tells the same trace the same way: `kubesim run` (through sim.Play), the step
//     mode of `kubesim serve` and the golden stories of package scenarios all narrate through New.
//  2. Chinese comes from the catalogue the caller passes (Options.Catalog), keyed by each event's
//     format; narrate holds no translation of another package's messages.
//  3. It reads events only: it imports trace and clock, never a component or the cluster, so any
//     program holding a trace can tell it.
//
// What it simplifies: a story is told as the events arrive, in one pass; the short story holds back
// at most its last line.
package narrate
