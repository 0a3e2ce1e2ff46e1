// init_containers.go: init containers (pkg/kubelet/kuberuntime computeInitContainerActions), which
// run one at a time, in order, each to a successful exit, before any app container is created.
//
//	syncInitContainers(ctx, w, s, v) bool   the next step of initialization; true once all are done
//	initDone(w, spec) bool                  has this init container exited 0 in the current sandbox?
//	showInitError(w, s, spec, v)            a failed run reads Init:Error before Init:CrashLoopBackOff
//
// An init container that fails is restarted per the pod's restartPolicy: Always and OnFailure both
// restart it (an init container that exits 0 is finished, whatever the policy), with the same
// CrashLoopBackOff back-off as any container; Never fails the pod. Meanwhile the app containers wait
// with reason PodInitializing, the Initialized condition is False (ContainersNotInitialized), and
// kubectl shows Init:N/M, Init:Error or Init:CrashLoopBackOff. A new sandbox runs them all again.
//
// Between a failed run and its back-off, kubectl shows Init:Error, as on a real cluster: the kubelet
// computes the status it writes from what the runtime reported before the sync acts (the run
// terminated with Error); the sync then finds the container in back-off, records the BackOff event
// and fails with CrashLoopBackOff, and the pod worker retries a failed sync after backOffPeriod
// (10 s). Only the status of that retry says Init:CrashLoopBackOff. (kubesim computes a pod's status
// after its sync, so it holds the waiting reason back for those 10 s instead.)
//
// Simplified: sidecars (init containers with restartPolicy Always) are not modelled.
package kubelet

import (
	"context"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

// syncInitContainers does the next thing initialization needs and reports whether every init
// container has finished, so that the app containers may start.
func (k *Kubelet) syncInitContainers(ctx context.Context, w *podWorker, s *syncResult, v *podView) bool {
	for i := range w.pod.Spec.InitContainers {
		spec := &w.pod.Spec.InitContainers[i]
		if k.initDone(w, v, spec) {
			continue
		}
		if k.showingInitError(w, v, spec) {
			return false // the pod worker retries the failed sync when backOffPeriod is over
		}
		if err := k.syncContainer(ctx, w, s, spec, v); err != nil {
			k.runtimeFailed(w, s, err)
		}
		k.showInitError(w, s, spec, v)
		return false // this one is starting, running, waiting out its back-off, or failed for good
	}
	return true
}

// initDone reports whether an init container's latest run, in the pod's current sandbox, exited 0.
func (k *Kubelet) initDone(w *podWorker, v *podView, spec *api.Container) bool {
	history := v.history(spec.Name)
	if len(history) == 0 {
		return false
	}
	cur := history[len(history)-1]
	return cur.sandboxID == w.sandboxID && cur.State == fakeruntime.ContainerExited && cur.ExitCode == 0
}

// showInitError holds back an init container's CrashLoopBackOff for backOffPeriod after its failed
// run ended, so that the status written meanwhile shows the run terminated with Error: kubectl's
// Init:Error.
func (k *Kubelet) showInitError(w *podWorker, s *syncResult, spec *api.Container, v *podView) {
	r := w.record(spec.Name)
	cur := currentRun(w, v, spec)
	if cur == nil || r.waiting == nil || r.waiting.Reason != "CrashLoopBackOff" || r.errorShown == cur.ID {
		return
	}
	retry := cur.FinishedAt.Add(backOffPeriod).Sub(k.clock.Now())
	if retry <= 0 {
		return
	}
	r.errorShown, r.waiting = cur.ID, nil
	k.enqueueAfter(w.key, retry)
	s.add("init container %s failed (exit code %d): Init:Error until the pod worker retries the sync in %s", spec.Name, cur.ExitCode, retry)
}

// showingInitError reports whether an init container's failed run is still showing Init:Error.
func (k *Kubelet) showingInitError(w *podWorker, v *podView, spec *api.Container) bool {
	cur := currentRun(w, v, spec)
	return cur != nil && w.record(spec.Name).errorShown == cur.ID && k.clock.Now().Before(cur.FinishedAt.Add(backOffPeriod))
}

// currentRun is a container's latest run in the pod's current sandbox if it has exited, else nil.
func currentRun(w *podWorker, v *podView, spec *api.Container) *containerView {
	history := v.history(spec.Name)
	if len(history) == 0 {
		return nil
	}
	cur := history[len(history)-1]
	if cur.sandboxID != w.sandboxID || cur.State != fakeruntime.ContainerExited {
		return nil
	}
	return cur
}

// backOffPeriod is how long the pod worker waits before it retries a sync that failed (the kubelet's
// backOffPeriod; Kubernetes adds up to 50% of jitter, kubesim none).
const backOffPeriod = 10 * time.Second
