// play.go: playing a scenario from start to end, narrated: what `kubesim run NAME` does.
package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/narrate"
	"kubesim/trace"
)

// PlayOptions say how to play a scenario.
type PlayOptions struct {
	Seed    int64
	Narrate narrate.Options
	Out     io.Writer
	// Pause, if set, runs between the scenario's steps, after each unit of work, and before each
	// action a breakpoint names (the CLI's prompt runs here). It returns false to stop the run there
	// (the learner typed q).
	Pause func(Pause) bool
	// Breaks are breakpoints before actions (breakpoint.go): the run pauses there, or, without
	// Pause, stops there.
	Breaks []Breakpoint
	// Until, if set, is a breakpoint: the run stops as soon as the condition holds (checked after
	// every step), and that counts as success. A condition that never holds fails the run.
	Until Condition
	// MaxSteps, if positive, stops the run after that many units of work.
	MaxSteps int
	// Speed, if positive, plays the scenario in real time instead of step mode: every component on
	// its own goroutines, the wall clock sped up Speed times. The trace then varies from run to run.
	Speed float64
	// Configure, if set, changes the scenario's cluster before it boots: a learner's component in the
	// place of a built-in one (package lab's swaps). It must copy what it changes of the scenario's
	// own Config (slices, maps) rather than write into it.
	Configure func(*Config)
	// Record, if set, receives every event of the story as it is told, shown or not (a story diff
	// reads them).
	Record func(trace.Event)
}

// Pause is where a paused run stands.
type Pause struct {
	Cluster *Cluster
	// Why is what the breakpoint stopped before ("scheduler bind: kube-scheduler is about to create
	// pods/binding default/web-1"); "" for a pause after a unit of work or between steps.
	Why string
	// Quiet is set when the story told nothing since the last pause: a prompt may skip such a pause.
	Quiet bool
	// Headings counts the headings the text story has told so far (sections, and the short story's
	// steps of the timeline): a prompt's section runs until it grows.
	Headings int
}

// errStopped ends a run that stopped where the learner asked: a breakpoint, MaxSteps, or Pause.
var errStopped = errors.New("stopped where the learner asked")

// ErrInterrupted is the error of a run whose context was cancelled from outside (Ctrl-C, SIGTERM):
// the scenario neither passed nor failed.
var ErrInterrupted = errors.New("interrupted")

// toldError is an error the text story already told in its last line.
type toldError struct{ error }

func (e toldError) Unwrap() error { return e.error }

// ToldInStory reports whether err, returned by Play, was already told in the text story's last line,
// so a CLI printing that story on the same terminal need not repeat it.
func ToldInStory(err error) bool {
	var told toldError
	return errors.As(err, &told)
}

