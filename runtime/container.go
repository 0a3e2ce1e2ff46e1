// container.go: the container lifecycle, CREATED -> RUNNING -> EXITED, computed lazily.
//
//	CreateContainer(ctx, sandboxID, config, sandboxConfig)   CONTAINER_CREATED, behaviour decided
//	StartContainer(ctx, id)          CONTAINER_RUNNING; an exit timer if it will end on its own
//	StopContainer(ctx, id, timeout)  SIGTERM, then SIGKILL after timeout
//	RemoveContainer(ctx, id)         gone (killed first if running)
//	ListContainers(ctx, filter)      in creation order
//	ContainerStatus(ctx, id)         state, timestamps, exit code and reason as of clock.Now()
//
// A container's state is never stored as "running" or "exited": it is derived from its start time,
// its behaviour's natural end (exit or OOM kill) and any end imposed from outside (stop, sandbox
// stop, node crash). The exit timer does not change state; it exists so that a Virtual clock stops
// at the very instant of the exit (the step driver jumps from timer to timer), and it writes the
// exit to the trace. The kubelet sees the exit only when it next lists containers: the PLEG.

package fakeruntime

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	"kubesim/clock"
)

// container is one container. Its fields are guarded by the Runtime's mu.
type container struct {
	id        string
	seq       uint64 // creation order
	sandboxID string
	reserved  string          // containerd's name for it: <name>_<pod>_<ns>_<uid>_<attempt>
	config    ContainerConfig // the caller's, kept (see RuntimeService): never modified
	pod       string          // "pods/<ns>/<name>", for trace lines
	image     string          // normalised name
	imageRef  string          // repo digest
	beh       *behavior

	createdAt time.Time
	startedAt time.Time   // zero while CREATED
	natural   *ending     // how it ends on its own once started; nil if it never does (a server)
	killed    *ending     // an end imposed from outside; wins over natural
	timer     clock.Timer // fires at natural.at; nil if none or stopped
	notes     []LogLine   // lines written in reaction to outside events (SIGTERM)
	probeHits []LogLine   // the last access-log lines written by HTTP probes
	// listed is the last answer ListContainers gave about this container, handed out again while its
	// state is the same: the PLEG lists every container every second, and nothing else in the answer
	// ever changes.
	listed *Container
	// files are the versions of its mounted files (ContainerConfig.Files, then UpdateContainerFiles),
	// oldest first.
	files []fileVersion
}

// fileVersion is the content of a container's mounted files from at on.
type fileVersion struct {
	at    time.Time
	files map[string]string
}

// mountedAt is the content of the container's mounted files at t.
func (c *container) mountedAt(t time.Time) map[string]string {
	var out map[string]string
	for _, v := range c.files {
		if v.at.After(t) {
			break
		}
		out = v.files
	}
	return out
}

// stateAt returns the container's state at now and, once exited, how it ended.
func (c *container) stateAt(now time.Time) (ContainerState, *ending) {
	switch {
	case c.killed != nil:
		return ContainerExited, c.killed
	case c.startedAt.IsZero():
		return ContainerCreated, nil
	case c.natural != nil && !now.Before(c.natural.at):
		return ContainerExited, c.natural
	}
	return ContainerRunning, nil
}

// killLocked ends a running container at now with code and reason (a SIGKILL, an OOM kill, a
// crash). It does nothing to a container that is not running.
func (r *Runtime) killLocked(c *container, now time.Time, code int32, reason string) bool {
	if st, _ := c.stateAt(now); st != ContainerRunning {
		return false
	}
	r.changedLocked()
	c.killed = &ending{at: now, code: code, reason: reason}
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	return true
}

// memoryLimit is its limits.memory in bytes, 0 for none.
func (c *container) memoryLimit() int64 {
	if c.config.Resources == nil {
		return 0
	}
	return c.config.Resources.MemoryLimitInBytes
}

// name is how crictl ps and the trace name a container.
func (c *container) name() string { return c.config.Metadata.Name }

