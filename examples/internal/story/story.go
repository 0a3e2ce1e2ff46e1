// Package story is what every example under examples/ shares: a step-mode cluster that is the same on
// every run, a way to let it work until something holds, and a printer that tells only the lines of
// the trace that carry the example's idea (the whole trace is `kubesim run NAME -v`).
//
// An example reads as three functions: main (story.Main(run)), run (the cluster it needs, then
// story.Run(w, cfg, tell)) and tell, the story itself; its test calls run with os.Stdout.
package story

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"kubesim/scenarios/manifests"
	"kubesim/script"
	"kubesim/sim"
	"kubesim/trace"
)

// Story is one example's cluster and the reader it tells its story to.
type Story struct {
	Ctx     context.Context
	Cluster *sim.Cluster
	w       io.Writer
	told    int // trace events already looked at by Tell
}

// New boots a step-mode cluster (seed 1, so names and choices are the same on every run).
func New(w io.Writer, cfg sim.Config) (*Story, error) {
	cfg.Mode, cfg.Seed, cfg.KeepTrace = sim.StepMode, 1, true
	ctx := context.Background()
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &Story{Ctx: ctx, Cluster: c, w: w}
	s.told = len(c.Trace.Events()) // the boot is every example's prologue: not retold
	return s, nil
}

// Close stops the cluster.
func (s *Story) Close() { s.Cluster.Close() }

// Run boots cfg's cluster, tells the story on it to w, and stops the cluster.
func Run(w io.Writer, cfg sim.Config, tell func(*Story) error) error {
	s, err := New(w, cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	return tell(s)
}

// Main is an example's main: run tells the story on stdout; an error is printed and exits 1.
func Main(run func(io.Writer) error) {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Until lets the cluster work until a condition (script.ParseCondition's language) holds.
func (s *Story) Until(condition string) error {
	cond, err := script.ParseCondition(condition)
	if err != nil {
		return err
	}
	met, err := s.Cluster.Wait(s.Ctx, cond, 0, 0)
	if err == nil && !met {
		err = fmt.Errorf("still not %s after %s of cluster time", condition, sim.MaxWait)
	}
	return err
}

// Apply is kubectl apply -f of a manifest.
func (s *Story) Apply(manifest string) error {
	_, err := s.Cluster.Kubectl.Apply(s.Ctx, []byte(manifest))
	return err
}

// StartNginx applies the articles' nginx Deployment and lets the cluster work until it is available
// (3/3), every example's usual start.
func (s *Story) StartNginx() error {
	if err := s.Apply(manifests.NginxDeployment); err != nil {
		return err
	}
	return s.Until("deployment nginx available")
}

// Advance lets d of cluster time pass, the components working as it does.
func (s *Story) Advance(d time.Duration) error { return s.Cluster.Driver.Advance(s.Ctx, d) }

// Say prints a line of the narrator's own.
func (s *Story) Say(format string, args ...any) { fmt.Fprintf(s.w, format+"\n", args...) }

// Tell prints the trace lines recorded since the last Tell that match one of the patterns, each
// "component: text" (a component prefix such as "kubelet/" matches every kubelet; an empty text
// matches any line of the component). Detail lines are left out.
func (s *Story) Tell(patterns ...string) {
	events := s.Cluster.Trace.Events()
	for _, e := range events[s.told:] {
		if !e.Detail && matches(e, patterns) {
			fmt.Fprintf(s.w, "  %-9s %-25s %s\n", e.Time, e.Component, e.Message)
		}
	}
	s.told = len(events)
}

func matches(e trace.Event, patterns []string) bool {
	for _, p := range patterns {
		comp, text, _ := strings.Cut(p, ": ")
		if strings.HasPrefix(e.Component, comp) && strings.Contains(e.Message, text) {
			return true
		}
	}
	return false
}
