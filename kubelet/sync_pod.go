// sync_pod.go: SyncPod, making the runtime match a pod's spec (pkg/kubelet/kuberuntime's
// computePodActions and SyncPod).
//
//	syncRunningPod(ctx, w, s)   sandbox first, then the init containers (init_containers.go), then
//	                            each container in order
//	inspect(ctx, w, s)          the runtime's view of the pod: its sandboxes and containers
//
// One sync, level-based like every Kubernetes loop: it does not ask what changed, it looks at the
// runtime and the spec and does the next thing needed. No sandbox: RunPodSandbox (the pause
// container, the pod IP). For each container: running and healthy, nothing; running but its liveness
// probe failed, kill it and start it again; exited, restart it if the restartPolicy says so, unless
// it is in CrashLoopBackOff (restarts.go); never created, pull its image (per imagePullPolicy),
// create and start it.
package kubelet

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	fakeruntime "kubesim/runtime"
)

// containerView is one container as the runtime reports it.
type containerView struct {
	*fakeruntime.ContainerStatus
	sandboxID string
}

// podView is the runtime's view of one pod.
type podView struct {
	sandboxes []*fakeruntime.PodSandbox // oldest first
	// runs are the containers' runs by container name (in name order), oldest attempt first: a
	// sorted slice rather than a map by name, as a view is kept for every pod and most pods have
	// one container.
	runs []*containerView
}

// latestSandbox is the pod's newest sandbox, or nil.
func (v *podView) latestSandbox() *fakeruntime.PodSandbox {
	if v == nil || len(v.sandboxes) == 0 {
		return nil
	}
	return v.sandboxes[len(v.sandboxes)-1]
}

// history returns a container's runs, oldest first.
func (v *podView) history(name string) []*containerView {
	if v == nil {
		return nil
	}
	i, _ := slices.BinarySearchFunc(v.runs, name, func(c *containerView, n string) int { return strings.Compare(c.Metadata.Name, n) })
	j := i
	for j < len(v.runs) && v.runs[j].Metadata.Name == name {
		j++
	}
	return v.runs[i:j:j]
}

// latestRuns yields each container's name and its latest run, in name order.
func (v *podView) latestRuns() iter.Seq2[string, *containerView] {
	return func(yield func(string, *containerView) bool) {
		for i, c := range v.runs {
			if i+1 < len(v.runs) && v.runs[i+1].Metadata.Name == c.Metadata.Name {
				continue
			}
			if !yield(c.Metadata.Name, c) {
				return
			}
		}
	}
}

// runtimeCall runs one CRI call for a pod's sync, adding the time it takes (in step mode with a
// CRIClock) to how long this pod's worker stays busy.
func (k *Kubelet) runtimeCall(w *podWorker, fn func() error) error {
	took, pending, err := k.call(fn)
	if pending {
		w.busyUntil = maxTime(w.busyUntil, k.clock.Now()).Add(took)
	}
	return err
}

// inspect asks the runtime for the pod's sandboxes and containers.
func (k *Kubelet) inspect(ctx context.Context, w *podWorker) (*podView, error) {
	sel := map[string]string{fakeruntime.LabelPodUID: w.uid}
	v := &podView{}
	var list []*fakeruntime.Container
	err := k.runtimeCall(w, func() (err error) {
		if v.sandboxes, err = k.runtime.ListPodSandbox(ctx, &fakeruntime.PodSandboxFilter{LabelSelector: sel}); err != nil {
			return err
		}
		list, err = k.runtime.ListContainers(ctx, &fakeruntime.ContainerFilter{LabelSelector: sel})
		return err
	})
	if err != nil {
		return nil, err
	}
	views := make([]containerView, 0, len(list)) // one allocation for the pod's runs
	for _, c := range list {
		var st *fakeruntime.ContainerStatus
		err := k.runtimeCall(w, func() (err error) {
			st, err = k.runtime.ContainerStatus(ctx, c.ID)
			return err
		})
		if fakeruntime.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		views = append(views, containerView{ContainerStatus: st, sandboxID: c.PodSandboxID})
	}
	v.runs = make([]*containerView, len(views))
	for i := range views {
		v.runs[i] = &views[i]
	}
	slices.SortStableFunc(v.runs, func(a, b *containerView) int {
		if c := strings.Compare(a.Metadata.Name, b.Metadata.Name); c != 0 {
			return c
		}
		return int(a.Metadata.Attempt) - int(b.Metadata.Attempt)
	})
	return v, nil
}

