// status.go: the Deployment's status and conditions, what `kubectl get deploy` (READY, UP-TO-DATE,
// AVAILABLE) and `kubectl rollout status` read.
//
//	Available    True (MinimumReplicasAvailable) when at least replicas - maxUnavailable pods are
//	             available, else False (MinimumReplicasUnavailable)
//	Progressing  True while the rollout moves (NewReplicaSetCreated, FoundNewReplicaSet,
//	             ReplicaSetUpdated) and when it has finished (NewReplicaSetAvailable); False when it
//	             made no progress for progressDeadlineSeconds (ProgressDeadlineExceeded); Unknown
//	             while paused (DeploymentPaused, then DeploymentResumed)
//	ReplicaFailure  copied from a ReplicaSet that could not create or delete pods
//
// The progress deadline is a timer: when a rollout stalls, the controller looks again when the
// deadline passes (requeueStuckDeployment) and, if nothing moved, marks it as timed out.
package deployment

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/controllers/internal"
)

// Condition reasons (pkg/controller/deployment/util).
const (
	reasonRSUpdated            = "ReplicaSetUpdated"
	reasonFailedRSCreate       = "ReplicaSetCreateError"
	reasonNewRSCreated         = "NewReplicaSetCreated"
	reasonFoundNewRS           = "FoundNewReplicaSet"
	reasonNewRSAvailable       = "NewReplicaSetAvailable"
	reasonTimedOut             = "ProgressDeadlineExceeded"
	reasonPaused               = "DeploymentPaused"
	reasonResumed              = "DeploymentResumed"
	reasonMinimumAvailable     = "MinimumReplicasAvailable"
	reasonMinimumUnavailable   = "MinimumReplicasUnavailable"
	messageMinimumAvailable    = "Deployment has minimum availability."
	messageMinimumNotAvailable = "Deployment does not have minimum availability."
)

// calculateStatus sums the ReplicaSets' statuses into the Deployment's and sets Available.
func (c *Controller) calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) api.DeploymentStatus {
	available := sumStatus(allRSs, statusAvailable)
	var updated int32
	if newRS != nil {
		updated = newRS.Status.Replicas
	}
	status := api.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            sumStatus(allRSs, statusReplicas),
		UpdatedReplicas:     updated,
		ReadyReplicas:       sumStatus(allRSs, statusReady),
		AvailableReplicas:   available,
		UnavailableReplicas: max(sumReplicas(allRSs)-available, 0),
		CollisionCount:      d.Status.CollisionCount,
		Conditions:          api.DeepCopy(d).Status.Conditions,
	}
	if available >= replicasOf(d)-maxUnavailable(d) {
		setCondition(&status, c.newCondition(api.DeploymentAvailable, api.ConditionTrue, reasonMinimumAvailable, messageMinimumAvailable))
	} else {
		setCondition(&status, c.newCondition(api.DeploymentAvailable, api.ConditionFalse, reasonMinimumUnavailable, messageMinimumNotAvailable))
	}
	return status
}

// syncDeploymentStatus writes the counts (and Available) without judging progress: for scaling and
// paused Deployments.
func (c *Controller) syncDeploymentStatus(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	status := c.calculateStatus(allRSs, newRS, d)
	if internal.SameStatus(d.Status, status) {
		return nil
	}
	return c.writeStatus(ctx, d, status)
}

// syncRolloutStatus writes the counts and judges the rollout's progress (the Progressing condition).
func (c *Controller) syncRolloutStatus(ctx context.Context, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	status := c.calculateStatus(allRSs, newRS, d)
	if !hasProgressDeadline(d) {
		removeCondition(&status, api.DeploymentProgressing)
	}
	current := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	complete := status.Replicas == status.UpdatedReplicas && current != nil && current.Reason == reasonNewRSAvailable
	if hasProgressDeadline(d) && !complete {
		subject := fmt.Sprintf("Deployment %q", d.Name)
		if newRS != nil {
			subject = fmt.Sprintf("ReplicaSet %q", newRS.Name)
		}
		switch {
		case deploymentComplete(d, &status):
			setCondition(&status, c.newCondition(api.DeploymentProgressing, api.ConditionTrue, reasonNewRSAvailable, subject+" has successfully progressed."))
		case deploymentProgressing(d, &status):
			// Progress refreshes lastUpdateTime even with an unchanged reason: that is what restarts the
			// progress deadline. lastTransitionTime stays as long as the status stays True.
			cond := c.newCondition(api.DeploymentProgressing, api.ConditionTrue, reasonRSUpdated, subject+" is progressing.")
			if current != nil {
				if current.Status == api.ConditionTrue {
					cond.LastTransitionTime = current.LastTransitionTime
				}
				removeCondition(&status, api.DeploymentProgressing)
			}
			setCondition(&status, cond)
		case c.deploymentTimedOut(d, &status):
			setCondition(&status, c.newCondition(api.DeploymentProgressing, api.ConditionFalse, reasonTimedOut, subject+" has timed out progressing."))
		}
	}
	if failure := replicaFailure(allRSs, newRS); failure != nil {
		setCondition(&status, *failure)
	} else {
		removeCondition(&status, api.DeploymentReplicaFailure)
	}
	if internal.SameStatus(d.Status, status) {
		c.requeueStuckDeployment(d, status)
		return nil
	}
	return c.writeStatus(ctx, d, status)
}