// Play builds a fresh cluster, plays the scenario on it with its story written to o.Out, and returns
// the scenario's verdict: nil when every expected sign was seen, or the run stopped where it was asked
// to (the breakpoint held, MaxSteps, Pause said stop); an error wrapping ErrInterrupted when ctx was
// cancelled; else the failure.
func Play(ctx context.Context, sc Scenario, o PlayOptions) error {
	if sc.Verbose {
		o.Narrate.Verbose, o.Narrate.Short = true, false
	}
	if o.Speed > 0 && sc.StepOnly {
		return fmt.Errorf("scenario %s plays in step mode only (its signs are counted in steps or exact cluster times): leave out --speed", sc.Name)
	}
	if o.Narrate.Catalog == nil {
		o.Narrate.Catalog = Catalog(sc.ZH)
	}
	say, fit := o.Narrate.Sprintf, o.Narrate.Fit
	told := &countingWriter{w: o.Out}
	o.Out = told
	n, err := narrate.New(o.Out, o.Narrate)
	if err != nil {
		return err
	}
	text := o.Narrate.Format == "" || o.Narrate.Format == "text"
	if text {
		mode := say("step mode")
		if o.Speed > 0 {
			mode = say("real time at %gx", o.Speed)
		}
		summary := sc.Summary
		if o.Narrate.Lang == "zh" && sc.SummaryZH != "" {
			summary = sc.SummaryZH
		}
		fmt.Fprintf(o.Out, "%s\n%s\n\n", fit(say("scenario %s: %s", sc.Name, summary)), fit(say("cluster: %s, %s, seed %d", sc.Cluster.describe(), mode, o.Seed)))
	}
	// After a stop or an interruption the scenario unwinds (its requests fail on the cancelled
	// context, its checks fail); the story ends where the run stopped, so nothing after it is told.
	var (
		stopOnce   sync.Once
		stopReason string // set once, before stopped
		stopped    atomic.Bool
		byMaxSteps bool // set with stopReason
	)
	cfg := sc.Cluster
	if o.Configure != nil {
		o.Configure(&cfg)
	}
	cfg.Mode, cfg.Seed, cfg.KeepTrace = StepMode, o.Seed, false
	if o.Pause != nil && cfg.JournalLines == 0 {
		cfg.JournalLines = PromptJournalLines // the prompt's journalctl -u kubelet
	}
	if o.Speed > 0 {
		cfg.Mode, cfg.Speed = RealTime, o.Speed
	}
	// In real time, components keep recording on their own goroutines until the cluster is closed,
	// after Play returns: once the story is told (closed), nothing more reaches the narrator.
	var (
		narrMu sync.Mutex
		closed bool // guarded by narrMu
	)
	cfg.Observe = func(e trace.Event) {
		narrMu.Lock()
		defer narrMu.Unlock()
		if !closed && !stopped.Load() && ctx.Err() == nil {
			n.Event(e)
			if o.Record != nil {
				o.Record(e)
			}
		}
	}
	c, err := New(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w while the cluster started: %w", ErrInterrupted, context.Cause(ctx))
		}
		return err
	}
	defer c.Close()

	// MaxSteps counts the scenario's units of work, not the boot's.
	bootSteps := c.Driver.Steps()
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s := NewSession(c)
	// stop ends the run where the learner asked; action names why in the trace: breakpoint, steps
	// (MaxSteps) or quit (Pause).
	stop := func(action, format string, args ...any) {
		stopOnce.Do(func() {
			stopReason, byMaxSteps = say(format, args...), action == "steps"
			c.Trace.Record(trace.Event{Component: "kubesim", Action: action}.Msgf(format, args...))
			stopped.Store(true)
			cancel(errStopped)
		})
	}
	// pause asks o.Pause, with the story told up to here.
	var toldAtPause int64
	pause := func(why string) bool {
		narrMu.Lock()
		narrate.Flush(n)
		narrMu.Unlock()
		quiet := told.n.Load() == toldAtPause
		ok := o.Pause(Pause{Cluster: c, Why: why, Quiet: quiet, Headings: int(told.headings.Load())})
		toldAtPause = told.n.Load()
		return ok
	}
	if len(o.Breaks) > 0 {
		c.OnBreak(o.Breaks, func(why string) {
			if stopped.Load() {
				return
			}
			c.Trace.Record(trace.Event{Component: "kubesim", Action: "break"}.Msgf("breakpoint %s", why))
			switch {
			case o.Pause == nil:
				stop("breakpoint", "stopped before %s", why)
			case !pause(why):
				stop("quit", "stopped at the prompt")
			}
		})
	}
	check := func() {
		if stopped.Load() {
			return
		}
		if o.Until != nil {
			if met, err := o.Until.Met(ctx, c); err == nil && met {
				stop("breakpoint", "stopped at the breakpoint: %s holds", o.Until)
				return
			}
		}
		if o.MaxSteps > 0 && c.Driver.Steps()-bootSteps >= o.MaxSteps {
			stop("steps", "stopped after %d steps", o.MaxSteps)
			return
		}
		if o.Pause != nil && !pause("") {
			stop("quit", "stopped at the prompt")
		}
	}
	c.Driver.AfterStep = check
	s.pause = check
	runErr := sc.Run(runCtx, s)
	since := c.Trace.Since().Round(time.Millisecond)
	interrupted := ctx.Err() != nil
	switch {
	case interrupted:
		runErr = fmt.Errorf("%w after %s of cluster time: %w", ErrInterrupted, since, context.Cause(ctx))
	case stopped.Load() && byMaxSteps && o.Until != nil:
		runErr = fmt.Errorf("%s never held: the run %s (--steps) first", o.Until, stopReason)
	case stopped.Load():
		runErr = nil
	case runErr == nil && o.Until != nil:
		runErr = fmt.Errorf("%s never held: the scenario ran to its end first, after %s of cluster time", o.Until, since)
	}
	narrMu.Lock()
	closed = true
	narrMu.Unlock()
	if err := n.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if !text {
		return runErr
	}
	switch {
	case interrupted:
		fmt.Fprintf(o.Out, "\n%s\n", fit(say("interrupted after %s of cluster time.", since)))
	case runErr != nil:
		fmt.Fprintf(o.Out, "\n%s\n", fit(narrate.ElideRepeats(say("scenario %s failed: %v", sc.Name, runErr))))
	case stopped.Load():
		fmt.Fprintf(o.Out, "\n%s\n", fit(say("%s (%s of cluster time).", stopReason, since)))
	default:
		fmt.Fprintf(o.Out, "\n%s\n", fit(say("done in %s of cluster time: every expected sign was seen.", since)))
	}
	if runErr != nil {
		return toldError{runErr}
	}
	return nil
}

// countingWriter counts what the story has told, so a pause knows whether anything is new, and its
// headings, so a prompt can run to the next one.
type countingWriter struct {
	w        io.Writer
	n        atomic.Int64
	headings atomic.Int64
	midLine  bool // the last write did not end its line; guarded by the narrator's lock
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	for _, line := range bytes.SplitAfter(p[:n], []byte("\n")) {
		if !c.midLine && isHeading(line) {
			c.headings.Add(1)
		}
		c.midLine = len(line) > 0 && line[len(line)-1] != '\n'
	}
	return n, err
}

// isHeading reports whether a line of the text story is a heading: "── 1. kubectl apply ... ──" or
// the short story's "▸ the scheduler ...", perhaps in bold.
func isHeading(line []byte) bool {
	line = bytes.TrimPrefix(line, []byte("\x1b[1m"))
	return bytes.HasPrefix(line, []byte("── ")) || bytes.HasPrefix(line, []byte("▸ "))
}
