// cri.go: how long a CRI call takes, and the CRIClock that lets slow calls overlap in step mode.
//
//	NewCRIClock(clk)   the clock to build a node's runtime on
//	(*Kubelet).call    run one runtime call; report the cluster time it took
//
// A real kubelet makes CRI calls from many goroutines: while one pod's image downloads for 3
// seconds, the Lease is renewed, other pods start, and the other nodes pull their images at the same
// moment. The fake runtime models a call that takes time by sleeping on its clock. In real time that
// is exactly right (the kubelet makes those calls off its main loops). In step mode, though, a Sleep
// on the virtual clock moves the whole cluster's time, one node's pull after another's.
//
// A CRIClock fixes that. Built on a virtual clock, it turns the runtime's Sleep into a debt: the call
// returns at once, its clock reading advanced by what it slept, and the kubelet reads the debt back
// (call) and lets that much virtual time pass on a timer before it acts on the result, as a goroutine
// blocked in the call would have. Three nodes that start pulling nginx at t=0 therefore all finish at
// t=3.3s. On a real clock a CRIClock simply passes everything through.
package kubelet

import (
	"sync"
	"time"

	"kubesim/clock"
)

// CRIClock is the clock a node's runtime is built on (see the file comment). Give the same value to
// fakeruntime.Options.Clock and to Options.RuntimeClock.
type CRIClock struct {
	clock.Clock
	deferred bool // the underlying clock is virtual: sleeps become debt

	mu   sync.Mutex
	debt time.Duration // guarded by mu: the time slept by the call in progress
}

// NewCRIClock wraps the cluster's clock for a runtime.
func NewCRIClock(clk clock.Clock) *CRIClock {
	_, virtual := clk.(*clock.Virtual)
	return &CRIClock{Clock: clk, deferred: virtual}
}

// Now is the cluster's time plus what the call in progress has slept so far.
func (c *CRIClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Clock.Now().Add(c.debt)
}

// Since is Now().Sub(t).
func (c *CRIClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Sleep waits on a real clock; on a virtual one it adds to the call's debt.
func (c *CRIClock) Sleep(d time.Duration) {
	if !c.deferred {
		c.Clock.Sleep(d)
		return
	}
	c.mu.Lock()
	c.debt += max(d, 0)
	c.mu.Unlock()
}

// begin starts measuring one call.
func (c *CRIClock) begin() {
	c.mu.Lock()
	c.debt = 0
	c.mu.Unlock()
}

// end returns what the call slept and clears it.
func (c *CRIClock) end() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.debt
	c.debt = 0
	return d
}

// call runs one runtime call and returns the cluster time it took. In step mode with a CRIClock the
// time has not passed yet: the caller must wait it out (on a timer) before acting on the result. In
// every other case it has already passed, and the duration is only for the record.
func (k *Kubelet) call(fn func() error) (took time.Duration, pending bool, err error) {
	if k.cri != nil && k.cri.deferred {
		k.cri.begin()
		err = fn()
		took = k.cri.end()
		return took, took > 0, err
	}
	start := k.clock.Now()
	err = fn()
	return k.clock.Since(start), false, err
}
