// queue.go: the scheduling queue (PriorityQueue in Kubernetes' pkg/scheduler/backend/queue). A pod
// waiting for a node is in exactly one of three places:
//
//	activeQ            ready to be scheduled, ordered by priority then time in queue; Pop takes the head
//	backoffQ           failed recently: waits 1s, 2s, 4s ... up to 10s (doubling with each attempt)
//	unschedulablePods  rejected by some plugins: waits for a cluster event one of those plugins
//	                   registered (a node added, a pod deleted ...), or at most 5 minutes
//
// and, while a scheduling cycle works on it, "in flight". The queue is level-based like everything
// else: a pod moved back is simply tried again with the cluster as it is then.
//
// Time comes from the injected clock: each backoff and each 5-minute limit is a timer, so in step
// mode the driver jumps straight to it. (Kubernetes polls instead: the backoffQ every second, the
// unschedulable pods every 30 seconds.) Interface: PriorityQueue, New, Options and its methods.
package queue

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"time"

	"kubesim/api"
	"kubesim/clock"
	"kubesim/scheduler/framework"
	"kubesim/trace"
)

// Kubernetes' defaults.
const (
	DefaultPodInitialBackoffDuration         = 1 * time.Second
	DefaultPodMaxBackoffDuration             = 10 * time.Second
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
)

// Options configure a queue.
type Options struct {
	Clock clock.Clock
	// Less orders the activeQ (the QueueSort plugin).
	Less func(a, b *framework.QueuedPodInfo) bool
	// Events maps each plugin to the cluster events it registered.
	Events map[string][]framework.ClusterEvent
	// Trace, if set, narrates moves between the queues.
	Trace func(trace.Event)
}

// where a pod is.
const (
	inActive        = "activeQ"
	inBackoff       = "backoffQ"
	inUnschedulable = "unschedulablePods"
)

// waiting is a pod in the backoffQ or unschedulablePods, with the timer that will move it.
type waiting struct {
	pi    *framework.QueuedPodInfo
	timer clock.Timer
}

// PriorityQueue is the scheduling queue. Safe for concurrent use.
type PriorityQueue struct {
	clock  clock.Clock
	events map[string][]framework.ClusterEvent
	trace  func(trace.Event)
	wake   chan struct{} // a token when the activeQ may have become non-empty

	// mu guards everything below. A pod key is in at most one of activeQ, backoff, unschedulable
	// and inFlight.
	mu            sync.Mutex
	activeQ       *podHeap
	backoff       map[string]*waiting
	unschedulable map[string]*waiting
	inFlight      map[string]bool
	nominator     nominator
	// schedulingCycle counts Pops; moveRequestCycle is the cycle during which the last cluster event
	// arrived. A pod that fails in a cycle an event arrived during goes to the backoffQ, not to wait
	// for an event it has already missed.
	schedulingCycle  int64
	moveRequestCycle int64
	seq              uint64
}

// New returns an empty queue.
func New(o Options) *PriorityQueue {
	return &PriorityQueue{clock: o.Clock, events: o.Events, trace: o.Trace, wake: make(chan struct{}, 1),
		activeQ: newPodHeap(o.Less), backoff: map[string]*waiting{}, unschedulable: map[string]*waiting{},
		inFlight: map[string]bool{}, nominator: newNominator(), moveRequestCycle: -1}
}

func key(pod *api.Pod) string { return pod.Namespace + "/" + pod.Name }

func (q *PriorityQueue) record(detail bool, pod *api.Pod, format string, args ...any) {
	if q.trace != nil {
		q.trace(trace.Event{Action: "queue", Object: "pods/" + key(pod), ResourceVersion: pod.ResourceVersion, Detail: detail}.Msgf(format, args...))
	}
}

