// status_manager.go: the pod status the kubelet reports, and the status manager that writes it
// (pkg/kubelet/kubelet_pods.go generateAPIPodStatus, and pkg/kubelet/status).
//
//	setPodStatus(w)          compute the pod's status from the runtime's view and the kubelet's memory
//	writeOneStatus(ctx)      write one changed status through pods/status (UpdateStatus)
//
// The status is where everything the kubelet knows meets the API: phase (Pending, Running,
// Succeeded, Failed, from the containers' states and the restartPolicy), the conditions
// (PodScheduled, PodReadyToStartContainers, Initialized, ContainersReady, Ready), the pod IP, and one
// status per container: state (waiting with a reason, running, terminated with exit code and reason),
// lastState (why it last stopped), ready, started, restartCount, image, imageID, containerID.
//
// A status is written only when it changed (ignoring nothing but identical content). When the
// apiserver cannot be reached, the last computed status waits and is written when it can be: the
// status catches up after an outage, and nothing on the node stops meanwhile.
package kubelet

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/client"
	fakeruntime "kubesim/runtime"
)

// podReadyToStartContainers is the condition the kubelet sets once the sandbox and its network exist
// (PodReadyToStartContainers, beta since Kubernetes 1.29).
const podReadyToStartContainers api.PodConditionType = "PodReadyToStartContainers"

// setPodStatus computes w's status.
func (k *Kubelet) setPodStatus(w *podWorker) {
	old := w.status
	if old == nil {
		old = &w.pod.Status
	}
	st := &api.PodStatus{
		QOSClass:          api.QOSClass(w.pod),
		NominatedNodeName: w.pod.Status.NominatedNodeName,
		HostIP:            k.cfg.InternalIP,
	}
	if !w.startTime.IsZero() {
		st.StartTime = ptrTime(api.NewTime(w.startTime))
	} else if w.pod.Status.StartTime != nil {
		st.StartTime = w.pod.Status.StartTime
	}
	switch {
	case w.rejected || w.evicted:
		// Keep the phase, reason and message set when the pod was rejected or evicted.
		st.Phase, st.Reason, st.Message = old.Phase, old.Reason, old.Message
	}
	sandboxReady := false
	if sb := w.view.latestSandbox(); sb != nil && sb.State == fakeruntime.SandboxReady && !w.terminated {
		sandboxReady = true
	}
	if w.podIP != "" && !w.rejected {
		st.PodIP = w.podIP
		st.PodIPs = []api.PodIP{{IP: w.podIP}}
	}
	for i := range w.pod.Spec.InitContainers {
		cs := k.containerStatus(w, &w.pod.Spec.InitContainers[i])
		cs.Ready = cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0 // an init container is ready once it succeeded
		st.InitContainerStatuses = append(st.InitContainerStatuses, cs)
	}
	for i := range w.pod.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, k.containerStatus(w, &w.pod.Spec.Containers[i]))
	}
	if st.Phase == "" {
		st.Phase = initPhase(w.pod, st.InitContainerStatuses)
	}
	if st.Phase == "" {
		st.Phase = podPhase(w.pod, st.ContainerStatuses)
		if w.pod.DeletionTimestamp != nil && !isTerminalPhase(st.Phase) && w.terminated {
			// A pod the kubelet has stopped for deletion ends in a terminal phase.
			st.Phase = api.PodFailed
			if allSucceeded(st.ContainerStatuses) {
				st.Phase = api.PodSucceeded
			}
		}
	}
	st.Conditions = k.podConditions(w, st, sandboxReady, old.Conditions)
	w.status = st
	k.markStatus(w, false)
}

// markStatus marks w's status to be written when it differs from the one the status manager last
// wrote (its cache), or from what the apiserver holds if it has written none yet. With reconcile
// (the periodic reconcile, pod_updates.go), it compares with what the apiserver holds once the
// informer has seen the kubelet's last write: someone else (the node lifecycle controller marking a
// lost node's pods not Ready) may have changed it since, and the kubelet puts it right.
func (k *Kubelet) markStatus(w *podWorker, reconcile bool) {
	reported := w.written
	if reported == nil || reconcile && !rvOlder(w.pod.ResourceVersion, w.writtenRV) {
		reported = &w.pod.Status
	}
	if !statusesDiffer(reported, w.status) && samePodStatus(reported, w.status) {
		delete(k.statusDirty, w.uid)
		// Nothing to write: keep the equal status already held (the last write, or the informer's
		// copy of the pod) rather than a second copy of it, as most syncs change nothing.
		w.status = reported
		if reported == &w.pod.Status && w.written != nil {
			// The apiserver holds what was last written (or an equal status since): the cache of
			// the last write can be the informer's copy too.
			w.written = reported
		}
	} else {
		k.statusDirty[w.uid] = true
	}
}

