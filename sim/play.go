// play.go: playing a scenario from start to end, narrated: what `kubesim run NAME` does.
package sim

import (
	"context"
	"fmt"
	"io"

	"kubesim/sim/narrate"
)

// PlayOptions say how to play a scenario.
type PlayOptions struct {
	Seed    int64
	Narrate narrate.Options
	Out     io.Writer
	// Pause, if set, runs between the scenario's steps and after each unit of work (the CLI's --step
	// waits for Enter here).
	Pause func()
}

// Play builds a fresh step-mode cluster, plays the scenario on it with its story written to o.Out,
// and returns the scenario's verdict: nil when every expected sign was seen.
func Play(ctx context.Context, sc Scenario, o PlayOptions) error {
	if sc.Verbose {
		o.Narrate.Verbose = true
	}
	n, err := narrate.New(o.Out, o.Narrate)
	if err != nil {
		return err
	}
	text := o.Narrate.Format == "" || o.Narrate.Format == "text"
	if text {
		fmt.Fprintf(o.Out, "scenario %s: %s\ncluster: %d nodes, step mode, seed %d\n\n", sc.Name, sc.Summary, sc.Nodes, o.Seed)
	}
	c, err := New(ctx, Config{Mode: StepMode, Seed: o.Seed, Nodes: sc.Nodes, KeepTrace: false, Observe: n.Event})
	if err != nil {
		return err
	}
	defer c.Close()
	if c.Driver != nil {
		c.Driver.AfterStep = o.Pause
	}
	s := NewSession(c)
	s.pause = o.Pause
	runErr := sc.Run(ctx, s)
	if err := n.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if text {
		if runErr == nil {
			fmt.Fprintf(o.Out, "\ndone in %s of cluster time: every expected sign was seen.\n", c.Trace.Since())
		} else {
			fmt.Fprintf(o.Out, "\nscenario %s failed: %v\n", sc.Name, runErr)
		}
	}
	return runErr
}
