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

// Driver runs components one unit of work at a time. In real-time mode (real != nil) the components
// run on their own goroutines and the same methods wait on the wall clock instead: Step lets a tick
// of cluster time pass, Advance sleeps, RunUntil polls; so a scenario plays in either mode.
type Driver struct {
	clock  *clock.Virtual
	real   clock.Clock
	server *apiserver.Server
	store  *store.Store
	trace  *trace.Recorder

	pumps   []Pumper
	workers []Worker
	steps   int
	// AfterStep, if set, runs after every unit of work (the CLI's --step waits for Enter here).
	AfterStep func()
	// MaxWait bounds one RunUntil in cluster time (0 = MaxWait, an hour).
	MaxWait time.Duration
}

func newDriver(clk *clock.Virtual, s *apiserver.Server, st *store.Store, tr *trace.Recorder) *Driver {
	return &Driver{clock: clk, server: s, store: st, trace: tr}
}

// newRealTimeDriver waits on a running cluster's (possibly sped-up) wall clock.
func newRealTimeDriver(clk clock.Clock, s *apiserver.Server, st *store.Store, tr *trace.Recorder) *Driver {
	return &Driver{real: clk, server: s, store: st, trace: tr}
}

// tick is how much cluster time a real-time Step lets pass.
const tick = 100 * time.Millisecond

// timeline is the clock the cluster runs on, virtual or real.
func (d *Driver) timeline() clock.Clock {
	if d.real != nil {
		return d.real
	}
	return d.clock
}

func (d *Driver) now() time.Time { return d.timeline().Now() }

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
	if d.real != nil {
		return nil // informers run on their own goroutines
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
	if d.real != nil {
		d.real.Sleep(tick)
		return true, ctx.Err()
	}
	did, err := d.stepNow(ctx)
	if err != nil || did {
		return did, err
	}
	return d.clock.AdvanceToNext(), nil
}

// RunUntil steps until cond holds. It is an error if cond still does not hold after maxSteps units
// of work (0 = no limit) or after MaxWait of cluster time: periodic timers (heartbeats, resyncs) never
// let a cluster go fully idle, so time is the bound that always ends a wait.
func (d *Driver) RunUntil(ctx context.Context, what string, cond func() (bool, error), maxSteps int) error {
	began, first := d.now(), d.steps
	met, err := d.until(ctx, cond, d.maxWait(), maxSteps)
	if err != nil || met {
		return err
	}
	return fmt.Errorf("still not %s after %d steps and %s of cluster time", what, d.steps-first, d.now().Sub(began))
}

// until is the one waiting loop: settle, check cond, else run one step; for at most within of
// cluster time and maxSteps units of work (0: no limit). It reports whether cond held; a budget
// spent is not an error (a story may expect a pod to stay Pending), a failing component is.
func (d *Driver) until(ctx context.Context, cond func() (bool, error), within time.Duration, maxSteps int) (bool, error) {
	began, first := d.now(), d.steps
	// A timer at the deadline: when nothing else is due before it, the jump to the next timer stops
	// there instead of leaping past the budget.
	deadline := d.timeline().AfterFunc(within, func() {})
	defer deadline.Stop()
	for {
		if err := d.Settle(ctx); err != nil {
			return false, err
		}
		if met, err := cond(); err != nil || met {
			return met, err
		}
		if d.now().Sub(began) >= within || maxSteps > 0 && d.steps-first >= maxSteps {
			return false, nil
		}
		if more, err := d.Step(ctx); err != nil || !more {
			return false, err
		}
	}
}

// MaxWait is the default bound on one RunUntil in cluster time.
const MaxWait = time.Hour

func (d *Driver) maxWait() time.Duration {
	if d.MaxWait > 0 {
		return d.MaxWait
	}
	return MaxWait
}

// RunIdle takes up to maxSteps steps (each a unit of work or a jump of the clock to the next timer),
// stopping early if the cluster goes idle: no work and no timer. Components with periodic timers
// (heartbeats, monitors) never go idle, so with them maxSteps is the bound and the clock may move far:
// to wait for something specific, use RunUntil.
func (d *Driver) RunIdle(ctx context.Context, maxSteps int) error {
	for i := 0; maxSteps == 0 || i < maxSteps; i++ {
		more, err := d.Step(ctx)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// RunDue runs every unit of work already due, without moving the clock: the components catch up
// with the last change (at most maxSteps units of work; 0 = no limit). In real time it lets a second
// of cluster time pass instead.
func (d *Driver) RunDue(ctx context.Context, maxSteps int) error {
	if d.real != nil {
		return d.Advance(ctx, time.Second)
	}
	for i := 0; maxSteps == 0 || i < maxSteps; i++ {
		if did, err := d.stepNow(ctx); err != nil || !did {
			return err
		}
	}
	return nil
}

// stepNow settles and runs one unit of work if some component has one; it never moves the clock.
func (d *Driver) stepNow(ctx context.Context) (bool, error) {
	if d.real != nil {
		return false, nil
	}
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
	return false, nil
}

// Advance lets dur of virtual time pass, running every unit of work that comes due on the way.
func (d *Driver) Advance(ctx context.Context, dur time.Duration) error {
	if d.real != nil {
		d.real.Sleep(dur)
		return d.Settle(ctx)
	}
	end := d.clock.Now().Add(dur)
	for {
		did, err := d.stepNow(ctx)
		if err != nil {
			return err
		}
		if did {
			continue
		}
		next, ok := d.clock.NextDeadline()
		if !ok || next.After(end) {
			// A slow etcd write waits in virtual time, so the work may already have carried the
			// clock past end.
			if rest := end.Sub(d.clock.Now()); rest > 0 {
				d.clock.Advance(rest)
			}
			return d.Settle(ctx)
		}
		d.clock.AdvanceToNext()
	}
}