// containerStatus is one container's status.
func (k *Kubelet) containerStatus(w *podWorker, spec *api.Container) api.ContainerStatus {
	r := w.record(spec.Name)
	r.spec = spec
	cs := api.ContainerStatus{Name: spec.Name, Image: spec.Image, Started: api.Ptr(false)}
	history := w.view.history(spec.Name)
	var cur, prev *containerView
	if n := len(history); n > 0 {
		cur = history[n-1]
		if n > 1 {
			prev = history[n-2]
		}
	}
	if cur == nil {
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
		if r.waiting != nil {
			cs.State.Waiting = r.waiting
		}
		if cs.State.Waiting.Reason == "ContainerCreating" && len(w.pod.Spec.InitContainers) > 0 {
			// The kubelet's default waiting state in a pod with init containers.
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "PodInitializing"}
		}
		if w.rejected || w.evicted {
			cs.State = api.ContainerState{}
		}
		return cs
	}
	cs.ContainerID = "containerd://" + cur.ID
	cs.ImageID = cur.ImageRef
	cs.RestartCount = int32(cur.Metadata.Attempt)
	switch cur.State {
	case fakeruntime.ContainerRunning:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(cur.StartedAt)}
		started := r.startupPassed()
		cs.Started = api.Ptr(started)
		cs.Ready = started && r.ready()
		if prev != nil {
			cs.LastTerminationState.Terminated = terminatedState(prev)
		}
	case fakeruntime.ContainerExited:
		if r.waiting != nil && !w.terminated && w.pod.DeletionTimestamp == nil {
			cs.State.Waiting = r.waiting
			cs.LastTerminationState.Terminated = terminatedState(cur)
		} else {
			cs.State.Terminated = terminatedState(cur)
			if prev != nil {
				cs.LastTerminationState.Terminated = terminatedState(prev)
			}
		}
	default:
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
		if prev != nil {
			cs.LastTerminationState.Terminated = terminatedState(prev)
		}
	}
	return cs
}

func terminatedState(c *containerView) *api.ContainerStateTerminated {
	return &api.ContainerStateTerminated{
		ExitCode: c.ExitCode, Reason: c.Reason, Message: c.Message,
		StartedAt: api.NewTime(c.StartedAt), FinishedAt: api.NewTime(c.FinishedAt), ContainerID: "containerd://" + c.ID,
	}
}

// initPhase is the init container half of Kubernetes' getPhase: "" once every init container has
// succeeded (the app containers decide), Failed if one failed and restartPolicy is Never, else Pending.
func initPhase(p *api.Pod, statuses []api.ContainerStatus) api.PodPhase {
	pending, failed := 0, 0
	for _, cs := range statuses {
		switch {
		case cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0:
		case cs.State.Terminated != nil:
			failed++
		case cs.State.Waiting != nil && cs.LastTerminationState.Terminated != nil && cs.LastTerminationState.Terminated.ExitCode != 0:
			failed++ // waiting to be restarted after a failure
		default:
			pending++
		}
	}
	switch {
	case failed > 0 && p.Spec.RestartPolicy == api.RestartPolicyNever:
		return api.PodFailed
	case failed > 0 || pending > 0:
		return api.PodPending
	}
	return ""
}

// podPhase is the app container half of Kubernetes' getPhase.
func podPhase(p *api.Pod, statuses []api.ContainerStatus) api.PodPhase {
	var waiting, running, stopped, succeeded int
	for _, cs := range statuses {
		switch {
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			stopped++
			if cs.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs.LastTerminationState.Terminated != nil:
			stopped++ // waiting to restart
		default:
			waiting++
		}
	}
	switch {
	case waiting > 0:
		return api.PodPending
	case running > 0:
		return api.PodRunning
	case stopped > 0:
		switch p.Spec.RestartPolicy {
		case api.RestartPolicyNever:
			if stopped == succeeded {
				return api.PodSucceeded
			}
			return api.PodFailed
		case api.RestartPolicyOnFailure:
			if stopped == succeeded {
				return api.PodSucceeded
			}
		}
		return api.PodRunning
	}
	return api.PodPending
}

func allSucceeded(statuses []api.ContainerStatus) bool {
	for _, cs := range statuses {
		if t := cs.State.Terminated; t == nil || t.ExitCode != 0 {
			return false
		}
	}
	return true
}

