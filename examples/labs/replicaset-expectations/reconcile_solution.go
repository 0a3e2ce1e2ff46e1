//go:build solution

// reconcile_solution.go: the reference solution, built with -tags solution.
package replicasetexpectations

import (
	"context"
	"errors"
)

// Reconcile is the ReplicaSet controller's syncReplicaSet and manageReplicas, without status.
func (rc *Controller) Reconcile(ctx context.Context, key string) error {
	rs, ok := rc.ReplicaSets.Get(key)
	if !ok {
		rc.Expectations.Delete(key)
		return nil
	}
	if !rc.Expectations.Satisfied(key) {
		return nil // the cache lags behind our own writes: counting now would count wrong
	}
	pods := rc.OwnedPods(rs)
	diff := int(*rs.Spec.Replicas) - len(pods)
	var errs []error
	switch {
	case diff > 0:
		rc.Expectations.ExpectCreations(key, diff)
		for range diff {
			if err := rc.CreatePod(ctx, rs); err != nil {
				rc.Expectations.CreationObserved(key) // a failed create will never be observed
				errs = append(errs, err)
			}
		}
	case diff < 0:
		rc.Expectations.ExpectDeletions(key, -diff)
		for _, p := range pods[:-diff] {
			if err := rc.DeletePod(ctx, p); err != nil {
				rc.Expectations.DeletionObserved(key)
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
