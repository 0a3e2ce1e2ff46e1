// resume.go: how a paused run goes on, for whatever asks the learner (the terminal's prompt, the web
// view's buttons). The learner says how far to run; Resume then lets the pauses before that point go
// by without asking again.
//
//	Next(n)        run n units of work that tell something (the prompt's Enter, next N)
//	Continue()     run to the next breakpoint, or the end
//	Until(cond)    run until cond holds
//	Section(p)     run until the story starts its next heading
//	Ask(ctx, p)    true when this pause is the learner's to take
package sim

import "context"

// Resume is a paused run's standing order. The zero value asks at every pause that tells something.
// It belongs to the goroutine that runs the pauses (PlayOptions.Pause).
type Resume struct {
	skip      int       // pauses that tell something still to let go by (next N)
	cont      bool      // until a breakpoint
	until     Condition // until it holds
	section   bool      // until a heading
	sectionAt int       // Pause.Headings when section was asked for
	Held      string    // set by Ask when it stops because until held: the condition's name
}

// Next runs n (at least 1) more units of work that tell something.
func (r *Resume) Next(n int) { *r = Resume{skip: max(n, 1) - 1} }

// Continue runs to the next breakpoint, or the end.
func (r *Resume) Continue() { *r = Resume{cont: true} }

// Until runs until cond holds (or a breakpoint comes first).
func (r *Resume) Until(cond Condition) { *r = Resume{until: cond} }

// Section runs until the story has told its next heading (or a breakpoint comes first).
func (r *Resume) Section(p Pause) { *r = Resume{section: true, sectionAt: p.Headings} }

// Ask reports whether the run stops at p for the learner: always at a breakpoint; otherwise when the
// standing order is done. A pause that told nothing new is never one to ask at.
func (r *Resume) Ask(ctx context.Context, p Pause) bool {
	if p.Why != "" {
		*r = Resume{}
		return true
	}
	switch {
	case r.until != nil:
		if met, err := r.until.Met(ctx, p.Cluster); err != nil || !met {
			return false
		}
		*r = Resume{Held: r.until.String()}
		return true
	case r.section:
		if p.Headings == r.sectionAt {
			return false
		}
	case r.cont || p.Quiet:
		return false
	case r.skip > 0:
		r.skip--
		return false
	}
	*r = Resume{}
	return true
}