// syncRunningPod makes an admitted, live pod's runtime state match its spec.
func (k *Kubelet) syncRunningPod(ctx context.Context, w *podWorker, s *syncResult) {
	v, err := k.inspect(ctx, w)
	if err != nil {
		k.runtimeFailed(w, s, err)
		return
	}
	if w.startTime.IsZero() {
		w.startTime = k.clock.Now()
	}
	if v.latestSandbox() == nil && !k.claimsBound(ctx, w, s) {
		return
	}
	if !k.mountVolumes(ctx, w, s) || !k.ensureSandbox(ctx, w, s, v) {
		return
	}
	for i := range w.pod.Spec.Containers {
		if i == 0 && !k.syncInitContainers(ctx, w, s, v) {
			break
		}
		spec := &w.pod.Spec.Containers[i]
		if err := k.syncContainer(ctx, w, s, spec, v); err != nil {
			k.runtimeFailed(w, s, err)
			return
		}
		if now := k.clock.Now(); now.Before(w.busyUntil) {
			k.enqueueAfter(w.key, w.busyUntil.Sub(now)) // a slow call: carry on once it has "returned"
			break
		}
	}
	if s.did {
		before := v
		if v, err = k.inspect(ctx, w); err != nil {
			k.runtimeFailed(w, s, err)
			return
		}
		if exitedDuringSync(before, v) {
			// A container this sync started has exited already (sh -c "exit 1"). The real kubelet
			// learns it from the PLEG and syncs the pod again; kubesim's own inspection saw it, and
			// the status shows it now, so the sync that acts on it comes now too.
			k.enqueue(w.key)
		}
	}
	w.view = v
	k.finishIfTerminal(ctx, w, s)
}

// exitedDuringSync reports whether after shows a container's newest run exited that before did not.
func exitedDuringSync(before, after *podView) bool {
	for name, cur := range after.latestRuns() {
		if cur.State != fakeruntime.ContainerExited {
			continue
		}
		seen := false
		for _, old := range before.history(name) {
			if old.ID == cur.ID {
				seen = old.State == fakeruntime.ContainerExited
			}
		}
		if !seen {
			return true
		}
	}
	return false
}

// runtimeFailed reports a runtime error that stopped a sync, and retries the pod later.
func (k *Kubelet) runtimeFailed(w *podWorker, s *syncResult, err error) {
	retry := max(k.untilSyncTick(k.jitter(backOffPeriod, workerBackOffPeriodJitterFactor)), w.busyUntil.Sub(k.clock.Now()))
	s.add("sync of %s failed: %v (retrying in %s)", w.key, err, retry.Round(time.Millisecond))
	s.failed(retry)
}

