// sandbox.go: pod sandboxes, the pause container that holds a pod's network namespace.
//
//	RunPodSandbox(ctx, config)        start the pause container, allocate the pod IP
//	StopPodSandbox(ctx, id)           kill the pod's containers and the pause container; keep the IP
//	RemovePodSandbox(ctx, id)         delete the sandbox and its containers, release the IP
//	PodSandboxStatus(ctx, id)         state and IP
//	ListPodSandbox(ctx, filter)       sandboxes, sorted by creation then ID
//
// Every container of a pod joins the sandbox's namespaces, which is why the containers of one pod
// share an IP and reach each other on localhost. The kubelet creates the sandbox first (after the
// event "Successfully assigned ..."), and if the sandbox dies it kills the pod's containers and
// creates a new sandbox with Attempt+1: a pod's IP can change without the pod being recreated.
// A hostNetwork pod's sandbox joins the node's network namespace instead: the CNI plugin is not
// called, no address is taken from the podCIDR, and the sandbox reports no IP of its own.

package fakeruntime

import (
	"context"
	"net/netip"
	"slices"
	"time"
)

// sandbox is one pod sandbox. Its fields are guarded by the Runtime's mu.
type sandbox struct {
	id        string
	seq       uint64           // creation order, for sorting lists
	config    PodSandboxConfig // the caller's, kept (see RuntimeService): never modified
	path      string           // "pods/<ns>/<name>", how trace lines name the pod, shared by its containers
	state     PodSandboxState
	createdAt time.Time
	ip        netip.Addr // invalid (zero) for a sandbox on the host's network
	// containers are the sandbox's containers (all of them, running or not), oldest first: a slice,
	// as most sandboxes hold one or two.
	containers []*container
	// listed is the last answer ListPodSandbox gave about this sandbox, handed out again while its
	// state is the same (as a container's, container.go).
	listed *PodSandbox
}

// object names the pod in trace lines.
func (s *sandbox) object() string { return s.path }

// RunPodSandbox creates and starts a sandbox and returns its ID.
func (r *Runtime) RunPodSandbox(ctx context.Context, config *PodSandboxConfig) (string, error) {
	if err := r.enter(ctx); err != nil {
		return "", err
	}
	if config == nil || config.Metadata.Name == "" || config.Metadata.Namespace == "" || config.Metadata.UID == "" {
		return "", errorf(InvalidArgument, "sandbox config must include metadata name, namespace and uid")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	id := r.newIDLocked()
	var ip netip.Addr
	if !config.HostNetwork {
		var err error
		if ip, err = r.cniAddLocked(id, config); err != nil {
			return "", err
		}
	}
	s := &sandbox{id: id, seq: r.nextID, config: copySandboxConfig(config), state: SandboxReady, createdAt: r.clk.Now(), ip: ip,
		path: "pods/" + config.Metadata.Namespace + "/" + config.Metadata.Name}
	r.addSandboxLocked(s)
	if config.HostNetwork {
		r.record("run-sandbox", s.object(), "started sandbox %s (%s) for pod %s/%s, attempt %d, in the node's network namespace (hostNetwork: no CNI ADD, no pod IP)",
			shortID(s.id), PauseImage, config.Metadata.Namespace, config.Metadata.Name, config.Metadata.Attempt)
		return s.id, nil
	}
	r.record("run-sandbox", s.object(), "started sandbox %s (%s) for pod %s/%s, attempt %d, IP %s",
		shortID(s.id), PauseImage, config.Metadata.Namespace, config.Metadata.Name, config.Metadata.Attempt, ip)
	return s.id, nil
}

// StopPodSandbox stops a sandbox and every container in it.
func (r *Runtime) StopPodSandbox(ctx context.Context, podSandboxID string) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.sandboxLocked(podSandboxID)
	if err != nil {
		return err
	}
	now := r.clk.Now()
	for _, c := range s.containers {
		r.killLocked(c, now, 137, "Error")
	}
	if s.state == SandboxReady {
		s.state = SandboxNotReady
		r.changedLocked()
		r.recordDetail("stop-sandbox", s.object(), "stopped sandbox %s", shortID(s.id))
	}
	return nil
}

// RemovePodSandbox removes a sandbox with its containers and releases its IP.
func (r *Runtime) RemovePodSandbox(ctx context.Context, podSandboxID string) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sandboxes[podSandboxID]
	if !ok {
		return nil
	}
	now := r.clk.Now()
	for _, c := range slices.Clone(s.containers) { // oldest first, the trace's order
		r.removeContainerLocked(c, now)
	}
	r.removeSandboxLocked(s)
	if s.config.HostNetwork {
		r.recordDetail("remove-sandbox", s.object(), "removed sandbox %s (host network: no IP to release)", shortID(s.id))
		return nil
	}
	r.cniDelLocked(s)
	r.recordDetail("remove-sandbox", s.object(), "removed sandbox %s, released IP %s", shortID(s.id), s.ip)
	return nil
}

// PodSandboxStatus returns a sandbox's status.
func (r *Runtime) PodSandboxStatus(ctx context.Context, podSandboxID string) (*PodSandboxStatus, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.sandboxLocked(podSandboxID)
	if err != nil {
		return nil, err
	}
	return &PodSandboxStatus{
		ID: s.id, Metadata: s.config.Metadata, State: s.state, CreatedAt: s.createdAt,
		Network: PodSandboxNetworkStatus{IP: sandboxIP(s.ip)},
		Labels:  s.config.Labels, Annotations: s.config.Annotations,
	}, nil
}

// ListPodSandbox returns the sandboxes matching filter, oldest first (index.go).
func (r *Runtime) ListPodSandbox(ctx context.Context, filter *PodSandboxFilter) ([]*PodSandbox, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if filter == nil {
		if out, ok := r.idx.sandboxList.get(r.idx.gen, time.Time{}); ok {
			return out, nil
		}
	}
	candidates := r.sandboxCandidatesLocked(filter)
	out := make([]*PodSandbox, 0, len(candidates))
	for _, s := range candidates { // oldest first
		if filter != nil && (filter.ID != "" && filter.ID != s.id ||
			filter.State != nil && *filter.State != s.state ||
			!matchLabels(filter.LabelSelector, s.config.Labels)) {
			continue
		}
		if s.listed == nil || s.listed.State != s.state {
			s.listed = &PodSandbox{ID: s.id, Metadata: s.config.Metadata, State: s.state, CreatedAt: s.createdAt,
				Labels: s.config.Labels, Annotations: s.config.Annotations}
		}
		out = append(out, s.listed)
	}
	if filter == nil {
		return r.idx.sandboxList.put(r.idx.gen, time.Time{}, out), nil // sandboxes change only by calls
	}
	return out, nil
}

// sandboxLocked finds a sandbox or returns containerd's NotFound.
func (r *Runtime) sandboxLocked(id string) (*sandbox, error) {
	s, ok := r.sandboxes[id]
	if !ok {
		return nil, errorf(NotFound, "an error occurred when try to find sandbox %q: not found", id)
	}
	return s, nil
}

// sandboxIP is the address PodSandboxStatus reports: none for a sandbox on the host's network.
func sandboxIP(ip netip.Addr) string {
	if !ip.IsValid() {
		return ""
	}
	return ip.String()
}

// copySandboxConfig is the sandbox's copy of its config: the struct is copied, its slices and maps
// kept (the caller gives them up, see RuntimeService).
func copySandboxConfig(c *PodSandboxConfig) PodSandboxConfig { return *c }
