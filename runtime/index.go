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
// costs nothing but the lock: every caller gets the cached slice itself, not a copy (a relist a
// second on each of thousands of nodes made those copies a fair part of the kubelets' garbage). Entries are handed out again, the same pointers, while their state is
// the same (container.go): a caller may compare them by identity.

package fakeruntime

import (
	"cmp"
	"slices"
	"time"
)

// index is the runtime's lists in creation order and by pod uid. Guarded by the Runtime's mu.
type index struct {
	gen        uint64 // bumped by every change to what ListPodSandbox or ListContainers reports
	sandboxes  ordered[*sandbox]
	containers ordered[*container]

	sandboxList   listCache[PodSandbox]
	containerList listCache[Container]
}

// sequenced is a sandbox or a container: what has a creation order.
type sequenced interface {
	comparable
	order() uint64
}

func (s *sandbox) order() uint64   { return s.seq }
func (c *container) order() uint64 { return c.seq }

// ordered is one kind's entries, oldest first (by seq): all of them, and those whose
// io.kubernetes.pod.uid label has a value, by that value.
type ordered[T sequenced] struct {
	all   []T
	byUID map[string][]T
}

// add indexes x, the newest (its seq is the highest), under its pod uid ("" for none).
func (o *ordered[T]) add(x T, uid string) {
	o.all = append(o.all, x)
	if uid == "" {
		return
	}
	if o.byUID == nil {
		o.byUID = map[string][]T{}
	}
	o.byUID[uid] = append(o.byUID[uid], x)
}

// remove forgets x, indexed under uid.
func (o *ordered[T]) remove(x T, uid string) {
	o.all = deleteBySeq(o.all, x)
	if uid == "" {
		return
	}
	if rest := deleteBySeq(o.byUID[uid], x); len(rest) > 0 {
		o.byUID[uid] = rest
	} else {
		delete(o.byUID, uid)
	}
}

// candidates is where the entries a label selector matches are: a pod's own when it names the pod
// uid, else all.
func (o *ordered[T]) candidates(selector map[string]string) []T {
	if uid, ok := selector[LabelPodUID]; ok {
		return o.byUID[uid]
	}
	return o.all
}

// listCache is the last unfiltered answer of a list call.
type listCache[T any] struct {
	valid bool
	gen   uint64
	until time.Time // the answer holds until this time (zero: no natural end pending)
	items []*T
}

// get returns the cached answer if it still holds at now. Every caller gets the same slice (see
// RuntimeService: an answer is read, never modified); its capacity is clipped to its length, so
// that even an append makes a new array rather than writing into the cache's.
func (c *listCache[T]) get(gen uint64, now time.Time) ([]*T, bool) {
	if !c.valid || c.gen != gen || !c.until.IsZero() && !now.Before(c.until) {
		return nil, false
	}
	return c.items, true
}

// put keeps answer as the cached one, and returns it (shared, as get does).
func (c *listCache[T]) put(gen uint64, until time.Time, answer []*T) []*T {
	answer = slices.Clip(answer)
	c.valid, c.gen, c.until, c.items = true, gen, until, answer
	return answer
}

// changedLocked marks that what the lists report has changed.
func (r *Runtime) changedLocked() { r.idx.gen++ }

// podUID is the pod uid label of a label set ("" without one).
func podUID(labels map[string]string) string { return labels[LabelPodUID] }

// addSandboxLocked indexes a new sandbox (the newest: its seq is the highest).
func (r *Runtime) addSandboxLocked(s *sandbox) {
	r.sandboxes[s.id] = s
	r.idx.sandboxes.add(s, podUID(s.config.Labels))
	r.changedLocked()
}

// removeSandboxLocked forgets a sandbox.
func (r *Runtime) removeSandboxLocked(s *sandbox) {
	delete(r.sandboxes, s.id)
	r.idx.sandboxes.remove(s, podUID(s.config.Labels))
	r.changedLocked()
}

// addContainerLocked indexes a new container (the newest).
func (r *Runtime) addContainerLocked(c *container) {
	r.containers[c.id] = c
	r.idx.containers.add(c, podUID(c.config.Labels))
	r.changedLocked()
}

// forgetContainerLocked removes a container from the index.
func (r *Runtime) forgetContainerLocked(c *container) {
	delete(r.containers, c.id)
	r.idx.containers.remove(c, podUID(c.config.Labels))
	r.changedLocked()
}

// deleteBySeq removes x from list, which is sorted by seq.
func deleteBySeq[T sequenced](list []T, x T) []T {
	i, found := slices.BinarySearchFunc(list, x.order(), func(e T, want uint64) int { return cmp.Compare(e.order(), want) })
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
		return r.idx.sandboxes.all
	case filter.ID != "":
		if s, ok := r.sandboxes[filter.ID]; ok {
			return []*sandbox{s}
		}
		return nil
	}
	return r.idx.sandboxes.candidates(filter.LabelSelector)
}

// containerCandidatesLocked is where the containers matching filter are, oldest first.
func (r *Runtime) containerCandidatesLocked(filter *ContainerFilter) []*container {
	switch {
	case filter == nil:
		return r.idx.containers.all
	case filter.ID != "":
		if c, ok := r.containers[filter.ID]; ok {
			return []*container{c}
		}
		return nil
	}
	return r.idx.containers.candidates(filter.LabelSelector)
}