// ensureSandbox makes sure the pod has a ready sandbox; it reports whether it has one.
func (k *Kubelet) ensureSandbox(ctx context.Context, w *podWorker, s *syncResult, v *podView) bool {
	sb := v.latestSandbox()
	if sb != nil && sb.State == fakeruntime.SandboxReady {
		if w.sandboxID != sb.ID || w.podIP == "" {
			var st *fakeruntime.PodSandboxStatus
			if err := k.runtimeCall(w, func() (err error) { st, err = k.runtime.PodSandboxStatus(ctx, sb.ID); return }); err != nil {
				k.runtimeFailed(w, s, err)
				return false
			}
			w.sandboxID, w.podIP, w.sandboxAttempt = sb.ID, k.podIPFor(w.pod, st.Network.IP), sb.Metadata.Attempt
		}
		return true
	}
	attempt := uint32(0)
	if sb != nil {
		// The pause container died (a node crash, say): Kubernetes kills what is left of the pod
		// and starts over in a new sandbox; the pod's IP may change.
		k.recorder.Event(ctx, w.pod, api.EventTypeNormal, "SandboxChanged", "Pod sandbox changed, it will be killed and re-created.")
		k.killPod(ctx, w, s, 0, "")
		attempt = sb.Metadata.Attempt + 1
	}
	if err := k.runtimeCall(w, func() error { return k.networkReady(ctx, w.pod) }); err != nil {
		k.networkNotReadyFailed(ctx, w, s, err)
		return false
	}
	config := k.sandboxConfig(w.pod, attempt)
	var id string
	var st *fakeruntime.PodSandboxStatus
	err := k.runtimeCall(w, func() (err error) {
		if id, err = k.runtime.RunPodSandbox(ctx, config); err != nil {
			return err
		}
		st, err = k.runtime.PodSandboxStatus(ctx, id)
		return err
	})
	if err != nil {
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "FailedCreatePodSandBox", "Failed to create pod sandbox: %v", err)
		k.runtimeFailed(w, s, err)
		return false
	}
	w.sandboxID, w.podIP, w.sandboxAttempt = id, k.podIPFor(w.pod, st.Network.IP), attempt
	s.add("RunPodSandbox for %s: sandbox %s (pause), attempt %d, pod IP %s", w.key, shortID(id), attempt, w.podIP)
	return true
}

// syncContainer does the next thing one container needs.
func (k *Kubelet) syncContainer(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, v *podView) error {
	r := w.record(spec.Name)
	r.spec = spec
	history := v.history(spec.Name)
	var cur *containerView
	if n := len(history); n > 0 && history[n-1].sandboxID == w.sandboxID {
		cur = history[n-1]
	}
	attempt := uint32(0)
	if n := len(history); n > 0 {
		attempt = history[n-1].Metadata.Attempt + 1
	}
	switch {
	case cur != nil && cur.State == fakeruntime.ContainerRunning:
		r.waiting = nil
		k.refreshVolumeFiles(ctx, w, s, spec, r, cur.ID) // volumes.go
		k.ensureProbes(w, r, spec, cur.ID, cur.StartedAt)
		if kind, output := r.failedProbe(); kind != "" {
			k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Killing", "Container %s failed %s probe, will be restarted", spec.Name, kind)
			k.stopProbesOf(r)
			if err := k.stopContainer(ctx, w, cur.ID, w.pod.Spec.TerminationGracePeriodSeconds); err != nil {
				return err
			}
			s.add("container %s failed its %s probe (%s): stopped it; it restarts per restartPolicy %s", spec.Name, kind, output, w.pod.Spec.RestartPolicy)
			if w.pod.Spec.RestartPolicy != api.RestartPolicyNever {
				return k.restartKilled(ctx, w, s, spec, r, history)
			}
			k.enqueue(w.key)
		}
		return nil
	case cur != nil && cur.State == fakeruntime.ContainerCreated:
		return k.startContainer(ctx, w, s, spec, r, cur.ID, cur.Metadata.Attempt)
	case cur != nil && cur.State == fakeruntime.ContainerExited:
		k.stopProbesOf(r)
		killed := r.killedRun == cur.ID && w.pod.Spec.RestartPolicy != api.RestartPolicyNever // "will be restarted"
		if !killed && !shouldRestart(w.pod.Spec.RestartPolicy, cur.ExitCode) {
			r.waiting = nil
			return nil
		}
		if !k.restartDue(ctx, w, s, spec, r, history) {
			return nil
		}
		return k.restart(ctx, w, s, spec, r, history)
	}
	if !k.ensureImage(ctx, w, s, spec, r) {
		return nil
	}
	return k.createAndStart(ctx, w, s, spec, r, attempt)
}

// shouldRestart applies the pod's restartPolicy to an exited container.
func shouldRestart(policy api.RestartPolicy, exitCode int32) bool {
	switch policy {
	case api.RestartPolicyNever:
		return false
	case api.RestartPolicyOnFailure:
		return exitCode != 0
	}
	return true
}

