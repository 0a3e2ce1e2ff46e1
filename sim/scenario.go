// scenario.go: what a scenario is, and the Session it plays in. A scenario builds a cluster of a given
// shape, acts as a learner would (kubectl commands, faults), lets the cluster react, and checks the
// signs a real cluster shows; an unmet expectation fails the run. The catalogue lives in package
// scenarios; Play (play.go) plays one.
package sim

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "kubesim/api/errors"
	"kubesim/trace"
)

// Scenario is a story played on a fresh cluster.
type Scenario struct {
	Name    string
	Summary string // one line, for `kubesim list`
	// Teaches is what `kubesim describe` prints: what happens, and which signs to look for.
	Teaches string
	// SummaryZH and TeachesZH are Summary and Teaches in Chinese, for `kubesim list --lang zh` and
	// `kubesim describe --lang zh`; Kubernetes' own words (fields, reasons, commands) stay in English.
	SummaryZH string
	TeachesZH string
	// Cluster is the shape of the cluster the scenario needs (nodes, which control-plane components);
	// Play fills in the mode, seed and trace.
	Cluster Config
	// Verbose makes the text story show every gate by default (the api-gates scenario is about them).
	Verbose bool
	// StepOnly marks a scenario whose signs are counted in units of work or exact cluster times, or
	// that drives components by hand: it plays in step mode only, not in real time (--speed).
	StepOnly bool
	Run      func(ctx context.Context, s *Session) error
	// ZH is the Chinese telling of the scenario's own lines (its step headings and signs).
	ZH trace.Catalog
}

// Session is a scenario being played: the cluster, and the expectations checked so far.
type Session struct {
	*Cluster
	failed []string
	steps  int
	pause  func() // called before each step after the first (--step, breakpoints)
}

// NewSession wraps a cluster for a scenario run.
func NewSession(c *Cluster) *Session { return &Session{Cluster: c} }

// Step announces the next part of the story; narrators show it as a heading.
func (s *Session) Step(format string, args ...any) {
	if s.steps > 0 && s.pause != nil {
		s.pause()
	}
	s.steps++
	s.Trace.Record(trace.Event{Component: "scenario", Action: "step"}.Msgf("%d. "+format, append([]any{s.steps}, args...)...))
}

// Expect checks one sign. A failed check is recorded and fails the run at the end, so a learner sees
// every sign that is missing, not just the first.
func (s *Session) Expect(ok bool, format string, args ...any) {
	sign := fmt.Sprintf(format, args...)
	mark := "✓"
	if !ok {
		mark = "✗"
		s.failed = append(s.failed, sign)
	}
	code := 0
	if !ok {
		code = 1
	}
	// The sign keeps its own format (after the mark), so that a catalogue can translate it.
	s.Trace.Record(trace.Event{Component: "kubesim", Action: "expect", Code: code}.Msgf("%s "+format, append([]any{mark}, args...)...))
}

// ExpectError checks that err is a Kubernetes error with the given HTTP code whose message contains
// message.
func (s *Session) ExpectError(err error, code int, message string) {
	if err == nil {
		s.Expect(false, "%d %s (but the request succeeded)", code, message)
		return
	}
	got := apierrors.CodeForError(err)
	if got == code && strings.Contains(err.Error(), message) {
		s.Expect(true, "%d %s: %s", code, apierrors.ReasonForError(err), message)
		return
	}
	s.Expect(false, "%d %s (got %d %s)", code, message, got, err.Error())
}

// Until runs the cluster until every condition holds at once, for at most within of cluster time (0:
// MaxWait). If they do not, that is an unmet sign, and it returns false.
func (s *Session) Until(ctx context.Context, within time.Duration, conds ...Condition) bool {
	cond := AllOf(conds...)
	met, err := s.Wait(ctx, cond, within, 0)
	switch {
	case err != nil:
		s.Expect(false, "%s: %v", cond, err)
	case !met:
		if seen := Seen(ctx, s.Cluster, cond); seen != "" {
			s.Expect(false, "%s: still not, after %s of cluster time: saw %s", cond, within, seen)
		} else {
			s.Expect(false, "%s: still not, after %s of cluster time", cond, within)
		}
	}
	return met && err == nil
}

// Err is nil when every expectation held, else an error listing those that did not.
func (s *Session) Err() error {
	if len(s.failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d expectation(s) not met:\n  - %s", len(s.failed), strings.Join(s.failed, "\n  - "))
}
