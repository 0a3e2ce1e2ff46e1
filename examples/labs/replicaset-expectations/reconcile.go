//go:build !solution

// reconcile.go: the ReplicaSet controller's one decision. This is where you work.
package replicasetexpectations

import (
	"context"

	"kubesim/lab"
)

// Reconcile makes the number of active pods of the ReplicaSet key ("namespace/name") equal
// spec.replicas. It reads from the caches (rc.ReplicaSets.Get, rc.OwnedPods), never from the
// apiserver, and writes through rc.CreatePod and rc.DeletePod.
func (rc *Controller) Reconcile(ctx context.Context, key string) error {
	// TODO(lab): get the ReplicaSet from rc.ReplicaSets.Get(key) (gone: rc.Expectations.Delete(key)).
	// If !rc.Expectations.Satisfied(key), the cache has not yet seen your last writes: return nil and
	// wait (the pod handlers requeue the key). Otherwise compare *rs.Spec.Replicas with
	// len(rc.OwnedPods(rs)): before creating n pods call rc.Expectations.ExpectCreations(key, n) (and
	// CreationObserved for each create that fails); before deleting n, ExpectDeletions(key, n).
	return lab.TODO("write Controller.Reconcile in examples/labs/replicaset-expectations/reconcile.go")
}
