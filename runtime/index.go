// index.go: how the lists are answered without scanning and sorting every sandbox and container.
//
//	index            sandboxes and containers in creation order, and by pod uid
//	listCache        the last unfiltered answer, kept while nothing it reports can have changed
//
// The kubelet lists its runtime all the time: the PLEG lists every sandbox and container each
// second, and every pod sync lists the pod's own (a label selector on io.kubernetes.pod.uid).
// containerd answers from its in-memory store; kubesim's answer used to be a scan of every
// sandbox or container of the node, matching labels and sorting by creation, for each of those
// calls: a node of 100 pods paid 100 label matches for each pod it synced. The index keeps the
// creation order (so nothing is sorted) and the pod uid (so a pod's sync looks at its own
// sandboxes and containers only). The answers are the same: the full filter is still applied to
// whatever the index offers.
//
// An unfiltered list is also kept as a whole while the runtime's generation (bumped by every call
// that changes what a list reports: a sandbox or container created, started, stopped, killed or
// removed) is the same and no running container has reached its natural end (an exit or an OOM
// kill computed from the clock, which no call announces). The PLEG's relist of an idle node then
// costs a copy of the slice. Entries are handed out again, the same pointers, while their state is
// the same (container.go): a caller may compare them by identity.

package fakeruntime

import (
	"cmp"
	"slices"
	"time"
)

// index is the runtime's lists in creation order and by pod uid. Guarded by the Runtime's mu.
type index struct {
	gen        uint64     // bumped by every change to what ListPodSandbox or ListContainers reports
	sandboxes  []*sandbox // every sandbox, oldest first (by seq)
	containers []*container
	// bySandboxUID and byContainerUID hold the sandboxes and containers whose io.kubernetes.pod.uid
	// label has that value, oldest first.
	bySandboxUID   map[string][]*sandbox
	byContainerUID map[string][]*container

	sandboxList   listCache[PodSandbox]
	containerList listCache[Container]
}

// listCache is the last unfiltered answer of a list call.
type listCache[T any] struct {
	valid bool
	gen   uint64
	until time.Time // the answer holds until this time (zero: no natural end pending)
	items []*T
}

// get returns a copy of the cached answer if it still holds at now.
func (c *listCache[T]) get(gen uint64, now time.Time) ([]*T, bool) {
	if !c.valid || c.gen != gen || !c.until.IsZero() && !now.Before(c.until) {
		return nil, false
	}
	return slices.Clone(c.items), true
}

// put keeps answer as the cached one (the caller gets its own copy).
func (c *listCache[T]) put(gen uint64, until time.Time, answer []*T) []*T {
	c.valid, c.gen, c.until, c.items = true, gen, until, answer
	return slices.Clone(answer)
}

// changedLocked marks that what the lists report has changed.
func (r *Runtime) changedLocked() { r.idx.gen++ }

// podUID is the pod uid label of a label set ("" without one).
func podUID(labels map[string]string) string { return labels[LabelPodUID] }

// addSandboxLocked indexes a new sandbox (the newest: its seq is the highest).
func (r *Runtime) addSandboxLocked(s *sandbox) {
	r.sandboxes[s.id] = s
	r.idx.sandboxes = append(r.idx.sandboxes, s)
	if uid := podUID(s.config.Labels); uid != "" {
		if r.idx.bySandboxUID == nil {
			r.idx.bySandboxUID = map[string][]*sandbox{}
		}
		r.idx.bySandboxUID[uid] = append(r.idx.bySandboxUID[uid], s)
	}
	r.changedLocked()
}

// removeSandboxLocked forgets a sandbox.
func (r *Runtime) removeSandboxLocked(s *sandbox) {
	delete(r.sandboxes, s.id)
	r.idx.sandboxes = deleteBySeq(r.idx.sandboxes, s, func(s *sandbox) uint64 { return s.seq })
	if uid := podUID(s.config.Labels); uid != "" {
		if rest := deleteBySeq(r.idx.bySandboxUID[uid], s, func(s *sandbox) uint64 { return s.seq }); len(rest) > 0 {
			r.idx.bySandboxUID[uid] = rest
		} else {
			delete(r.idx.bySandboxUID, uid)
		}
	}
	r.changedLocked()
}

// addContainerLocked indexes a new container (the newest).
func (r *Runtime) addContainerLocked(c *container) {
	r.containers[c.id] = c
	r.idx.containers = append(r.idx.containers, c)
	if uid := podUID(c.config.Labels); uid != "" {
		if r.idx.byContainerUID == nil {
			r.idx.byContainerUID = map[string][]*container{}
		}
		r.idx.byContainerUID[uid] = append(r.idx.byContainerUID[uid], c)
	}
	r.changedLocked()
}

// forgetContainerLocked removes a container from the index.
func (r *Runtime) forgetContainerLocked(c *container) {
	delete(r.containers, c.id)
	r.idx.containers = deleteBySeq(r.idx.containers, c, func(c *container) uint64 { return c.seq })
	if uid := podUID(c.config.Labels); uid != "" {
		if rest := deleteBySeq(r.idx.byContainerUID[uid], c, func(c *container) uint64 { return c.seq }); len(rest) > 0 {
			r.idx.byContainerUID[uid] = rest
		} else {
			delete(r.idx.byContainerUID, uid)
		}
	}
	r.changedLocked()
}

// deleteBySeq removes x from list, which is sorted by seq.
func deleteBySeq[T comparable](list []T, x T, seq func(T) uint64) []T {
	i, found := slices.BinarySearchFunc(list, seq(x), func(e T, want uint64) int { return cmp.Compare(seq(e), want) })
	if !found || list[i] != x {
		return list
	}
	return slices.Delete(list, i, i+1)
}

// sandboxCandidatesLocked is where the sandboxes matching filter are, oldest first: a superset,
// to which the filter is still applied.
func (r *Runtime) sandboxCandidatesLocked(filter *PodSandboxFilter) []*sandbox {
	switch {
	case filter == nil:
		return r.idx.sandboxes
	case filter.ID != "":
		if s, ok := r.sandboxes[filter.ID]; ok {
			return []*sandbox{s}
		}
		return nil
	}
	if uid, ok := filter.LabelSelector[LabelPodUID]; ok {
		return r.idx.bySandboxUID[uid]
	}
	return r.idx.sandboxes
}

// containerCandidatesLocked is where the containers matching filter are, oldest first.
func (r *Runtime) containerCandidatesLocked(filter *ContainerFilter) []*container {
	switch {
	case filter == nil:
		return r.idx.containers
	case filter.ID != "":
		if c, ok := r.containers[filter.ID]; ok {
			return []*container{c}
		}
		return nil
	}
	if uid, ok := filter.LabelSelector[LabelPodUID]; ok {
		return r.idx.byContainerUID[uid]
	}
	return r.idx.containers
}
