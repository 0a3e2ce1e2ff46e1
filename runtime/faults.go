// faults.go: what can go wrong with the runtime itself, injected on purpose.
//
//	SetFault(FaultSlow{Delay})   every call first waits Delay of cluster time
//	SetFault(FaultHung{})        every call blocks until the fault is cleared, the caller's ctx ends,
//	                             or RequestTimeout of cluster time passes (then DeadlineExceeded)
//	SetFault(FaultDown{})        every call fails at once: containerd's socket refuses connections
//	SetFault(FaultKill{})        the node crashes: every container dies (exit 255, "Unknown"), every
//	                             sandbox goes NOTREADY, and calls fail as with FaultDown until cleared
//	ClearFault()                 back to normal (for FaultKill: the node has rebooted)
//
// These are the failures a kubelet must survive: a slow or hung containerd makes the PLEG's relist
// late ("PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s") and the node
// NotReady; a dead one makes the runtime conditions false. The containers already running are not
// affected by slow, hung or down: containerd-shim keeps them alive without containerd.

package fakeruntime

import (
	"context"
	"time"
)

// Fault is one of FaultSlow, FaultHung, FaultDown, FaultKill.
type Fault interface{ isFault() }

// FaultSlow makes every call take Delay longer.
type FaultSlow struct{ Delay time.Duration }

// FaultHung makes every call hang.
type FaultHung struct{}

// FaultDown makes every call fail with Unavailable, as when containerd is not running.
type FaultDown struct{}

// FaultKill crashes the node: all containers exit, and the runtime is down until ClearFault.
type FaultKill struct{}

func (FaultSlow) isFault() {}
func (FaultHung) isFault() {}
func (FaultDown) isFault() {}
func (FaultKill) isFault() {}

// containerdSocket is where the kubelet dials containerd (--container-runtime-endpoint).
const containerdSocket = "/run/containerd/containerd.sock"

// pollSlice is how often a waiting call re-checks its context and the fault, in cluster time.
const pollSlice = 100 * time.Millisecond

// SetFault injects f, replacing any fault in force; nil clears it. FaultKill kills every container
// at the moment it is set.
func (r *Runtime) SetFault(f Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fault = f
	r.faultGen++
	if _, ok := f.(FaultKill); ok {
		r.killAllLocked()
	}
	name := "none"
	if f != nil {
		name = faultName(f)
	}
	r.record("fault", "", "runtime fault set to %s", name)
}

// ClearFault removes the fault in force.
func (r *Runtime) ClearFault() { r.SetFault(nil) }

func faultName(f Fault) string {
	switch f := f.(type) {
	case FaultSlow:
		return "slow (" + f.Delay.String() + " per call)"
	case FaultHung:
		return "hung"
	case FaultDown:
		return "down"
	case FaultKill:
		return "node crash"
	}
	return "unknown"
}

// enter is the first thing every CRI method does: it plays the fault in force, the way a call to a
// sick containerd would behave, and returns the error the caller sees, if any. It must be called
// without holding mu.
func (r *Runtime) enter(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctxError(ctx)
	}
	r.mu.Lock()
	f, gen := r.fault, r.faultGen
	r.mu.Unlock()
	switch f := f.(type) {
	case FaultDown, FaultKill:
		return errorf(Unavailable, `connection error: desc = "transport: Error while dialing: dial unix %s: connect: connection refused"`, containerdSocket)
	case FaultSlow:
		if instant(ctx) {
			return nil
		}
		return r.wait(ctx, f.Delay, nil)
	case FaultHung:
		if instant(ctx) {
			return errorf(DeadlineExceeded, "context deadline exceeded")
		}
		stillHung := func() bool {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.faultGen == gen
		}
		if err := r.wait(ctx, r.opts.RequestTimeout, stillHung); err != nil {
			return err
		}
		if stillHung() {
			return errorf(DeadlineExceeded, "context deadline exceeded")
		}
		return r.enter(ctx) // the fault changed while we waited: play the new one
	}
	return nil
}

// wait lets d of cluster time pass, in slices of pollSlice, returning early with the caller's
// context error if ctx ends, or with nil as soon as while (if set) reports false.
//
// It waits with Clock.Sleep: on a Real clock that blocks; on a Virtual clock it advances the
// cluster's time, which is what a call that takes time means in step mode (the step driver cannot
// advance the clock while a component's Step is blocked). So in step mode a pull, a graceful stop or
// a hung call moves everyone's clock forward by the time it takes. wait must be called without mu.
func (r *Runtime) wait(ctx context.Context, d time.Duration, while func() bool) error {
	for d > 0 {
		if ctx.Err() != nil {
			return ctxError(ctx)
		}
		if while != nil && !while() {
			return nil
		}
		s := min(d, pollSlice)
		r.clk.Sleep(s)
		d -= s
	}
	if ctx.Err() != nil {
		return ctxError(ctx)
	}
	return nil
}

type instantKey struct{}

// Instant marks ctx for calls that must take no cluster time: a paused run's crictl, which may look
// but not move the clock (on a virtual clock a slow or hung call advances it). Under it a slow runtime
// answers at once, and a hung one fails at once with the deadline a caller with a short timeout
// meets; a runtime that is down refuses as ever.
func Instant(ctx context.Context) context.Context { return context.WithValue(ctx, instantKey{}, true) }

func instant(ctx context.Context) bool { v, _ := ctx.Value(instantKey{}).(bool); return v }