// pushActiveLocked puts pi in the activeQ and wakes a waiting Pop.
func (q *PriorityQueue) pushActiveLocked(pi *framework.QueuedPodInfo) {
	q.activeQ.addOrUpdate(pi)
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Add queues a new pending pod.
func (q *PriorityQueue) Add(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	q.removeWaitingLocked(k)
	q.seq++
	pi := &framework.QueuedPodInfo{PodInfo: framework.NewPodInfo(pod), Timestamp: q.clock.Now(), Seq: q.seq}
	q.pushActiveLocked(pi)
	q.nominator.add(pi.PodInfo, "")
	q.record(true, pod, "pending pod %s -> activeQ (priority %d)", k, framework.PodPriority(pod))
}

// Update replaces a pending pod's object. A pod waiting in unschedulablePods is moved back if its
// spec or metadata changed (a new toleration may be all it needed); a status change alone does not
// count, or the scheduler's own status writes would keep waking it.
func (q *PriorityQueue) Update(old, pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	if pi, ok := q.activeQ.get(k); ok {
		q.activeQ.addOrUpdate(q.refreshed(pi, pod))
		q.nominator.add(pi.PodInfo, "")
		return
	}
	if w, ok := q.backoff[k]; ok {
		w.pi = q.refreshed(w.pi, pod)
		q.nominator.add(w.pi.PodInfo, "")
		return
	}
	if w, ok := q.unschedulable[k]; ok {
		w.pi = q.refreshed(w.pi, pod)
		q.nominator.add(w.pi.PodInfo, "")
		if specChanged(old, pod) {
			q.requeueLocked(w.pi, whyUpdated)
		}
		return
	}
	if q.inFlight[k] {
		return // the cycle re-reads the pod from the informer when it is done
	}
	q.mu.Unlock()
	q.Add(pod)
	q.mu.Lock()
}

func (q *PriorityQueue) refreshed(pi *framework.QueuedPodInfo, pod *api.Pod) *framework.QueuedPodInfo {
	c := *pi
	c.PodInfo = framework.NewPodInfo(pod)
	return &c
}

// specChanged compares two versions of a pod, ignoring resourceVersion, generation and status.
func specChanged(a, b *api.Pod) bool {
	strip := func(p *api.Pod) api.Pod {
		c := *p
		c.ResourceVersion, c.Generation, c.Status = "", 0, api.PodStatus{}
		return c
	}
	return !reflect.DeepEqual(strip(a), strip(b))
}

// Delete removes a pod that was deleted or got bound.
func (q *PriorityQueue) Delete(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	q.activeQ.delete(k)
	q.removeWaitingLocked(k)
	q.nominator.delete(pod)
}

func (q *PriorityQueue) removeWaitingLocked(k string) {
	for _, m := range []map[string]*waiting{q.backoff, q.unschedulable} {
		if w, ok := m[k]; ok {
			w.timer.Stop()
			delete(m, k)
		}
	}
}

// Pop takes the head of the activeQ, if any, and marks it in flight. It never blocks: the step
// driver asks "is there work?".
func (q *PriorityQueue) Pop() (*framework.QueuedPodInfo, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	pi, ok := q.activeQ.pop()
	if !ok {
		return nil, false
	}
	q.schedulingCycle++
	pi.Attempts++
	if pi.InitialAttemptTimestamp.IsZero() {
		pi.InitialAttemptTimestamp = q.clock.Now()
	}
	q.inFlight[key(pi.Pod)] = true
	return pi, true
}

// PopWait is Pop that waits for a pod (real-time mode). It returns false when ctx ends.
func (q *PriorityQueue) PopWait(ctx context.Context) (*framework.QueuedPodInfo, bool) {
	for {
		if pi, ok := q.Pop(); ok {
			return pi, true
		}
		select {
		case <-q.wake:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// SchedulingCycle is the number of Pops so far: the cycle of the pod popped last.
func (q *PriorityQueue) SchedulingCycle() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.schedulingCycle
}

// Done ends a pod's flight without requeueing it (it was bound, or deleted).
func (q *PriorityQueue) Done(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.inFlight, key(pod))
}

// backoffDuration is 1s doubled for every attempt after the first, at most 10s.
func backoffDuration(attempts int) time.Duration {
	d := DefaultPodInitialBackoffDuration
	for i := 1; i < attempts; i++ {
		if d > DefaultPodMaxBackoffDuration-d {
			return DefaultPodMaxBackoffDuration
		}
		d += d
	}
	return d
}

func (q *PriorityQueue) backoffExpiry(pi *framework.QueuedPodInfo) time.Time {
	return pi.Timestamp.Add(backoffDuration(pi.Attempts))
}

// AddUnschedulableIfNotPresent requeues a pod whose cycle (podCycle) failed. A pod rejected by
// plugins waits in unschedulablePods for an event; one that hit an error, or missed an event while in
// flight, backs off and retries.
func (q *PriorityQueue) AddUnschedulableIfNotPresent(pi *framework.QueuedPodInfo, podCycle int64) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pi.Pod)
	delete(q.inFlight, k)
	if _, ok := q.activeQ.get(k); ok {
		return fmt.Errorf("pod %s is already present in the active queue", k)
	}
	if q.backoff[k] != nil || q.unschedulable[k] != nil {
		return fmt.Errorf("pod %s is already present in the backoff or unschedulable queue", k)
	}
	pi.Timestamp = q.clock.Now()
	q.nominator.add(pi.PodInfo, "")
	if len(pi.UnschedulablePlugins) == 0 || q.moveRequestCycle >= podCycle {
		why := whyError
		if len(pi.UnschedulablePlugins) > 0 {
			why = whyMissedEvent
		}
		q.requeueLocked(pi, why)
		return nil
	}
	q.addWaitingLocked(q.unschedulable, pi, DefaultPodMaxInUnschedulablePodsDuration, func(pi *framework.QueuedPodInfo) {
		q.requeueLocked(pi, whyTimeout)
	})
	q.record(true, pi.Pod, "%s -> unschedulablePods: waits for a cluster event that %v registered, or 5m0s", k, pi.UnschedulablePlugins)
	return nil
}

