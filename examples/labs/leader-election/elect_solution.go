//go:build solution

// elect_solution.go: the reference solution, built with -tags solution.
package leaderelection

import (
	"context"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
)

// TryAcquireOrRenew is client-go's tryAcquireOrRenew on a Lease.
func (c *Candidate) TryAcquireOrRenew(ctx context.Context, now time.Time) (bool, error) {
	lease, err := c.Leases.Get(ctx, Namespace, LeaseName)
	if apierrors.IsNotFound(err) {
		lease = &api.Lease{ObjectMeta: api.ObjectMeta{Name: LeaseName, Namespace: Namespace}}
		c.fill(lease, now)
		created, err := c.Leases.Create(ctx, lease)
		if err != nil {
			return false, nil
		}
		c.Observe(created, now)
		return true, nil
	}
	if err != nil {
		return false, nil
	}
	c.Observe(lease, now)
	if c.ObservedHolder != "" && c.ObservedHolder != c.Identity && c.ObservedTime.Add(LeaseDuration).After(now) {
		return false, nil
	}
	c.fill(lease, now)
	updated, err := c.Leases.Update(ctx, lease)
	if err != nil {
		return false, nil
	}
	c.Observe(updated, now)
	return true, nil
}

func (c *Candidate) fill(lease *api.Lease, now time.Time) {
	t := api.NewMicroTime(now)
	lease.Spec.HolderIdentity = api.Ptr(c.Identity)
	lease.Spec.RenewTime = &t
	lease.Spec.LeaseDurationSeconds = api.Ptr(int32(LeaseDuration / time.Second))
}

// StillLeading: a leader keeps leading through failed renews only until RenewDeadline has passed
// since its last successful one, and that is shorter than the LeaseDuration the others wait.
func (c *Candidate) StillLeading(renewed bool, now time.Time) bool {
	return renewed || c.Leading && now.Sub(c.LastRenew) < RenewDeadline
}
