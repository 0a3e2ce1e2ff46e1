// driver.go: the step-mode driver, a discrete-event loop over the real components on the real etcd.
//
// One step:
//  1. settle: wait until the apiserver's watch cache has read etcd's current revision (so every
//     watcher has been handed every change), then pump every informer until none has anything left
//     (so every handler has run and every work queue holds what it should);
//  2. run exactly one unit of work: the first worker, in registration order, that has one (one
//     reconcile, one scheduling cycle, one kubelet sync);
//  3. if nobody had work, jump the virtual clock to the next timer (a backoff, a heartbeat, a probe)
//     and fire it.
//
// Because the order of workers is fixed, every random choice is seeded and all time is virtual, the
// same scenario gives the same trace on every run.
package sim

import (
	"context"
	"fmt"
	"time"

	"kubesim/apiserver"
	"kubesim/clock"
	"kubesim/store"
	"kubesim/trace"
)

// Pumper is an informer as the driver sees it: Pump applies whatever events have arrived.
type Pumper interface {
	Pump(ctx context.Context) (int, error)
}

// Worker is a component as the driver sees it: Step does one unit of work if there is one and
// reports whether it did.
type Worker interface {
	Name() string
	Step(ctx context.Context) (bool, error)
}

// Driver runs components one unit of work at a time.
type Driver struct {
	clock  *clock.Virtual
	server *apiserver.Server
	store  *store.Store
	trace  *trace.Recorder

	pumps   []Pumper
	workers []Worker
	steps   int
	// AfterStep, if set, runs after every unit of work (the CLI's --step waits for Enter here).
	AfterStep func()
}

func newDriver(clk *clock.Virtual, s *apiserver.Server, st *store.Store, tr *trace.Recorder) *Driver {
	return &Driver{clock: clk, server: s, store: st, trace: tr}
}

// AddInformer registers an informer to pump before each step.
func (d *Driver) AddInformer(p Pumper) { d.pumps = append(d.pumps, p) }

// AddWorker registers a component; workers are asked for work in registration order.
func (d *Driver) AddWorker(w Worker) { d.workers = append(d.workers, w) }

// Steps is how many units of work have run.
func (d *Driver) Steps() int { return d.steps }

// Settle brings every informer up to etcd's current revision.
func (d *Driver) Settle(ctx context.Context) error {
	rev, err := d.store.CurrentRevision(ctx)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := d.server.WaitForRevision(wctx, rev); err != nil {
		return fmt.Errorf("watch cache did not reach revision %d: %w", rev, err)
	}
	for {
		moved := 0
		for _, p := range d.pumps {
			n, err := p.Pump(ctx)
			if err != nil {
				return err
			}
			moved += n
		}
		if moved == 0 {
			return nil
		}
	}
}

// Step runs one unit of work, or advances the clock to the next timer when there is none. It returns
// false when the cluster is idle: no work and no timer pending.
func (d *Driver) Step(ctx context.Context) (bool, error) {
	if err := d.Settle(ctx); err != nil {
		return false, err
	}
	for _, w := range d.workers {
		did, err := w.Step(ctx)
		if err != nil {
			return false, fmt.Errorf("%s: %w", w.Name(), err)
		}
		if did {
			d.steps++
			if d.AfterStep != nil {
				d.AfterStep()
			}
			return true, nil
		}
	}
	return d.clock.AdvanceToNext(), nil
}

// RunUntil steps until cond holds, the cluster is idle, or maxSteps units of work have run (0 = no
// limit). It is an error to go idle or run out of steps before cond holds.
func (d *Driver) RunUntil(ctx context.Context, what string, cond func() (bool, error), maxSteps int) error {
	start := d.steps
	for {
		if err := d.Settle(ctx); err != nil {
			return err
		}
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		if maxSteps > 0 && d.steps-start >= maxSteps {
			return fmt.Errorf("still not %s after %d steps", what, maxSteps)
		}
		more, err := d.Step(ctx)
		if err != nil {
			return err
		}
		if !more {
			return fmt.Errorf("the cluster went idle before %s", what)
		}
	}
}

// RunIdle steps until there is no work and no timer left, or until maxSteps.
func (d *Driver) RunIdle(ctx context.Context, maxSteps int) error {
	for i := 0; maxSteps == 0 || i < maxSteps; i++ {
		more, err := d.Step(ctx)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// Advance lets dur of virtual time pass, running every unit of work that comes due on the way.
func (d *Driver) Advance(ctx context.Context, dur time.Duration) error {
	end := d.clock.Now().Add(dur)
	for {
		if err := d.Settle(ctx); err != nil {
			return err
		}
		did := false
		for _, w := range d.workers {
			ok, err := w.Step(ctx)
			if err != nil {
				return fmt.Errorf("%s: %w", w.Name(), err)
			}
			if ok {
				d.steps++
				did = true
				break
			}
		}
		if did {
			continue
		}
		next, ok := d.clock.NextDeadline()
		if !ok || next.After(end) {
			d.clock.Advance(end.Sub(d.clock.Now()))
			return d.Settle(ctx)
		}
		d.clock.AdvanceToNext()
	}
}