// addWaitingLocked parks pi in m with a timer that, after d, takes it out of m and calls fire with
// the lock held, unless it left m in the meantime. (Updates replace w.pi, not w.)
func (q *PriorityQueue) addWaitingLocked(m map[string]*waiting, pi *framework.QueuedPodInfo, d time.Duration, fire func(*framework.QueuedPodInfo)) {
	k := key(pi.Pod)
	w := &waiting{pi: pi}
	w.timer = q.clock.AfterFunc(d, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if m[k] != w {
			return
		}
		delete(m, k)
		fire(w.pi)
	})
	m[k] = w
}

// Why a pod goes back to the backoffQ or activeQ: the end of a trace line's format, so that the
// whole line stays translatable.
const (
	whyError       = "after an error"
	whyMissedEvent = "a cluster event arrived during its scheduling cycle"
	whyUpdated     = "the pod was updated"
	whyTimeout     = "it has waited 5m0s (podMaxInUnschedulablePodsDuration)"
	whyEvent       = "cluster event %s"
)

// requeueLocked sends pi to the backoffQ if its backoff has not expired yet, else to the activeQ.
func (q *PriorityQueue) requeueLocked(pi *framework.QueuedPodInfo, why string, whyArgs ...any) {
	k := key(pi.Pod)
	q.removeWaitingLocked(k)
	expiry := q.backoffExpiry(pi)
	now := q.clock.Now()
	if !now.Before(expiry) {
		q.pushActiveLocked(pi)
		q.record(false, pi.Pod, "%s -> activeQ ("+why+")", append([]any{k}, whyArgs...)...)
		return
	}
	q.addWaitingLocked(q.backoff, pi, expiry.Sub(now), func(pi *framework.QueuedPodInfo) {
		q.pushActiveLocked(pi)
		q.record(true, pi.Pod, "%s: backoff over -> activeQ", k)
	})
	q.record(false, pi.Pod, "%s -> backoffQ for %s, attempt %d ("+why+")", append([]any{k, backoffDuration(pi.Attempts), pi.Attempts}, whyArgs...)...)
}

// MoveAllToActiveOrBackoffQueue handles a cluster event: every unschedulable pod rejected by a
// plugin that registered for the event goes back to the backoffQ or activeQ.
func (q *PriorityQueue) MoveAllToActiveOrBackoffQueue(event framework.ClusterEvent) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.moveRequestCycle = q.schedulingCycle
	keys := make([]string, 0, len(q.unschedulable))
	for k := range q.unschedulable {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		pi := q.unschedulable[k].pi
		if q.interested(pi, event) {
			q.requeueLocked(pi, whyEvent, event.Label())
		}
	}
}

// interested reports whether one of the plugins that rejected pi registered for event.
func (q *PriorityQueue) interested(pi *framework.QueuedPodInfo, event framework.ClusterEvent) bool {
	if len(pi.UnschedulablePlugins) == 0 {
		return true
	}
	for _, plugin := range pi.UnschedulablePlugins {
		for _, registered := range q.events[plugin] {
			if registered.Match(event) {
				return true
			}
		}
	}
	return false
}

// AssignedPodUpdated turns an update of a bound pod into the events plugins registered for: new
// labels (affinity, spreading), smaller requests (room freed).
func (q *PriorityQueue) AssignedPodUpdated(old, pod *api.Pod) {
	var action framework.ActionType
	if !reflect.DeepEqual(old.Labels, pod.Labels) {
		action |= framework.UpdatePodLabel
	}
	oldReq, _, _ := framework.PodRequests(old)
	newReq, _, _ := framework.PodRequests(pod)
	if newReq.MilliCPU < oldReq.MilliCPU || newReq.Memory < oldReq.Memory {
		action |= framework.UpdatePodScaleDown
	}
	if action != 0 {
		q.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: action})
	}
}

// AddNominatedPod records that preemption nominated pi's pod to node.
func (q *PriorityQueue) AddNominatedPod(pi *framework.PodInfo, node string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.nominator.add(pi, node)
}

// DeleteNominatedPodIfExists forgets a pod's nomination.
func (q *PriorityQueue) DeleteNominatedPodIfExists(pod *api.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.nominator.delete(pod)
}

// NominatedPods returns a copy of the nominations for one scheduling cycle, or nil when there are
// none (the common case, which lets filtering skip the nominated-pods pass entirely).
func (q *PriorityQueue) NominatedPods() framework.Nominator {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.nominator.byNode) == 0 {
		return nil
	}
	out := make(nominatedSnapshot, len(q.nominator.byNode))
	for node, pods := range q.nominator.byNode {
		out[node] = append([]*framework.PodInfo(nil), pods...)
	}
	return out
}

// Where tells which queue holds the pod ("activeQ", "backoffQ", "unschedulablePods", "in flight"),
// or "" if none.
func (q *PriorityQueue) Where(pod *api.Pod) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	switch {
	case q.activeQ.has(k):
		return inActive
	case q.backoff[k] != nil:
		return inBackoff
	case q.unschedulable[k] != nil:
		return inUnschedulable
	case q.inFlight[k]:
		return "in flight"
	}
	return ""
}

// Len returns the number of pods in the activeQ, backoffQ and unschedulablePods.
func (q *PriorityQueue) Len() (active, backoff, unschedulable int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.activeQ.Len(), len(q.backoff), len(q.unschedulable)
}
