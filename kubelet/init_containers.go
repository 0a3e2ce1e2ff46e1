// init_containers.go: init containers (pkg/kubelet/kuberuntime computeInitContainerActions), which
// run one at a time, in order, each to a successful exit, before any app container is created.
//
//	syncInitContainers(ctx, w, s, v) bool   the next step of initialization; true once all are done
//	initDone(w, spec) bool                  has this init container exited 0 in the current sandbox?
//
// An init container that fails is restarted per the pod's restartPolicy: Always and OnFailure both
// restart it (an init container that exits 0 is finished, whatever the policy), with the same
// CrashLoopBackOff back-off as any container; Never fails the pod. Meanwhile the app containers wait
// with reason PodInitializing, the Initialized condition is False (ContainersNotInitialized), and
// kubectl shows Init:N/M, Init:Error or Init:CrashLoopBackOff. A new sandbox runs them all again.
//
// Between a failed run and its restart, kubectl shows Init:Error, then Init:CrashLoopBackOff, as it
// shows Error and CrashLoopBackOff for an app container (restarts.go says when).
//
// Simplified: sidecars (init containers with restartPolicy Always) are not modelled.
package kubelet

import (
	"context"

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
		if err := k.syncContainer(ctx, w, s, spec, v); err != nil {
			k.runtimeFailed(w, s, err)
		}
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
