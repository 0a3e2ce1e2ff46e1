// failure.go: what happens when a pod cannot be scheduled (handleSchedulingFailure in Kubernetes):
// it goes back to the queue (to wait for an event, or to back off after an error), a
// FailedScheduling event tells the user why, and the pod's PodScheduled condition says the same, with
// reason Unschedulable (or SchedulerError after an error). If preemption nominated a node, the pod's
// status.nominatedNodeName says which.
package scheduler

import (
	"context"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/scheduler/framework"
	"kubesim/trace"
)

// reasonSchedulerError is the PodScheduled reason after an error (v1.PodReasonSchedulerError).
const reasonSchedulerError = "SchedulerError"

// messageSizeLimit is how long an event message may be; longer ones are cut with " ...".
const messageSizeLimit = 1024

func truncateMessage(msg string) string {
	if len(msg) <= messageSizeLimit {
		return msg
	}
	const suffix = " ..."
	return msg[:messageSizeLimit-len(suffix)] + suffix
}

// handleSchedulingFailure requeues the pod and reports why it is not scheduled. nominated, when not
// nil, is the node preemption nominated ("" clears the nomination).
func (s *Scheduler) handleSchedulingFailure(ctx context.Context, prof *profile, pi *framework.QueuedPodInfo, status *framework.Status, nominated *string, cycle int64) {
	pod := pi.Pod
	reason := api.PodReasonUnschedulable
	if !status.IsRejected() {
		reason = reasonSchedulerError
		pi.UnschedulablePlugins = nil
	}
	msg := status.Message()

	// Requeue the latest version of the pod: it may have changed during the cycle.
	latest := pod
	if s.podInformer != nil {
		var ok bool
		latest, ok = s.podInformer.Get(podKey(pod))
		if !ok || latest.UID != pod.UID || assigned(latest) {
			s.queue.Done(pod)
			return
		}
		if latest.ResourceVersion != pod.ResourceVersion {
			pi.PodInfo = framework.NewPodInfo(latest)
		}
	}
	if err := s.queue.AddUnschedulableIfNotPresent(pi, cycle); err != nil {
		s.record(trace.Event{Action: "queue", Object: podObject(pod), Detail: true}.Msgf("requeue %s: %v", podKey(pod), err))
	}
	if nominated != nil {
		if *nominated != "" {
			s.queue.AddNominatedPod(pi.PodInfo, *nominated)
		} else {
			s.queue.DeleteNominatedPodIfExists(latest)
		}
	}
	if prof.recorder != nil {
		prof.recorder.Event(ctx, latest, client.EventWarning, "FailedScheduling", truncateMessage(msg))
	}
	if s.client != nil {
		s.updatePodStatus(ctx, latest, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: reason,
			Message: msg, LastTransitionTime: api.NewTime(s.clock.Now())}, nominated)
	}
}

// updatePodStatus writes the PodScheduled condition and the nomination, if they changed.
func (s *Scheduler) updatePodStatus(ctx context.Context, pod *api.Pod, cond api.PodCondition, nominated *string) {
	pods := client.For[api.Pod](s.client)
	apply := func(p *api.Pod) bool {
		changed := framework.UpdatePodCondition(&p.Status, cond)
		if nominated != nil && p.Status.NominatedNodeName != *nominated {
			p.Status.NominatedNodeName = *nominated
			changed = true
		}
		return changed
	}
	p := api.DeepCopy(pod)
	if !apply(p) {
		return
	}
	err := client.RetryOnConflict(ctx, s.clock, client.DefaultRetry, func() error {
		_, err := pods.UpdateStatus(ctx, p)
		if apierrors.IsConflict(err) {
			fresh, getErr := pods.Get(ctx, pod.Namespace, pod.Name)
			if getErr != nil {
				return getErr
			}
			if fresh.UID != pod.UID || assigned(fresh) || !apply(fresh) {
				return nil
			}
			p = fresh
		}
		return err
	})
	object := podObject(pod)
	switch {
	case err != nil && !apierrors.IsNotFound(err):
		s.record(trace.Event{Action: "status", Object: object}.Msgf("could not update %s status: %v", podKey(pod), err))
	case err == nil:
		s.record(trace.Event{Action: "status", Object: object, Detail: true}.
			Msgf("status %s: PodScheduled=False reason %s, nominatedNodeName %q", podKey(pod), cond.Reason, p.Status.NominatedNodeName))
	}
}
