// restarts.go: restarting a container that exited, and what the pod's status shows until it runs
// again (pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff, pkg/kubelet/pod_workers.go
// completeWork, pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses and its reason cache).
//
//	restartDue(ctx, w, s, spec, r, history) bool   may an exited container be restarted now?
//	restartKilled(ctx, w, s, spec, r, history)     start again a container stopped for its liveness probe
//	backOffPeriod                                  the pod worker's wait before it retries a failed sync
//	                                               (plus its jitter)
//
// A real kubelet computes the status it writes from the runtime's report before its sync acts, and a
// container's CrashLoopBackOff reaches that status only through the reason cache, which holds what
// the previous sync's attempt to start it returned. So, for a container that keeps crashing, kubectl
// get pods reads:
//
//	Error             at the sync that finds the exit (after the PLEG relist that saw it). The first
//	                  exit is restarted in that same sync: there is no back-off before the first restart.
//	Error             at the sync that finds a later exit within its back-off (10 s, then doubling to
//	                  5 min): the start fails with CrashLoopBackOff and a BackOff event, and the pod
//	                  worker retries the failed sync after backOffPeriod, 10 s plus up to 50% of jitter.
//	CrashLoopBackOff  at each retry, 10 to 16 s apart (jitter, then the 1 s sync tick), each with its BackOff event, until one finds the
//	                  back-off over and restarts the container (that sync's status still says
//	                  CrashLoopBackOff; the next shows it running, or Error again).
//
// Error is the runtime's reason for a non-zero exit (Completed for 0, OOMKilled for the OOM killer),
// and an init container reads Init:Error, then Init:CrashLoopBackOff. kubesim computes a pod's
// status after its sync instead, so it holds each state for as long as the real one shows: the
// waiting reason stays unset until the first retry, and a sync about to restart a container whose
// status does not show yet what the real kubelet's would (the exit, or CrashLoopBackOff) only lets it
// show: the status is written, and the next sync, at the same instant, restarts the container.
//
// A container the kubelet stops for a failed liveness probe is started again in the sync that stopped
// it (computePodActions lists it both to kill and to start), and the back-off check reads the pod's
// status from before the kill, where the newest exited run is the one before: the first restarts
// after liveness kills never wait, and the kill's exit is never shown.
//
// The retries come backOffPeriod apart with up to 50% of jitter (10 to 15 s), drawn from the
// kubelet's seeded source (pod_workers.go finishSync); the restart comes at the first retry that
// finds the back-off over.
package kubelet

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
)

// backOffPeriod is how long the pod worker waits before it retries a sync that failed (the kubelet's
// backOffPeriod; the pod worker adds up to 50% of jitter).
const backOffPeriod = 10 * time.Second

// restartDue decides what an exited container that its restartPolicy restarts needs at this sync,
// and reports whether to restart it now. history is the container's runs, oldest first; the last is
// the exited one, in the pod's current sandbox.
func (k *Kubelet) restartDue(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, history []*containerView) bool {
	cur := history[len(history)-1]
	key := crashBackoffKey(w, spec)
	if r.killedRun == cur.ID && r.failedRun != cur.ID {
		return true // stopped by the kubelet, and restartKilled already found it free to start
	}
	now := k.clock.Now()
	inBackOff, left := k.crashBackoff.InBackOffSince(key, cur.FinishedAt)
	if r.failedRun != cur.ID {
		if !inBackOff {
			// Not within a back-off (a first exit, or one after 10 minutes of running): the sync that
			// finds it restarts it at once, after writing the status that shows the exit.
			if !statusShowsExit(w, spec.Name, cur.ID) {
				r.waiting = nil
				k.enqueue(w.key)
				s.add("container %s exited (code %d, %s), not within a back-off: kubectl shows %s, then the kubelet restarts it at once",
					spec.Name, cur.ExitCode, cur.Reason, kubectlReason(w, spec, cur.Reason))
				return false
			}
			k.crashBackoff.Next(key, cur.FinishedAt)
			return true
		}
		// The first sync to find this exit within the back-off: the start fails, the status still
		// shows the exit, and the pod worker retries the sync after backOffPeriod.
		r.failedRun, r.waiting = cur.ID, nil
		retry := k.failedInBackOff(ctx, w, s, spec, r)
		s.add("container %s exited (code %d, %s): CrashLoopBackOff, back-off %s, over in %s",
			spec.Name, cur.ExitCode, cur.Reason, k.crashBackoff.Get(key), left.Round(time.Millisecond))
		s.add("container %s: kubectl shows %s until the pod worker retries the failed sync in %s",
			spec.Name, kubectlReason(w, spec, cur.Reason), retry.Round(time.Millisecond))
		return false
	}
	if now.Before(r.retryAt) {
		s.failed(r.retryAt.Sub(now)) // the pod worker retries the failed sync at retryAt
		return false
	}
	waiting := crashLoopWaiting(w, spec, k.crashBackoff.Get(key))
	if !inBackOff {
		if r.waiting != nil && *r.waiting == *waiting {
			k.crashBackoff.Next(key, cur.FinishedAt)
			return true
		}
		// The back-off is over at this retry, but the status this retry writes comes from the reason
		// cache, which still says CrashLoopBackOff.
		r.waiting = waiting
		k.enqueue(w.key)
		s.add("container %s: back-off %s over at the pod worker's retry: kubectl shows %s, then the kubelet restarts it",
			spec.Name, k.crashBackoff.Get(key), kubectlReason(w, spec, waiting.Reason))
		return false
	}
	k.failedInBackOff(ctx, w, s, spec, r)
	if r.waiting == nil || *r.waiting != *waiting {
		r.waiting = waiting
		s.add("container %s still in back-off at the pod worker's retry: %s, back-off %s, over in %s",
			spec.Name, kubectlReason(w, spec, waiting.Reason), k.crashBackoff.Get(key), left.Round(time.Millisecond))
	}
	return false
}

