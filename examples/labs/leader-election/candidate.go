// Package leaderelection is lab 6: leader election on a Lease, written by you, that never lets two
// replicas act at once, even when the leader is cut off from the apiserver. README.md says what to
// read and how the grader checks it.
//
// candidate.go holds what is given: the timings, and Candidate, one replica, as a component the
// cluster runs. Every RetryPeriod it calls your TryAcquireOrRenew, then your StillLeading, and acts
// (Acts records when) while it leads. You write both in elect.go.
package leaderelection

import (
	"context"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/clock"
	"kubesim/sim"
)

// client-go's defaults (and kube-controller-manager's): a Lease unrenewed for LeaseDuration may be
// taken; a leader gives up after RenewDeadline without a successful renew; candidates try every
// RetryPeriod. RenewDeadline < LeaseDuration is what keeps two leaders apart.
const (
	LeaseDuration = 15 * time.Second
	RenewDeadline = 10 * time.Second
	RetryPeriod   = 2 * time.Second
)

// The Lease the candidates compete for: default/lab-leader.
const (
	Namespace = "default"
	LeaseName = "lab-leader"
)

// Candidate is one replica campaigning for the Lease.
type Candidate struct {
	Identity string
	Leases   client.Resource[api.Lease, *api.Lease]
	Clock    clock.Clock

	// ObservedRV and ObservedHolder are the Lease as last read; ObservedTime is when (on this
	// candidate's clock: never trust another machine's renewTime) it was last seen to change.
	// Observe keeps them.
	ObservedRV     string
	ObservedHolder string
	ObservedTime   time.Time
	// LastRenew is when TryAcquireOrRenew last succeeded; Leading is what StillLeading last said.
	LastRenew time.Time
	Leading   bool
	// Acts are the times the candidate acted as leader.
	Acts []time.Time

	// mu guards due, which the retry timer sets.
	mu    sync.Mutex
	due   bool
	timer clock.Timer
	wake  chan struct{}
}

// NewCandidate adds a candidate named identity to the cluster. Its requests go through its own link,
// so that c.Partition(identity) cuts it off.
func NewCandidate(ctx context.Context, c *sim.Cluster, identity string) (*Candidate, error) {
	cand := &Candidate{Identity: identity, Clock: c.Clock, due: true, wake: make(chan struct{}, 1),
		Leases: client.For[api.Lease](c.Client("kubernetes-admin", identity, apiserver.GroupMasters).Quiet())}
	return cand, c.Add(ctx, cand)
}

// Observe records the Lease as read at now: a new resourceVersion restarts the expiry countdown.
func (c *Candidate) Observe(lease *api.Lease, now time.Time) {
	if lease.ResourceVersion == c.ObservedRV {
		return
	}
	c.ObservedRV, c.ObservedHolder, c.ObservedTime = lease.ResourceVersion, "", now
	if lease.Spec.HolderIdentity != nil {
		c.ObservedHolder = *lease.Spec.HolderIdentity
	}
}

// Name is the candidate's name in the cluster.
func (c *Candidate) Name() string { return c.Identity }

// Informers: none; a candidate reads its Lease directly.
func (c *Candidate) Informers() []client.InformerHandle { return nil }

// Step is one attempt, when the retry timer is due: acquire or renew, decide, act if leading.
func (c *Candidate) Step(ctx context.Context) (bool, error) {
	c.mu.Lock()
	if !c.due {
		c.mu.Unlock()
		return false, nil
	}
	c.due = false
	c.mu.Unlock()
	now := c.Clock.Now()
	renewed, err := c.TryAcquireOrRenew(ctx, now)
	renewed = renewed && err == nil
	if renewed {
		c.LastRenew = now
	}
	c.Leading = c.StillLeading(renewed, now)
	if c.Leading {
		c.Acts = append(c.Acts, now)
	}
	c.arm()
	return true, ctx.Err()
}

// Run campaigns in real time until ctx ends.
func (c *Candidate) Run(ctx context.Context) {
	for {
		if _, err := c.Step(ctx); err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
	}
}

// arm sets the retry timer.
func (c *Candidate) arm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Reset(RetryPeriod)
		return
	}
	c.timer = c.Clock.AfterFunc(RetryPeriod, func() {
		c.mu.Lock()
		c.due = true
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	})
}
