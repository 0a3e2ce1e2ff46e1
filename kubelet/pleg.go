// pleg.go: the Pod Lifecycle Event Generator (pkg/kubelet/pleg/generic.go).
//
//	relist(ctx)            list every sandbox and container; queue the pods whose containers changed
//	plegHealthy(last, now) healthy unless the last completed relist is older than 3 minutes
//
// The runtime never tells the kubelet that a container exited; the kubelet asks. Every second the
// PLEG lists all sandboxes and containers, compares with what it saw last time, and turns each
// difference (a container started, exited, vanished) into a sync of its pod. That is how a crash
// becomes a restart within about a second.
//
// The PLEG is also a health check on the runtime: if a relist has not completed for 3 minutes
// (containerd hung, or so slow that one relist takes minutes), the node's Ready message adds
// `PLEG is not healthy: pleg was last seen active 3m0.1s ago; threshold is 3m0s` to the
// `container runtime is down` that the status check (runtime_state.go) has reported since 30 s.
// The containers already running are not touched: they keep running, unobserved.
package kubelet

import (
	"context"
	"fmt"
	"time"

	fakeruntime "kubesim/runtime"
)

const (
	// relistPeriod is how often the PLEG lists the runtime.
	relistPeriod = time.Second
	// relistThreshold is how stale the last relist may be before the PLEG is unhealthy.
	relistThreshold = 3 * time.Minute
)

// pleg is the PLEG's memory: what it saw at the last relist.
type pleg struct {
	// sandboxes and containers are the last relist's answers, oldest first.
	sandboxes  []*fakeruntime.PodSandbox
	containers []*fakeruntime.Container
	busyUntil  time.Time // a relist is still "running" (step mode, a slow runtime)
	lastErr    string
}

// relist lists the runtime and queues the pods that changed.
func (k *Kubelet) relist(ctx context.Context) {
	defer k.after(taskRelist, relistPeriod)
	now := k.clock.Now()
	if now.Before(k.pleg.busyUntil) {
		return
	}
	var sandboxes []*fakeruntime.PodSandbox
	var containers []*fakeruntime.Container
	took, pending, err := k.call(func() (err error) {
		if sandboxes, err = k.runtime.ListPodSandbox(ctx, nil); err != nil {
			return err
		}
		containers, err = k.runtime.ListContainers(ctx, nil)
		return err
	})
	if pending && err == nil {
		// A slow runtime's answer arrives took later. (A failed call does not hold the next relist
		// back: on a hung runtime that would mean waiting out the 2-minute request timeout after
		// containerd has recovered, where a real kubelet's blocked call returns at once.)
		k.pleg.busyUntil = now.Add(took)
	}
	if err != nil {
		if k.pleg.lastErr != err.Error() {
			k.pleg.lastErr = err.Error()
			k.record("relist", "", "", "PLEG relist failed after %s: %v", took.Round(time.Millisecond), err)
		}
		return
	}
	if k.pleg.lastErr != "" {
		k.record("relist", "", "", "PLEG relist works again after %q", k.pleg.lastErr)
		k.pleg.lastErr = ""
	}
	k.mu.Lock()
	k.health.plegLastSeen = now.Add(took)
	k.mu.Unlock()
	if sameList(k.pleg.sandboxes, sandboxes) && sameList(k.pleg.containers, containers) {
		return // the runtime handed out its previous answers: nothing changed (index.go)
	}
	var changed map[string]bool
	markChanged := func(namespace, name string) {
		if changed == nil {
			changed = map[string]bool{}
		}
		changed[namespace+"/"+name] = true
	}
	diffEntries(k.pleg.sandboxes, sandboxes,
		func(s *fakeruntime.PodSandbox) string { return s.ID },
		func(old, cur *fakeruntime.PodSandbox) bool { return old.State == cur.State },
		func(s *fakeruntime.PodSandbox) { markChanged(s.Metadata.Namespace, s.Metadata.Name) })
	diffEntries(k.pleg.containers, containers,
		func(c *fakeruntime.Container) string { return c.ID },
		func(old, cur *fakeruntime.Container) bool { return old.State == cur.State },
		func(c *fakeruntime.Container) {
			markChanged(c.Labels[fakeruntime.LabelPodNamespace], c.Labels[fakeruntime.LabelPodName])
		})
	k.pleg.sandboxes, k.pleg.containers = sandboxes, containers
	if len(changed) == 0 {
		return
	}
	for _, key := range sortedKeys(changed) {
		k.enqueue(key)
	}
}

// sameList reports whether two answers are the same slice (the runtime's cached answer handed out
// again), which saves diffEntries its walk; two empty answers are the same too.
func sameList[T any](a, b []*T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// diffEntries compares two relists' answers, both oldest first, and calls changed for every entry
// that is new, gone, or in another state. The runtime lists in creation order, so the newer
// answer is the older one with some entries gone, some in a new state, and the entries created
// since at its end: one walk through both finds every difference, without a map of every
// container. An entry handed out again (the same pointer: the runtime's answer for an entry whose
// state did not change, see RuntimeService) is skipped at once. Were the order not kept, entries
// would only be reported changed that were not: never the other way round.
func diffEntries[T any](old, cur []*T, id func(*T) string, same func(old, cur *T) bool, changed func(*T)) {
	i := 0
	for _, c := range cur {
		if i < len(old) && old[i] == c {
			i++
			continue
		}
		cid := id(c)
		for i < len(old) && id(old[i]) != cid {
			changed(old[i]) // gone
			i++
		}
		if i == len(old) {
			changed(c) // new
			continue
		}
		if !same(old[i], c) {
			changed(c)
		}
		i++
	}
	for _, o := range old[i:] {
		changed(o) // gone
	}
}

// plegHealthy is the PLEG's health check.
func plegHealthy(lastSeen, now time.Time) error {
	if lastSeen.IsZero() {
		return errPLEGNotYet
	}
	if elapsed := now.Sub(lastSeen); elapsed > relistThreshold {
		return fmt.Errorf("pleg was last seen active %v ago; threshold is %v", elapsed, relistThreshold)
	}
	return nil
}

// PLEGHealthy reports the PLEG's health as the node status would (nil: healthy).
func (k *Kubelet) PLEGHealthy() error {
	return plegHealthy(k.healthSnapshot().plegLastSeen, k.clock.Now())
}
