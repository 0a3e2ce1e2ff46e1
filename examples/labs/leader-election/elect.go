//go:build !solution

// elect.go: the two decisions of leader election. This is where you work.
package leaderelection

import (
	"context"
	"time"

	"kubesim/lab"
)

// TryAcquireOrRenew reads the Lease Namespace/LeaseName and writes this candidate into it (holder
// Identity, renewTime now, leaseDurationSeconds) if nobody holds it, if the holder's lease has
// expired, or if the candidate holds it already. It reports whether the candidate holds the Lease
// afterwards. A failed request is not an error: the answer is simply false.
func (c *Candidate) TryAcquireOrRenew(ctx context.Context, now time.Time) (bool, error) {
	// TODO(lab): c.Leases.Get; on NotFound (apierrors.IsNotFound) c.Leases.Create a Lease naming you.
	// Otherwise c.Observe(lease, now); if another holder's Lease has changed within LeaseDuration
	// (c.ObservedTime.Add(LeaseDuration).After(now)) return false; else set Spec.HolderIdentity,
	// Spec.RenewTime (api.NewMicroTime(now)), Spec.LeaseDurationSeconds and c.Leases.Update it: the
	// resourceVersion makes a racing writer fail with 409 Conflict.
	return false, lab.TODO("write Candidate.TryAcquireOrRenew in examples/labs/leader-election/elect.go")
}

// StillLeading decides, after an attempt (renewed says whether it succeeded), whether the candidate
// leads now, and so may act.
func (c *Candidate) StillLeading(renewed bool, now time.Time) bool {
	// TODO(lab): this keeps a leader that can no longer renew acting forever: once the Lease
	// expires, another candidate takes it and two leaders act at once. A leader whose last
	// successful renew (c.LastRenew) is RenewDeadline old or older must stop.
	return renewed || c.Leading
}
