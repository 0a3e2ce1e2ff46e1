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
	containers map[string]plegEntry // container or sandbox ID -> state and pod, as of the last relist
	// spare is the map before last, cleared and filled by the next relist: a relist of a full node
	// every second would otherwise allocate a new map of every container each time.
	spare     map[string]plegEntry
	busyUntil time.Time // a relist is still "running" (step mode, a slow runtime)
	lastErr   string
}

// plegEntry is one sandbox or container as a relist saw it. Its strings are the runtime's own (its
// metadata and labels), so remembering a container allocates nothing.
type plegEntry struct {
	state          string
	namespace, pod string
}

func (e plegEntry) key() string { return e.namespace + "/" + e.pod }

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
	seen := k.pleg.spare
	if seen == nil {
		seen = make(map[string]plegEntry, len(sandboxes)+len(containers))
	}
	clear(seen)
	var changed map[string]bool
	markChanged := func(e plegEntry) {
		if changed == nil {
			changed = map[string]bool{}
		}
		changed[e.key()] = true
	}
	known := 0 // entries of the last relist seen again
	observe := func(id string, e, old plegEntry, wasKnown bool) {
		if wasKnown {
			known++
		}
		if !wasKnown || old.state != e.state {
			markChanged(e)
		}
		seen[id] = e
	}
	for _, sb := range sandboxes {
		old, ok := k.pleg.containers[sb.ID]
		observe(sb.ID, plegEntry{state: sb.State.String(), namespace: sb.Metadata.Namespace, pod: sb.Metadata.Name}, old, ok)
	}
	for _, c := range containers {
		old, ok := k.pleg.containers[c.ID]
		e := old // a container's pod never changes: read its labels only the first time it is seen
		if !ok {
			e = plegEntry{namespace: c.Labels[fakeruntime.LabelPodNamespace], pod: c.Labels[fakeruntime.LabelPodName]}
		}
		e.state = c.State.String()
		observe(c.ID, e, old, ok)
	}
	if known < len(k.pleg.containers) { // some are gone
		for id, old := range k.pleg.containers {
			if _, ok := seen[id]; !ok {
				markChanged(old)
			}
		}
	}
	k.pleg.containers, k.pleg.spare = seen, k.pleg.containers
	k.mu.Lock()
	k.health.plegLastSeen = now.Add(took)
	k.mu.Unlock()
	for _, key := range sortedKeys(changed) {
		k.enqueue(key)
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