// CreateContainer creates a container in a sandbox.
func (r *Runtime) CreateContainer(ctx context.Context, podSandboxID string, config *ContainerConfig, sandboxConfig *PodSandboxConfig) (string, error) {
	if err := r.enter(ctx); err != nil {
		return "", err
	}
	if config == nil || config.Metadata.Name == "" {
		return "", errorf(InvalidArgument, "container config must include metadata name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.sandboxLocked(podSandboxID)
	if err != nil {
		return "", err
	}
	if s.state != SandboxReady {
		return "", errorf(Unknown, "failed to create containerd container: sandbox %q is not running", podSandboxID)
	}
	img, err := r.lookupLocked(config.Image)
	if err != nil {
		return "", err
	}
	if img == nil {
		name, _ := NormalizeImage(config.Image)
		return "", errorf(NotFound, "failed to resolve image %q: not found", name)
	}
	// containerd reserves "<container>_<pod>_<namespace>_<uid>_<attempt>": creating the same
	// attempt twice is the kubelet's bug, and containerd says so.
	md := s.config.Metadata
	reserved := fmt.Sprintf("%s_%s_%s_%s_%d", config.Metadata.Name, md.Name, md.Namespace, md.UID, config.Metadata.Attempt)
	if other, taken := r.reserved[reserved]; taken {
		return "", errorf(Unknown, "failed to reserve container name %q: name %q is reserved for %q", reserved, reserved, other)
	}
	ref, _ := parseReference(config.Image)
	c := &container{
		id: r.newIDLocked(), seq: r.nextID, sandboxID: s.id, reserved: reserved, config: copyContainerConfig(config), pod: s.path,
		image: r.internLocked(ref.String()), imageRef: repoDigest(img, ref), createdAt: r.clk.Now(),
		beh: newBehavior(families[img.family], img.version, config, s.config.Hostname),
	}
	if config.Files != nil {
		c.files = []fileVersion{{at: c.createdAt, files: config.Files}}
	}
	r.addContainerLocked(c)
	r.reserved[reserved] = c.id
	s.containers = append(s.containers, c)
	r.recordDetail("create-container", c.pod, "created container %s (%s) from %s", c.name(), shortID(c.id), c.image)
	return c.id, nil
}

// repoDigest is the name@digest of img in ref's repository.
func repoDigest(img *storedImage, ref reference) string {
	for d := range img.digests {
		if len(d) > len(ref.repo()) && d[:len(ref.repo())+1] == ref.repo()+"@" {
			return d
		}
	}
	return img.id
}

// StartContainer starts a created container.
func (r *Runtime) StartContainer(ctx context.Context, containerID string) error {
	c, err := r.enterContainer(ctx, containerID)
	if err != nil {
		return err
	}
	defer r.mu.Unlock()
	now := r.clk.Now()
	if st, _ := c.stateAt(now); st != ContainerCreated {
		return errorf(Unknown, "failed to start container %q: container is in %s state", containerID, st)
	}
	if s := r.sandboxes[c.sandboxID]; s == nil || s.state != SandboxReady {
		return errorf(Unknown, "failed to start container %q: sandbox container %q is not running", containerID, c.sandboxID)
	}
	c.startedAt = now
	r.changedLocked()
	if msg := c.beh.startErr; msg != "" {
		// runc could not exec the process: containerd marks the container exited with 128.
		c.killed = &ending{at: now, code: 128, reason: "StartError", log: msg}
		r.record("start-container", c.pod, "container %s failed to start: %s", c.name(), msg)
		return errorf(Unknown, "%s", msg)
	}
	if end, ok := c.beh.naturalEnd(now, c.memoryLimit()); ok {
		c.natural = &end
		id := c.id
		c.timer = r.clk.AfterFunc(c.natural.at.Sub(now), func() { r.exited(id) })
	}
	r.recordDetail("start-container", c.pod, "started container %s (%s), restart count %d", c.name(), shortID(c.id), restartCount(c.config.Annotations))
	return nil
}

// exited runs at a container's natural end (its exit timer) and writes it to the trace.
func (r *Runtime) exited(id string) {
	r.mu.Lock()
	c, ok := r.containers[id]
	if !ok || c.killed != nil || c.timer == nil {
		r.mu.Unlock()
		return
	}
	c.timer = nil
	e, pod, name := *c.natural, c.pod, c.name()
	r.mu.Unlock()
	r.record("exit", pod, "container %s exited with code %d (%s)", name, e.code, e.reason)
}

// StopContainer stops a container: SIGTERM, then SIGKILL after timeout.
func (r *Runtime) StopContainer(ctx context.Context, containerID string, timeout time.Duration) error {
	c, err := r.enterContainer(ctx, containerID)
	if err != nil {
		return err
	}
	now := r.clk.Now()
	if st, _ := c.stateAt(now); st != ContainerRunning {
		r.mu.Unlock()
		return nil
	}
	if timeout > 0 && c.beh.gracefulStop {
		r.killLocked(c, now, 0, "Completed")
		c.notes = append(c.notes, LogLine{Time: now, Stream: "stderr", Log: sigtermLog(c.beh, now)})
		r.mu.Unlock()
		r.record("stop-container", c.pod, "container %s exited on SIGTERM with code 0", c.name())
		return nil
	}
	wait := max(timeout, 0)
	if c.natural != nil {
		wait = min(wait, c.natural.at.Sub(now))
	}
	pod, name := c.pod, c.name()
	r.mu.Unlock()
	if timeout > 0 {
		r.recordDetail("stop-container", pod, "container %s ignores SIGTERM (a shell as PID 1 has no handler): SIGKILL in %s", name, wait)
	}
	running := func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		st, _ := c.stateAt(r.clk.Now())
		return st == ContainerRunning
	}
	if err := r.wait(ctx, wait, running); err != nil {
		return err
	}
	r.mu.Lock()
	killed := r.killLocked(c, r.clk.Now(), 137, "Error")
	r.mu.Unlock()
	if killed {
		r.record("stop-container", pod, "container %s killed with SIGKILL: exit code 137", name)
	}
	return nil
}

// RemoveContainer removes a container, killing it first if it runs.
func (r *Runtime) RemoveContainer(ctx context.Context, containerID string) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.containers[containerID]
	if !ok {
		return nil
	}
	r.removeContainerLocked(c, r.clk.Now())
	return nil
}

