// play.go: playing a scenario from start to end, narrated: what `kubesim run NAME` does.
package sim

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"kubesim/sim/narrate"
	"kubesim/trace"
)

// PlayOptions say how to play a scenario.
type PlayOptions struct {
	Seed    int64
	Narrate narrate.Options
	Out     io.Writer
	// Pause, if set, runs between the scenario's steps and after each unit of work (the CLI's --step
	// waits for Enter here).
	Pause func()
	// Until, if set, is a breakpoint: the run stops as soon as the condition holds (checked after
	// every step), and that counts as success.
	Until Condition
	// MaxSteps, if positive, stops the run after that many units of work.
	MaxSteps int
	// Speed, if positive, plays the scenario in real time instead of step mode: every component on
	// its own goroutines, the wall clock sped up Speed times. The trace then varies from run to run.
	Speed float64
}

// errBreakpoint ends a run that reached its breakpoint.
var errBreakpoint = fmt.Errorf("breakpoint reached")

// Play builds a fresh step-mode cluster, plays the scenario on it with its story written to o.Out,
// and returns the scenario's verdict: nil when every expected sign was seen (or the breakpoint was
// reached).
func Play(ctx context.Context, sc Scenario, o PlayOptions) error {
	if sc.Verbose {
		o.Narrate.Verbose = true
	}
	if o.Speed > 0 && sc.StepOnly {
		return fmt.Errorf("scenario %s plays in step mode only (its signs are counted in steps or exact cluster times): leave out --speed", sc.Name)
	}
	if o.Narrate.Catalog == nil {
		o.Narrate.Catalog = Catalog(sc.ZH)
	}
	say, fit := o.Narrate.Sprintf, o.Narrate.Fit
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
		fmt.Fprintf(o.Out, "%s\n%s\n\n", fit(say("scenario %s: %s", sc.Name, sc.Summary)), fit(say("cluster: %s, %s, seed %d", sc.Cluster.describe(), mode, o.Seed)))
	}
	// After a breakpoint the scenario unwinds (its requests fail on the cancelled context); the story
	// ends at the breakpoint, so nothing after it is told.
	var stopped atomic.Bool
	cfg := sc.Cluster
	cfg.Mode, cfg.Seed, cfg.KeepTrace = StepMode, o.Seed, false
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
		if !closed && !stopped.Load() {
			n.Event(e)
		}
	}
	c, err := New(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close()

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s := NewSession(c)
	check := func() {
		if stopped.Load() {
			return
		}
		if o.MaxSteps > 0 && c.Driver.Steps() >= o.MaxSteps {
			c.Trace.Record(trace.Event{Component: "kubesim", Action: "breakpoint"}.Msgf("stopped after %d steps", o.MaxSteps))
			stopped.Store(true)
			cancel(errBreakpoint)
			return
		}
		if o.Until != nil {
			if met, err := o.Until.Met(ctx, c); err == nil && met {
				c.Trace.Record(trace.Event{Component: "kubesim", Action: "breakpoint"}.Msgf("stopped: %s holds", o.Until))
				stopped.Store(true)
				cancel(errBreakpoint)
				return
			}
		}
		if o.Pause != nil {
			o.Pause()
		}
	}
	c.Driver.AfterStep = check
	s.pause = check
	runErr := sc.Run(runCtx, s)
	if stopped.Load() {
		runErr = nil
	}
	narrMu.Lock()
	closed = true
	narrMu.Unlock()
	if err := n.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if text {
		switch {
		case stopped.Load():
			fmt.Fprintf(o.Out, "\n%s\n", fit(say("stopped at the breakpoint after %s of cluster time.", c.Trace.Since().Round(time.Millisecond))))
		case runErr == nil:
			fmt.Fprintf(o.Out, "\n%s\n", fit(say("done in %s of cluster time: every expected sign was seen.", c.Trace.Since().Round(time.Millisecond))))
		default:
			fmt.Fprintf(o.Out, "\n%s\n", fit(narrate.ElideRepeats(say("scenario %s failed: %v", sc.Name, runErr))))
		}
	}
	return runErr
}