// restartKilled starts again, in the sync that stopped it, a container the kubelet has just stopped
// for a failed liveness probe. history is the container's runs before the stop, ending with the
// stopped one. The back-off is checked against the run before it, as doBackOff finds it in the pod
// status from before the kill.
func (k *Kubelet) restartKilled(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, history []*containerView) error {
	cur := history[len(history)-1]
	r.killedRun = cur.ID
	if n := len(history); n > 1 {
		key := crashBackoffKey(w, spec)
		prev := history[n-2]
		if in, _ := k.crashBackoff.InBackOffSince(key, prev.FinishedAt); in {
			// The start fails with CrashLoopBackOff. From the next sync on, the stopped run is the
			// newest exit, and the reason cache already says CrashLoopBackOff.
			r.failedRun, r.waiting = cur.ID, crashLoopWaiting(w, spec, k.crashBackoff.Get(key))
			_, left := k.crashBackoff.InBackOffSince(key, k.clock.Now())
			k.failedInBackOff(ctx, w, s, spec, r)
			s.add("container %s stopped within its back-off: CrashLoopBackOff, back-off %s, over in %s",
				spec.Name, k.crashBackoff.Get(key), left.Round(time.Millisecond))
			return nil
		}
		k.crashBackoff.Next(key, prev.FinishedAt)
	}
	if k.clock.Now().Before(w.busyUntil) {
		return nil // the stop is still "running": the next sync restarts it (restartDue)
	}
	return k.restart(ctx, w, s, spec, r, history)
}

// failedInBackOff is a sync that finds a container within its back-off: the BackOff event (one per
// failed sync, which the event recorder counts up), and the pod worker's retry after backOffPeriod
// with its jitter, which it returns.
func (k *Kubelet) failedInBackOff(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord) time.Duration {
	k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "BackOff", "Back-off restarting failed container %s in pod %s", spec.Name, podDesc(w.pod))
	retry := s.failedRetry()
	r.retryAt = k.clock.Now().Add(retry)
	s.did = true
	return retry
}

// restart prunes a container's older runs and starts a new one.
func (k *Kubelet) restart(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, history []*containerView) error {
	k.pruneDeadContainers(ctx, w, history)
	if !k.ensureImage(ctx, w, s, spec, r) {
		return nil
	}
	return k.createAndStart(ctx, w, s, spec, r, history[len(history)-1].Metadata.Attempt+1)
}

// crashLoopWaiting is the waiting state of a container in back-off.
func crashLoopWaiting(w *podWorker, spec *api.Container, delay time.Duration) *api.ContainerStateWaiting {
	return &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
		Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", delay, spec.Name, podDesc(w.pod))}
}

// crashBackoffKey keys the crash-loop back-off by pod and container (Kubernetes' GetBackoffKey adds
// the image and resources, so that a changed container starts over; kubesim's pods are immutable).
func crashBackoffKey(w *podWorker, spec *api.Container) string { return w.uid + "/" + spec.Name }

// statusShowsExit reports whether the status last computed for w shows the run id of a container
// terminated.
func statusShowsExit(w *podWorker, name, id string) bool {
	if w.status == nil {
		return false
	}
	for _, list := range [][]api.ContainerStatus{w.status.InitContainerStatuses, w.status.ContainerStatuses} {
		for _, cs := range list {
			if cs.Name == name {
				return cs.State.Terminated != nil && cs.State.Terminated.ContainerID == "containerd://"+id
			}
		}
	}
	return false
}

// kubectlReason is how kubectl get pods shows a container's reason: Init:<reason> for an init
// container.
func kubectlReason(w *podWorker, spec *api.Container, reason string) string {
	for i := range w.pod.Spec.InitContainers {
		if &w.pod.Spec.InitContainers[i] == spec {
			return "Init:" + reason
		}
	}
	return reason
}