// podConditions computes the kubelet's conditions, keeping lastTransitionTime when the status did
// not change, and keeping conditions owned by others (PodScheduled is the scheduler's).
func (k *Kubelet) podConditions(w *podWorker, st *api.PodStatus, sandboxReady bool, old []api.PodCondition) []api.PodCondition {
	now := api.NewTime(k.clock.Now())
	var unready []string
	for _, cs := range st.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}
	cond := func(t api.PodConditionType, ok bool, reason, message string) api.PodCondition {
		c := api.PodCondition{Type: t, Status: api.ConditionFalse, Reason: reason, Message: message, LastTransitionTime: now}
		if ok {
			c = api.PodCondition{Type: t, Status: api.ConditionTrue, LastTransitionTime: now}
		}
		for _, o := range old {
			if o.Type == t && o.Status == c.Status {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		return c
	}
	var incomplete []string
	for _, cs := range st.InitContainerStatuses {
		if !cs.Ready {
			incomplete = append(incomplete, cs.Name)
		}
	}
	initialized := len(incomplete) == 0
	ready := len(unready) == 0 && !isTerminalPhase(st.Phase)
	// The messages, for the conditions that are False (a True condition has none).
	initMsg, notReadyMsg := "", ""
	if !initialized {
		initMsg = fmt.Sprintf("containers with incomplete status: [%s]", strings.Join(incomplete, " "))
	}
	if !ready {
		notReadyMsg = fmt.Sprintf("containers with unready status: [%s]", strings.Join(unready, " "))
	}
	notReadyReason := "ContainersNotReady"
	if isTerminalPhase(st.Phase) {
		notReadyReason, notReadyMsg = "PodCompleted", ""
	}
	// Conditions others own (PodScheduled, the scheduler's DisruptionTarget for a preempted pod, ...)
	// are kept as the apiserver holds them, as the status manager's mergePodStatus does; then the
	// kubelet's own DisruptionTarget (an eviction) until it is written.
	// out is built in a scratch slice the kubelet reuses (statuses are computed one at a time, on
	// the pod side); what is kept is old itself when nothing changed, or an exact-size copy.
	out := k.condScratch[:0]
	keep := func(o api.PodCondition) {
		owned := o.Type == podReadyToStartContainers || o.Type == api.PodInitialized || o.Type == api.ContainersReady || o.Type == api.PodReady
		if !owned && !hasCondition(out, o.Type) {
			out = append(out, o)
		}
	}
	for _, o := range w.pod.Status.Conditions {
		keep(o)
	}
	for _, o := range old {
		keep(o)
	}
	if !hasCondition(out, api.PodScheduled) {
		out = append(out, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: now})
	}
	out = append(out,
		cond(podReadyToStartContainers, sandboxReady, "", ""),
		cond(api.PodInitialized, initialized, "ContainersNotInitialized", initMsg),
		cond(api.ContainersReady, ready, notReadyReason, notReadyMsg),
		cond(api.PodReady, ready, notReadyReason, notReadyMsg),
	)
	slices.SortStableFunc(out, func(a, b api.PodCondition) int { return conditionOrder(a.Type) - conditionOrder(b.Type) })
	k.condScratch = out[:0]
	if slices.EqualFunc(out, old, sameCondition) {
		return old // share the unchanged conditions with the previous status
	}
	return slices.Clone(out)
}

// sameCondition reports whether two conditions are the same in every field (times as instants).
func sameCondition(a, b api.PodCondition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastProbeTime.Equal(b.LastProbeTime.Time) && a.LastTransitionTime.Equal(b.LastTransitionTime.Time)
}

func conditionOrder(t api.PodConditionType) int {
	switch t {
	case podReadyToStartContainers:
		return 0
	case api.PodInitialized:
		return 1
	case api.PodReady:
		return 2
	case api.ContainersReady:
		return 3
	case api.PodScheduled:
		return 4
	}
	return 5
}

func hasCondition(cs []api.PodCondition, t api.PodConditionType) bool {
	for _, c := range cs {
		if c.Type == t {
			return true
		}
	}
	return false
}

// writeOneStatus writes the status of one pod whose status changed since it was last written (the
// dirty set that setPodStatus keeps), and reports whether it tried.
func (k *Kubelet) writeOneStatus(ctx context.Context) bool {
	now := k.clock.Now()
	for {
		uid, w := k.nextDirty(now)
		if w == nil {
			return false
		}
		if p, ok := k.pods.Get(w.key); ok && p.UID == w.uid && p != w.pod {
			// A status-only update since the last sync (pod_updates.go): the status manager merges
			// with the pod as the apiserver holds it now, keeping the conditions others own.
			w.pod = p
			k.setPodStatus(w)
			if !k.statusDirty[uid] {
				continue
			}
		}
		k.writeStatus(ctx, w)
		return true
	}
}