// writeStatus stores status through the status subresource and leaves d as stored.
func (c *Controller) writeStatus(ctx context.Context, d *api.Deployment, status api.DeploymentStatus) error {
	cp := api.DeepCopy(d)
	cp.Status = status
	updated, err := c.deployments.UpdateStatus(ctx, cp)
	if err != nil {
		return err
	}
	*d = *updated
	c.tracer.Record("status", "deployments/"+d.Key(), d.ResourceVersion,
		"status %s: %d replicas, %d updated, %d ready, %d available, %d unavailable; %s",
		d.Key(), status.Replicas, status.UpdatedReplicas, status.ReadyReplicas, status.AvailableReplicas, status.UnavailableReplicas,
		conditionSummary(status.Conditions))
	return nil
}

// conditionSummary renders conditions as "Available=True (MinimumReplicasAvailable), ...".
func conditionSummary(conds []api.DeploymentCondition) string {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason)
	}
	if len(parts) == 0 {
		return "no conditions"
	}
	return strings.Join(parts, ", ")
}

// requeueStuckDeployment looks at a rollout again when its progress deadline passes, so that a stalled
// rollout is reported even if nothing else happens to it.
func (c *Controller) requeueStuckDeployment(d *api.Deployment, status api.DeploymentStatus) {
	cond := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if !hasProgressDeadline(d) || cond == nil || deploymentComplete(d, &status) || cond.Reason == reasonTimedOut {
		return
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	after := cond.LastUpdateTime.Add(deadline).Sub(c.clock.Now())
	if after < time.Second {
		c.queue.AddRateLimited(d.Key())
		return
	}
	c.tracer.Detail("reconcile", "deployments/"+d.Key(), d.ResourceVersion, "reconcile %s: rollout not complete -> look again in %s (progress deadline)",
		d.Key(), after+time.Second)
	c.queue.AddAfter(d.Key(), after+time.Second)
}

// deploymentComplete: every pod is updated and available, and the status reflects the latest spec.
func deploymentComplete(d *api.Deployment, s *api.DeploymentStatus) bool {
	want := replicasOf(d)
	return s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want && s.ObservedGeneration >= d.Generation
}

// deploymentProgressing: compared with the last status, more pods are updated, ready or available,
// or fewer old pods remain.
func deploymentProgressing(d *api.Deployment, s *api.DeploymentStatus) bool {
	old := d.Status
	return s.UpdatedReplicas > old.UpdatedReplicas ||
		s.Replicas-s.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		s.ReadyReplicas > old.ReadyReplicas ||
		s.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut: the Progressing condition has not been refreshed for progressDeadlineSeconds.
func (c *Controller) deploymentTimedOut(d *api.Deployment, s *api.DeploymentStatus) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	cond := api.GetDeploymentCondition(*s, api.DeploymentProgressing)
	if cond == nil || cond.Reason == reasonNewRSAvailable {
		return false
	}
	if cond.Reason == reasonTimedOut {
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return cond.LastUpdateTime.Add(deadline).Before(c.clock.Now())
}

// hasProgressDeadline: progressDeadlineSeconds is set and not "never" (MaxInt32).
func hasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// replicaFailure is a ReplicaSet's ReplicaFailure condition as a Deployment condition, the new
// ReplicaSet's first.
func replicaFailure(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) *api.DeploymentCondition {
	find := func(rs *api.ReplicaSet) *api.DeploymentCondition {
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaSetReplicaFailure {
				return &api.DeploymentCondition{Type: api.DeploymentReplicaFailure, Status: c.Status, Reason: c.Reason,
					Message: c.Message, LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime}
			}
		}
		return nil
	}
	if newRS != nil {
		if f := find(newRS); f != nil {
			return f
		}
	}
	for _, rs := range allRSs {
		if f := find(rs); f != nil {
			return f
		}
	}
	return nil
}

func (c *Controller) newCondition(t api.DeploymentConditionType, status api.ConditionStatus, reason, message string) api.DeploymentCondition {
	now := api.NewTime(c.clock.Now())
	return api.DeploymentCondition{Type: t, Status: status, LastUpdateTime: now, LastTransitionTime: now, Reason: reason, Message: message}
}

// setCondition puts cond into the status, as Kubernetes' SetDeploymentCondition: a condition with the
// same status and reason is left as it is; one with the same status keeps its lastTransitionTime; the
// new condition goes last.
func setCondition(s *api.DeploymentStatus, cond api.DeploymentCondition) {
	current := api.GetDeploymentCondition(*s, cond.Type)
	if current != nil && current.Status == cond.Status && current.Reason == cond.Reason {
		return
	}
	if current != nil && current.Status == cond.Status {
		cond.LastTransitionTime = current.LastTransitionTime
	}
	removeCondition(s, cond.Type)
	s.Conditions = append(s.Conditions, cond)
}

func removeCondition(s *api.DeploymentStatus, t api.DeploymentConditionType) {
	kept := s.Conditions[:0:0]
	for _, c := range s.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	s.Conditions = kept
}