// createAndStart creates a container (attempt = its restart count) and starts it.
func (k *Kubelet) createAndStart(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, attempt uint32) error {
	envs, err := k.containerEnv(ctx, w.pod, spec, w.podIP)
	if err != nil {
		r.waiting = &api.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: err.Error()}
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "Failed", "Error: %v", err)
		retry := s.failedRetry()
		s.add("container %s of %s not created: CreateContainerConfigError: %v (retrying in %s)", spec.Name, w.key, err, retry.Round(time.Millisecond))
		return nil
	}
	config := k.containerConfig(w.pod, spec, attempt, envs)
	config.Files = k.containerFiles(ctx, w.pod, spec, r) // volumes.go
	sandboxConfig := k.sandboxConfig(w.pod, w.sandboxAttempt)
	var id string
	err = k.runtimeCall(w, func() (err error) {
		id, err = k.runtime.CreateContainer(ctx, w.sandboxID, config, sandboxConfig)
		return err
	})
	if err != nil {
		r.waiting = &api.ContainerStateWaiting{Reason: "CreateContainerError", Message: err.Error()}
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "Failed", "Error: %v", err)
		s.add("CreateContainer %s failed: %v", spec.Name, err)
		s.failedRetry()
		return nil
	}
	k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Created", "Created container: %s", spec.Name)
	return k.startContainer(ctx, w, s, spec, r, id, attempt)
}

// startContainer starts a created container.
func (k *Kubelet) startContainer(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord, id string, attempt uint32) error {
	err := k.runtimeCall(w, func() error { return k.runtime.StartContainer(ctx, id) })
	if err != nil {
		// runc could not start the process: containerd reports the container exited (StartError), and
		// the next sync restarts it with back-off, as for a crash.
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "Failed", "Error: %v", errMessage(err))
		s.add("StartContainer %s failed: %v", spec.Name, err)
		k.enqueue(w.key)
		return nil
	}
	r.waiting = nil
	k.ensureProbes(w, r, spec, id, k.clock.Now())
	k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Started", "Started container %s", spec.Name)
	s.add("CreateContainer + StartContainer %s (%s, restart count %d): container %s", spec.Name, spec.Image, attempt, shortID(id))
	return nil
}

// stopContainer stops a container within grace seconds (SIGTERM, then SIGKILL).
func (k *Kubelet) stopContainer(ctx context.Context, w *podWorker, id string, grace *int64) error {
	timeout := 30 * time.Second
	if grace != nil {
		timeout = time.Duration(*grace) * time.Second
	}
	return k.runtimeCall(w, func() error { return k.runtime.StopContainer(ctx, id, timeout) })
}

// pruneDeadContainers removes a container's older runs, keeping the last one (whose logs
// `kubectl logs --previous` shows), as the kubelet's container garbage collector does.
func (k *Kubelet) pruneDeadContainers(ctx context.Context, w *podWorker, history []*containerView) {
	for _, old := range history[:max(len(history)-1, 0)] {
		_ = k.runtimeCall(w, func() error { return k.runtime.RemoveContainer(ctx, old.ID) })
	}
}

// sandboxConfig is the RunPodSandbox request for a pod.
func (k *Kubelet) sandboxConfig(p *api.Pod, attempt uint32) *fakeruntime.PodSandboxConfig {
	c := &fakeruntime.PodSandboxConfig{
		Metadata:     fakeruntime.PodSandboxMetadata{Name: p.Name, UID: p.UID, Namespace: p.Namespace, Attempt: attempt},
		Hostname:     k.podHostname(p),
		HostNetwork:  p.Spec.HostNetwork,
		LogDirectory: fmt.Sprintf("/var/log/pods/%s_%s_%s", p.Namespace, p.Name, p.UID),
		Labels: map[string]string{fakeruntime.LabelPodName: p.Name, fakeruntime.LabelPodNamespace: p.Namespace,
			fakeruntime.LabelPodUID: p.UID},
	}
	for _, ctr := range p.Spec.Containers {
		for _, port := range ctr.Ports {
			if port.HostPort > 0 {
				c.PortMappings = append(c.PortMappings, fakeruntime.PortMapping{Protocol: string(port.Protocol),
					ContainerPort: port.ContainerPort, HostPort: port.HostPort, HostIP: port.HostIP})
			}
		}
	}
	return c
}