// nextDirty is the pod, lowest uid first, whose status is due to be written now: not waiting for a
// retry, and not stopping (while a pod stops, only its final status is worth writing). It forgets
// the pods that are gone. One pass over the dirty set, not a sort of it: the kubelet asks at every
// step, and a set of pods waiting for their retry made that a sort per step.
func (k *Kubelet) nextDirty(now time.Time) (string, *podWorker) {
	var next string
	var nw *podWorker
	for uid := range k.statusDirty {
		w := k.workers[uid]
		if w == nil || w.deleted {
			delete(k.statusDirty, uid)
			continue
		}
		if now.Before(w.retryAt) || w.pod.DeletionTimestamp != nil && !w.terminated {
			continue
		}
		if nw == nil || uid < next {
			next, nw = uid, w
		}
	}
	return next, nw
}

// writeStatus writes w's status. Like the kubelet's status manager, which patches, it overwrites the
// status without a resourceVersion precondition: the kubelet owns the pod's status.
//
// What it sends is the pod's name and status alone (a status write reads nothing else of the body),
// handed over to the apiserver, which then copies nothing: the watch cache keeps w.status's parts
// themselves. That is safe because a status the kubelet computed is never modified afterwards
// (setPodStatus builds each one afresh; what changes a container's record replaces its pointers,
// never what they point to), so w.status, w.written and the cache's pod can share them.
func (k *Kubelet) writeStatus(ctx context.Context, w *podWorker) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: w.pod.Namespace, Name: w.pod.Name, UID: w.pod.UID},
		Status: *w.status}
	written, err := client.For[api.Pod](k.client).UpdateStatus(ctx, pod, client.WriteOptions{HandOver: true})
	if err != nil {
		w.retryAt = k.clock.Now().Add(statusRetryInterval)
		k.enqueueAfter(w.key, statusRetryInterval)
		if w.statusErr != err.Error() {
			w.statusErr = err.Error()
			k.podRecord(w, "status", "could not write the status of %s, will retry: %v", w.key, err)
		}
		return
	}
	if w.statusErr != "" {
		k.podRecord(w, "status", "the status of %s is written again after failures (%s)", w.key, w.statusErr)
		w.statusErr = ""
	}
	w.written, w.writtenRV = w.status, written.ResourceVersion
	delete(k.statusDirty, w.uid)
	if k.trace.Enabled() {
		k.record("status", "pods/"+w.key, written.ResourceVersion, "status of %s: %s -> pods/status", w.key, describePodStatus(w.status))
	}
	if w.pod.DeletionTimestamp != nil && w.terminated {
		k.enqueue(w.key) // the final status is written: the pod can go
	}
}

// describePodStatus is a one-line summary: "phase Running, Ready=True, nginx running".
func describePodStatus(st *api.PodStatus) string {
	parts := []string{"phase " + string(st.Phase)}
	for _, c := range st.Conditions {
		if c.Type == api.PodReady {
			parts = append(parts, "Ready="+string(c.Status))
		}
	}
	if st.Reason != "" {
		parts = append(parts, "reason "+st.Reason)
	}
	if st.PodIP != "" {
		parts = append(parts, "IP "+st.PodIP)
	}
	for _, cs := range st.ContainerStatuses {
		switch {
		case cs.State.Running != nil:
			parts = append(parts, fmt.Sprintf("%s running (restarts %d)", cs.Name, cs.RestartCount))
		case cs.State.Waiting != nil:
			parts = append(parts, fmt.Sprintf("%s waiting: %s", cs.Name, cs.State.Waiting.Reason))
		case cs.State.Terminated != nil:
			parts = append(parts, fmt.Sprintf("%s terminated: %s (exit code %d)", cs.Name, cs.State.Terminated.Reason, cs.State.Terminated.ExitCode))
		}
	}
	return strings.Join(parts, ", ")
}

func ptrTime(t api.Time) *api.Time { return &t }

// rvOlder reports whether resourceVersion a is older than b (both etcd revisions; "" is oldest).
func rvOlder(a, b string) bool {
	x, _ := strconv.ParseInt(a, 10, 64)
	y, _ := strconv.ParseInt(b, 10, 64)
	return x < y
}