// removeContainerLocked kills c if it runs and forgets it, freeing its reserved name.
func (r *Runtime) removeContainerLocked(c *container, now time.Time) {
	r.killLocked(c, now, 137, "Error")
	r.forgetContainerLocked(c)
	delete(r.reserved, c.reserved)
	if s := r.sandboxes[c.sandboxID]; s != nil {
		s.containers = deleteBySeq(s.containers, c)
	}
	r.recordDetail("remove-container", c.pod, "removed container %s (%s)", c.name(), shortID(c.id))
}

// ListContainers returns the containers matching filter, in creation order (index.go).
func (r *Runtime) ListContainers(ctx context.Context, filter *ContainerFilter) ([]*Container, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clk.Now()
	if filter == nil {
		if out, ok := r.idx.containerList.get(r.idx.gen, now); ok {
			return out, nil
		}
	}
	candidates := r.containerCandidatesLocked(filter)
	out := make([]*Container, 0, len(candidates))
	// until is the first natural end still to come among those listed: the cached answer holds
	// until then.
	var until time.Time
	for _, c := range candidates { // oldest first
		if filter != nil && (filter.ID != "" && filter.ID != c.id ||
			filter.PodSandboxID != "" && filter.PodSandboxID != c.sandboxID ||
			!matchLabels(filter.LabelSelector, c.config.Labels)) {
			continue
		}
		st, _ := c.stateAt(now)
		if filter != nil && filter.State != nil && *filter.State != st {
			continue
		}
		if st == ContainerRunning && c.natural != nil && (until.IsZero() || c.natural.at.Before(until)) {
			until = c.natural.at
		}
		if c.listed == nil || c.listed.State != st {
			c.listed = &Container{
				ID: c.id, PodSandboxID: c.sandboxID, Metadata: c.config.Metadata, Image: c.image, ImageRef: c.imageRef,
				State: st, CreatedAt: c.createdAt, Labels: c.config.Labels, Annotations: c.config.Annotations,
			}
		}
		out = append(out, c.listed)
	}
	if filter == nil {
		return r.idx.containerList.put(r.idx.gen, until, out), nil
	}
	return out, nil
}

