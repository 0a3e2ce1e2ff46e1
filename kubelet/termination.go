// termination.go: stopping pods (pkg/kubelet's killPod and the pod workers' terminating phase).
//
//	terminatePod(ctx, w, s)      a pod with deletionTimestamp: stop it gracefully, then let it go
//	killPod(ctx, w, s, grace)    stop every container, then the sandbox
//	finishIfTerminal(ctx, w, s)  a pod whose containers are all done for good: stop its sandbox
//
// `kubectl delete pod` does not remove a running pod: the apiserver only sets deletionTimestamp
// (grace period 30s by default). The kubelet sees it, sends each container SIGTERM (event Killing
// `Stopping container nginx`), SIGKILLs what is still running when the grace period ends, stops and
// removes the sandbox, writes the final status, and then deletes the pod with grace period 0, which
// is what makes the apiserver remove it from etcd.
package kubelet

import (
	"context"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	fakeruntime "kubesim/runtime"
)

// terminatePod handles a pod being deleted. It may take several syncs: stopping containers can take
// the grace period; the final status must be written before the pod is deleted.
func (k *Kubelet) terminatePod(ctx context.Context, w *podWorker, s *syncResult) {
	if w.deleted {
		return
	}
	if !w.terminated {
		grace := int64(30)
		if g := w.pod.DeletionGracePeriodSeconds; g != nil {
			grace = *g
		} else if g := w.pod.Spec.TerminationGracePeriodSeconds; g != nil {
			grace = *g
		}
		k.killPod(ctx, w, s, grace, "Stopping container %s")
		if now := k.clock.Now(); now.Before(w.busyUntil) {
			k.enqueueAfter(w.key, w.busyUntil.Sub(now)) // the grace period is still running
			return
		}
		if v, err := k.inspect(ctx, w); err == nil {
			w.view = v // the final status shows how each container ended
		}
		k.removeSandboxes(ctx, w, s)
		w.terminated = true
		s.add("pod %s stopped (grace period %ds): containers and sandbox gone; final status next, then delete", w.key, grace)
		k.enqueue(w.key)
		return
	}
	if w.written == nil || w.status == nil || !samePodStatus(w.written, w.status) {
		return // the status manager writes the final status first, then syncs the pod again
	}
	_, _, err := client.For[api.Pod](k.client).Delete(ctx, w.pod.Namespace, w.pod.Name,
		client.DeleteOptions{GracePeriodSeconds: api.Ptr[int64](0)})
	if err != nil && !apierrors.IsNotFound(err) {
		s.add("could not delete pod %s with grace period 0, will retry: %v", w.key, err)
		k.enqueueAfter(w.key, statusRetryInterval)
		return
	}
	w.deleted = true
	s.add("deleted pod %s with grace period 0: the apiserver removes it now", w.key)
}

// killPod stops every running container of the pod, within grace seconds, recording Killing events
// with message (a format taking the container name; "" records none). The sandbox is stopped
// afterwards, unless the stops are still "running" (step mode, see cri.go).
func (k *Kubelet) killPod(ctx context.Context, w *podWorker, s *syncResult, grace int64, message string) {
	v, err := k.inspect(ctx, w)
	if err != nil {
		k.runtimeFailed(w, s, err)
		return
	}
	k.stopProbes(w)
	for name, c := range v.latestRuns() {
		if c.State != fakeruntime.ContainerRunning {
			continue
		}
		if message != "" && w.pod != nil {
			k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Killing", message, name)
		}
		if err := k.stopContainer(ctx, w, c.ID, &grace); err != nil {
			k.runtimeFailed(w, s, err)
			return
		}
		s.add("StopContainer %s (grace period %ds)", name, grace)
	}
	if k.clock.Now().Before(w.busyUntil) {
		return
	}
	for _, sb := range v.sandboxes {
		if sb.State != fakeruntime.SandboxReady {
			continue
		}
		if err := k.runtimeCall(w, func() error { return k.runtime.StopPodSandbox(ctx, sb.ID) }); err != nil {
			k.runtimeFailed(w, s, err)
			return
		}
		s.add("StopPodSandbox %s", shortID(sb.ID))
	}
}

// removeSandboxes removes the pod's sandboxes (and with them its containers), releasing its IP.
func (k *Kubelet) removeSandboxes(ctx context.Context, w *podWorker, s *syncResult) {
	var sandboxes []*fakeruntime.PodSandbox
	err := k.runtimeCall(w, func() (err error) {
		sandboxes, err = k.runtime.ListPodSandbox(ctx, &fakeruntime.PodSandboxFilter{LabelSelector: map[string]string{fakeruntime.LabelPodUID: w.uid}})
		return err
	})
	if err != nil {
		k.runtimeFailed(w, s, err)
		return
	}
	for _, sb := range sandboxes {
		if err := k.runtimeCall(w, func() error { return k.runtime.RemovePodSandbox(ctx, sb.ID) }); err != nil {
			k.runtimeFailed(w, s, err)
			return
		}
		s.add("RemovePodSandbox %s: IP released", shortID(sb.ID))
	}
}

// finishIfTerminal stops the sandbox of a pod whose containers will never run again (restartPolicy
// Never or OnFailure, all exited): the pod is Succeeded or Failed and keeps no resources.
func (k *Kubelet) finishIfTerminal(ctx context.Context, w *podWorker, s *syncResult) {
	k.setPodStatus(w)
	if !isTerminalPhase(w.status.Phase) {
		s.statusSet = true // nothing changes before syncPod would compute it again
		return
	}
	k.killPod(ctx, w, s, 0, "")
	w.terminated = true
	if v, err := k.inspect(ctx, w); err == nil {
		w.view = v
	}
	s.add("pod %s is %s: every container has finished and none will restart; sandbox stopped", w.key, w.status.Phase)
}