// containerConfig is the CreateContainer request for one container of a pod, with its resolved
// environment, which $(VAR) references in its command and args read (downward.go).
func (k *Kubelet) containerConfig(p *api.Pod, spec *api.Container, attempt uint32, envs []fakeruntime.KeyValue) *fakeruntime.ContainerConfig {
	c := &fakeruntime.ContainerConfig{
		Metadata: fakeruntime.ContainerMetadata{Name: spec.Name, Attempt: attempt},
		Image:    spec.Image,
		Command:  expandAll(spec.Command, envs),
		Args:     expandAll(spec.Args, envs),
		Labels: map[string]string{fakeruntime.LabelPodName: p.Name, fakeruntime.LabelPodNamespace: p.Namespace,
			fakeruntime.LabelPodUID: p.UID, fakeruntime.LabelContainerName: spec.Name},
		Annotations: k.containerAnnotations(p, attempt),
		LogPath:     fmt.Sprintf("%s/%d.log", spec.Name, attempt),
		Resources:   &fakeruntime.LinuxContainerResources{},
		Envs:        envs,
	}
	// The cgroup settings, as the kubelet derives them: shares from the cpu request (1024 per core),
	// a CFS quota from the cpu limit, and the memory limit the OOM killer enforces.
	if q, ok := spec.Resources.Requests[resource.ResourceCPU]; ok {
		c.Resources.CPUShares = max(q.MilliValue()*1024/1000, 2)
	}
	if q, ok := spec.Resources.Limits[resource.ResourceCPU]; ok {
		c.Resources.CPUPeriod = 100_000
		c.Resources.CPUQuota = q.MilliValue() * 100
	}
	if q, ok := spec.Resources.Limits[resource.ResourceMemory]; ok {
		c.Resources.MemoryLimitInBytes = q.Value()
	}
	return c
}

// annotationsKey is what a container's annotations are made of: the attempt and the pod's grace
// period (-1 for none).
type annotationsKey struct {
	attempt uint32
	grace   int64
}

// containerAnnotations is the annotations the kubelet gives a container: its restart count and the
// pod's termination grace period. Containers with the same ones share one map (the runtime keeps
// and hands out the caller's map, and no one modifies it), for the first attempts; a crash-looping
// container's later attempts get their own, so the shared set stays small.
func (k *Kubelet) containerAnnotations(p *api.Pod, attempt uint32) map[string]string {
	key := annotationsKey{attempt: attempt, grace: -1}
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
		key.grace = *g
	}
	if a, ok := k.sharedAnnotations[key]; ok {
		return a
	}
	a := map[string]string{fakeruntime.AnnotationRestartCount: strconv.Itoa(int(attempt))}
	if key.grace >= 0 {
		a[fakeruntime.AnnotationGracePeriod] = strconv.FormatInt(key.grace, 10)
	}
	if attempt < 4 && len(k.sharedAnnotations) < 64 {
		if k.sharedAnnotations == nil {
			k.sharedAnnotations = map[annotationsKey]map[string]string{}
		}
		k.sharedAnnotations[key] = a
	}
	return a
}

// podDesc is how the kubelet names a pod in messages: name_namespace(uid) (format.Pod).
func podDesc(p *api.Pod) string { return fmt.Sprintf("%s_%s(%s)", p.Name, p.Namespace, p.UID) }

// shortID is the first 13 hex digits of an ID, as crictl prints it.
func shortID(id string) string { return id[:min(13, len(id))] }

// errMessage is the description of a runtime error without gRPC's "rpc error: code = ... desc ="
// wrapping, as the kubelet's "Error: ..." events show it.
func errMessage(err error) string {
	var e *fakeruntime.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