// ContainerStatus returns a container's status as of now.
func (r *Runtime) ContainerStatus(ctx context.Context, containerID string) (*ContainerStatus, error) {
	c, err := r.enterContainer(ctx, containerID)
	if err != nil {
		return nil, err
	}
	defer r.mu.Unlock()
	st, end := c.stateAt(r.clk.Now())
	out := &ContainerStatus{
		ID: c.id, Metadata: c.config.Metadata, State: st, CreatedAt: c.createdAt, StartedAt: c.startedAt,
		Image: c.image, ImageRef: c.imageRef, Labels: c.config.Labels, Annotations: c.config.Annotations,
		LogPath: c.config.LogPath, Resources: c.config.Resources,
	}
	if end != nil {
		out.FinishedAt, out.ExitCode, out.Reason = end.at, end.code, end.reason
		if end.reason == "StartError" {
			out.Message = end.log
		}
	}
	return out, nil
}

// containerLocked finds a container or returns containerd's NotFound.
// enterContainer is how a call on one container begins: the fault gate (enter), then r.mu and the
// lookup. On success the caller holds r.mu and must unlock it; on error it is not held.
func (r *Runtime) enterContainer(ctx context.Context, id string) (*container, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	c, err := r.containerLocked(id)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	return c, nil
}

func (r *Runtime) containerLocked(id string) (*container, error) {
	c, ok := r.containers[id]
	if !ok {
		return nil, errorf(NotFound, "an error occurred when try to find container %q: not found", id)
	}
	return c, nil
}

// killAllLocked is a node crash: every running container dies, every sandbox stops.
func (r *Runtime) killAllLocked() {
	now := r.clk.Now()
	n := 0
	for _, c := range r.containers {
		if r.killLocked(c, now, 255, "Unknown") {
			n++
		}
	}
	for _, s := range r.sandboxes {
		s.state = SandboxNotReady
	}
	r.changedLocked()
	r.record("crash", "", "node crashed: %d running containers lost (exit code 255, reason Unknown), %d sandboxes NOTREADY", n, len(r.sandboxes))
}

// copyContainerConfig is the container's copy of its config: the struct and its resources are
// copied, its slices and maps kept (the caller gives them up, see RuntimeService).
func copyContainerConfig(c *ContainerConfig) ContainerConfig {
	out := *c
	if c.Resources != nil {
		res := *c.Resources
		out.Resources = &res
	}
	return out
}

// restartCount reads the kubelet's restart-count annotation (0 when absent), for trace lines.
func restartCount(annotations map[string]string) int {
	n, _ := strconv.Atoi(annotations[AnnotationRestartCount])
	return n
}

// UpdateContainerFiles replaces the content of a container's mounted files from now on, as the
// kubelet's volume manager rewrites a configMap or secret volume (AtomicWriter) when its object
// changed. Only files the container was created with are read: a key added later is not seen. (Not
// a CRI call: in Kubernetes the kubelet writes the host directories the mounts share.)
func (r *Runtime) UpdateContainerFiles(ctx context.Context, containerID string, files map[string]string) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return err
	}
	c.files = append(c.files, fileVersion{at: r.clk.Now(), files: maps.Clone(files)})
	return nil
}
