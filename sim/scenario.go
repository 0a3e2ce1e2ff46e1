// scenario.go: the scenario catalogue. A scenario builds a cluster of a given shape, acts as a learner
// would (kubectl commands, faults), lets the cluster react, and checks the signs a real cluster shows;
// an unmet expectation fails the run. `kubesim list` shows the catalogue, `kubesim describe NAME` what
// one teaches, `kubesim run NAME` plays it.
package sim

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "kubesim/api/errors"
	"kubesim/trace"
)

// Scenario is one entry of the catalogue.
type Scenario struct {
	Name    string
	Summary string // one line, for `kubesim list`
	// Teaches is what `kubesim describe` prints: what happens, and which signs to look for.
	Teaches string
	// Cluster is the shape of the cluster the scenario needs (nodes, which control-plane components);
	// Play fills in the mode, seed and trace.
	Cluster Config
	// Verbose makes the text story show every gate by default (the api-gates scenario is about them).
	Verbose bool
	// StepOnly marks a scenario whose signs are counted in units of work or exact cluster times, or
	// that drives components by hand: it plays in step mode only, not in real time (--speed).
	StepOnly bool
	Run      func(ctx context.Context, s *Session) error
}

var catalogue = map[string]Scenario{}

// Register adds a scenario to the catalogue (at init time).
func Register(s Scenario) {
	if _, dup := catalogue[s.Name]; dup {
		panic("sim: scenario registered twice: " + s.Name)
	}
	catalogue[s.Name] = s
}

// Lookup finds a scenario by name.
func Lookup(name string) (Scenario, bool) {
	s, ok := catalogue[name]
	return s, ok
}

// Scenarios lists the catalogue, sorted by name.
func Scenarios() []Scenario {
	out := make([]Scenario, 0, len(catalogue))
	for _, s := range catalogue {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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

// Err is nil when every expectation held, else an error listing those that did not.
func (s *Session) Err() error {
	if len(s.failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d expectation(s) not met:\n  - %s", len(s.failed), strings.Join(s.failed, "\n  - "))
}
