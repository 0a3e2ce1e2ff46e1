// status.go: the ReplicaSet's status, what `kubectl get rs` shows as DESIRED/CURRENT/READY and what
// the Deployment controller reads to pace a rollout.
//
//	calculateStatus(rs, pods, manageErr, now) api.ReplicaSetStatus
//	(*Controller).updateStatus(ctx, rs, status) (*api.ReplicaSet, error)   only when something changed
package replicaset

import (
	"context"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/controllers/internal"
)

// Reasons of the ReplicaFailure condition.
const (
	reasonFailedCreate = "FailedCreate"
	reasonFailedDelete = "FailedDelete"
)

// calculateStatus counts the ReplicaSet's pods: all of them (replicas), those carrying every label
// of the template (fullyLabeledReplicas), the Ready ones and the available ones (ready for longer
// than minReadySeconds). A failed create or delete sets the ReplicaFailure condition; the next
// successful reconcile clears it.
func calculateStatus(rs *api.ReplicaSet, pods []*api.Pod, manageErr error, now time.Time) api.ReplicaSetStatus {
	status := api.DeepCopy(rs).Status
	templateLabels := labels.Set(rs.Spec.Template.Labels).AsSelector()
	var fullyLabeled, ready, available int32
	for _, p := range pods {
		if templateLabels.Matches(labels.Set(p.Labels)) {
			fullyLabeled++
		}
		if api.IsPodReady(p) {
			ready++
		}
		if internal.IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
			available++
		}
	}
	failure := replicaFailure(status.Conditions)
	switch {
	case manageErr != nil && failure < 0:
		reason := reasonFailedCreate
		if len(pods) > int(replicas(rs)) {
			reason = reasonFailedDelete
		}
		status.Conditions = append(status.Conditions, api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure,
			Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now), Reason: reason, Message: manageErr.Error()})
	case manageErr == nil && failure >= 0:
		status.Conditions = append(status.Conditions[:failure], status.Conditions[failure+1:]...)
	}
	status.Replicas = int32(len(pods))
	status.FullyLabeledReplicas = fullyLabeled
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	status.ObservedGeneration = rs.Generation
	return status
}

func replicaFailure(conds []api.ReplicaSetCondition) int {
	for i, c := range conds {
		if c.Type == api.ReplicaSetReplicaFailure {
			return i
		}
	}
	return -1
}

// updateStatus writes status through the status subresource unless it is what the ReplicaSet already
// reports, and returns the ReplicaSet as it now is.
func (c *Controller) updateStatus(ctx context.Context, rs *api.ReplicaSet, status api.ReplicaSetStatus) (*api.ReplicaSet, error) {
	if internal.SameStatus(rs.Status, status) {
		return rs, nil
	}
	cp := api.DeepCopy(rs)
	cp.Status = status
	updated, err := c.replicaSets.UpdateStatus(ctx, cp)
	if apierrors.IsConflict(err) {
		// The cache was behind the ReplicaSet (its own last status write, say): as Kubernetes does,
		// read it afresh and try once more. The status was computed from the pods, not from it.
		fresh, getErr := c.replicaSets.Get(ctx, rs.Namespace, rs.Name)
		if getErr != nil {
			return nil, getErr
		}
		if internal.SameStatus(fresh.Status, status) {
			return fresh, nil
		}
		fresh.Status = status
		updated, err = c.replicaSets.UpdateStatus(ctx, fresh)
	}
	if err != nil {
		return nil, err
	}
	c.tracer.Record("status", "replicasets/"+rs.Key(), updated.ResourceVersion,
		"status %s: replicas %d, fullyLabeledReplicas %d, readyReplicas %d, availableReplicas %d (observedGeneration %d)",
		rs.Key(), status.Replicas, status.FullyLabeledReplicas, status.ReadyReplicas, status.AvailableReplicas, status.ObservedGeneration)
	return updated, nil
}

// minReadyDelay is when to look again at a ReplicaSet whose pod just became ready: minReadySeconds
// later, plus a second so the pod is surely past it.
func minReadyDelay(rs *api.ReplicaSet) time.Duration {
	return time.Duration(rs.Spec.MinReadySeconds)*time.Second + time.Second
}
