// runtime.go: the fake containerd: its state, its IDs, and the calls that are about the runtime as
// a whole.
//
//	New(opts) (*Runtime, error)    a node's runtime, with the pause image already in its store
//	(*Runtime).Version, Status     identity and the RuntimeReady/NetworkReady conditions
//	UpdateRuntimeConfig            the node's podCIDR, once it has one (cni.go)
//
// Sandboxes are in sandbox.go, containers in container.go, images in images.go, what a container does
// once started in behavior.go, probes in probe.go, logs in logs.go, stats in stats.go, faults in
// faults.go, and how the lists are answered without a scan of the node in index.go.

package fakeruntime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"kubesim/clock"
	"kubesim/trace"
)

// Runtime is one node's container runtime: containerd with its CRI plugin, runc, and the CNI plugin
// that gives pods their IPs. It is safe for concurrent use.
type Runtime struct {
	opts Options
	clk  clock.Clock

	mu sync.Mutex
	// mu guards everything below. It is never held while waiting on the clock (see wait), and clock
	// callbacks (exit timers) take it, so no method may call into the clock's Advance with it held.
	fault      Fault
	faultGen   uint64 // bumped by every SetFault, so a hung call can tell the fault changed
	nextID     uint64
	ipam       *ipam
	sandboxes  map[string]*sandbox   // by ID
	containers map[string]*container // by ID; each is also in its sandbox's containers
	// reserved maps containerd's reserved container names to their container, as long as the
	// container exists.
	reserved map[string]string
	images   map[string]*storedImage
	// images is keyed by image ID; tags maps each normalised repo:tag to an image ID in images.
	tags map[string]string
	// names holds one copy of each image name containers were created from, which every container
	// of that image shares instead of its own (a node runs many containers of few images).
	names map[string]string
	// idx answers the lists: creation order, pod uids, the last unfiltered answers (index.go).
	idx index
}

// internLocked returns the runtime's copy of s, keeping s as that copy if it has none. Only image
// names go here: there are few of them.
func (r *Runtime) internLocked(s string) string {
	if v, ok := r.names[s]; ok {
		return v
	}
	if r.names == nil {
		r.names = map[string]string{}
	}
	r.names[s] = s
	return s
}

var (
	_ RuntimeService = (*Runtime)(nil)
	_ ImageService   = (*Runtime)(nil)
)

// New returns the runtime of one node, with the pause image already pulled (kubeadm pre-pulls it;
// containerd pins it).
func New(opts Options) (*Runtime, error) {
	if opts.Clock == nil {
		return nil, errors.New("fakeruntime: Options.Clock is required")
	}
	if opts.Arch == "" {
		opts.Arch = DefaultArch
	}
	if opts.Arch != "amd64" && opts.Arch != "arm64" {
		return nil, fmt.Errorf("fakeruntime: unsupported architecture %q (amd64 or arm64)", opts.Arch)
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.ImageFsCapacityBytes == 0 {
		opts.ImageFsCapacityBytes = DefaultImageFsCapacityBytes
	}
	var pool *ipam // nil until the node has a podCIDR (see cni.go)
	if opts.PodCIDR != "" {
		var err error
		if pool, err = newIPAM(opts.PodCIDR); err != nil {
			return nil, err
		}
	}
	r := &Runtime{
		opts:       opts,
		clk:        opts.Clock,
		ipam:       pool,
		sandboxes:  map[string]*sandbox{},
		containers: map[string]*container{},
		reserved:   map[string]string{},
		images:     map[string]*storedImage{},
		tags:       map[string]string{},
	}
	ref, err := parseReference(PauseImage)
	if err != nil {
		return nil, err
	}
	r.storeImageLocked(ref, lookupCatalogue(ref), true)
	for _, name := range opts.Preloaded {
		ref, err := parseReference(name)
		if err != nil {
			return nil, fmt.Errorf("fakeruntime: preloaded image %q: %w", name, err)
		}
		img := lookupCatalogue(ref)
		if img == nil {
			return nil, fmt.Errorf("fakeruntime: preloaded image %q is not in any registry", name)
		}
		r.storeImageLocked(ref, img, false)
	}
	return r, nil
}

// Version reports containerd's identity.
func (r *Runtime) Version(ctx context.Context) (*VersionResponse, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	return &VersionResponse{Version: "0.1.0", RuntimeName: "containerd", RuntimeVersion: "2.0.2", RuntimeAPIVersion: "v1"}, nil
}

// Status reports the runtime as ready whenever containerd answers (the faults make it not answer),
// and the network as ready once it knows the node's podCIDR (see cni.go).
func (r *Runtime) Status(ctx context.Context) (*RuntimeStatus, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return &RuntimeStatus{Conditions: []RuntimeCondition{{Type: RuntimeReady, Status: true}, r.networkConditionLocked()}}, nil
}

// newIDLocked returns the next ID: 64 hex digits like containerd's, derived from the node name and a
// counter, so IDs are unique across nodes and identical from run to run.
func (r *Runtime) newIDLocked() string {
	r.nextID++
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d", r.opts.NodeName, r.nextID))
	return hex.EncodeToString(sum[:])
}

// record writes one trace line as containerd on this node.
func (r *Runtime) record(action, object, format string, args ...any) {
	r.opts.Trace.Record(trace.Event{Component: "containerd/" + r.opts.NodeName, Action: action, Object: object}.Msgf(format, args...))
}

// recordDetail writes a routine trace line (hidden by the text narrator unless asked for).
func (r *Runtime) recordDetail(action, object, format string, args ...any) {
	r.opts.Trace.Record(trace.Event{Component: "containerd/" + r.opts.NodeName, Action: action, Object: object, Detail: true}.Msgf(format, args...))
}

// shortID is how crictl and kubectl print IDs: the first 13 hex digits.
func shortID(id string) string { return id[:min(13, len(id))] }

// matchLabels reports whether labels contain every pair of selector.
func matchLabels(selector, labels map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
