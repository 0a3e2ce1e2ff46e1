// pod_workers.go: the pod side's state and its unit of work (pkg/kubelet/pod_workers.go and the
// syncLoop of kubelet.go).
//
//	podStep(ctx)          one unit of pod-side work: a status write, an eviction, or a pod sync
//	podWorker             what the kubelet remembers about one pod (by uid): its sandbox, its
//	                      containers' restart history, probe results, the status to report
//
// Kubernetes runs one goroutine per pod (the pod workers) fed by the syncLoop, which merges pod
// updates from the apiserver, PLEG events, probe results and periodic resyncs. kubesim keeps one
// queue of pod keys fed by the same sources, and syncs one pod per step: in step mode the trace then
// reads as the sequence of decisions a kubelet makes.
package kubelet

import (
	"context"
	"math/rand"
	"slices"
	"time"

	"kubesim/api"
	"kubesim/clock"
	fakeruntime "kubesim/runtime"
)

// podSide is the pod side's own state; only podStep and what it calls touch it, except where a field
// says otherwise.
type podSide struct {
	workers               map[string]*podWorker // by pod uid
	workersOfKey          map[string]int        // how many workers each pod key has (a deleted pod's, a new one's)
	imageBackoff          *Backoff              // ImagePullBackOff, keyed by pod uid and image
	crashBackoff          *Backoff              // CrashLoopBackOff, keyed by pod uid and container name
	mountBackoff          *Backoff              // FailedMount retries, keyed by pod uid and volume name
	pleg                  pleg
	housekeepingBusyUntil time.Time
	runtimeUpBusyUntil    time.Time
	realtime              bool // Run (not the step driver) is driving: slow calls may go to goroutines

	// statusDirty holds the uids of pods whose computed status differs from the one last written.
	statusDirty map[string]bool
	// condScratch is where podConditions builds a pod's conditions, reused from one to the next.
	condScratch []api.PodCondition
	// serviceVars is the containers' Service variables, by namespace (service_env.go).
	serviceVars serviceVarsMemo
	// sharedAnnotations are the containers' annotation maps, shared between containers with the
	// same ones (containerAnnotations, sync_pod.go).
	sharedAnnotations map[annotationsKey]map[string]string
	// probesDue lists probe workers whose timer fired; guarded by Kubelet.mu.
	probesDue []*probeWorker
	// eviction is the eviction manager's state.
	eviction evictionState
	// rng draws the pod workers' jitter (seeded: see Options.Seed).
	rng *rand.Rand
	// podCIDRConfig is the UpdateRuntimeConfig request for the node's podCIDR (network.go).
	podCIDRConfig *fakeruntime.RuntimeConfig
}

func newPodSide(clk clock.Clock, crashLoop BackOffPolicy) podSide {
	side := podSide{
		workers:      map[string]*podWorker{},
		workersOfKey: map[string]int{},
		statusDirty:  map[string]bool{},
		imageBackoff: newBackoff(clk, backoffInitial, backoffMax, 0),
		crashBackoff: newBackoff(clk, backoffInitial, backoffMax, crashLoopBackOffExpiry),
		mountBackoff: newBackoff(clk, mountBackoffInitial, mountBackoffMax, 0),
	}
	side.crashBackoff.policy = crashLoop
	return side
}

// podWorker is the kubelet's memory of one pod.
type podWorker struct {
	uid string
	key string   // namespace/name
	pod *api.Pod // the pod as last seen in the informer (shared: never modify)
	// writtenRV is the resourceVersion of the kubelet's last status write (see setPodStatus).
	writtenRV string

	// The flags are side by side so that they pack into one word: a kubelet keeps a worker per pod.
	admitted   bool
	rejected   bool // node admission refused it; its status says why
	evicted    bool // the eviction manager killed it; its status says why
	terminated bool // every container is stopped and the sandbox too: nothing left to run
	deleted    bool // the pod object was deleted (with grace 0) by this kubelet
	// waitingForClaims: the pod's claims were not all bound at the last sync (see volumes.go).
	waitingForClaims bool
	// storageLimit: 1 if a container of the pod has a limits.ephemeral-storage, -1 if none, 0 not
	// yet looked at (eviction.go).
	storageLimit int8

	requests podRequestsMemo // the pod's requests, once admission has summed them (admission.go)

	sandboxID      string
	sandboxAttempt uint32
	podIP          string
	startTime      time.Time

	busyUntil time.Time // a runtime call for this pod is still "running" (see cri.go)

	mounted    []string           // names of the volumes set up (config_sources.go); a pod has few
	containers []*containerRecord // in the order first asked for (record); a pod has few
	view       *podView           // the runtime's view of the pod after the last sync

	// requeue is the work queue's timer for this pod: when the pod worker syncs it again unless
	// something else does first (each sync's end sets it anew, see finishSync).
	requeue clock.Timer

	status    *api.PodStatus // what the last sync computed, to report
	written   *api.PodStatus // what was last written to the apiserver
	statusErr string         // the last status write error, while writes fail
	retryAt   time.Time      // do not retry a failed status write before this
}

// containerRecord is what the kubelet remembers about one container of a pod across restarts.
type containerRecord struct {
	name    string
	spec    *api.Container             // as in the pod's spec at the last sync
	waiting *api.ContainerStateWaiting // why it is not running, when it is not
	pull    *imagePull                 // an image pull in progress or just finished
	// lastPullErr is the last failed pull of this container's image ("ErrImagePull: <error>"), kept
	// for the back-off's message (the image manager's prevPullErrMsg); "" once a pull succeeds.
	lastPullErr string
	// pullReason is the reason cache's entry for the image step: what the last sync's pull, or its
	// look at the image back-off, returned (ErrImagePull, ImagePullBackOff), which the next sync's
	// status shows (images.go); nil once a pull succeeds. pullPending: a sync was asked for while
	// the pull ran.
	pullReason  *api.ContainerStateWaiting
	pullPending bool
	// files are the configMap and secret files last written for it (volumes.go); nil if none.
	files map[string]string
	// failedRun is the exited run (container ID) that a sync found within its crash-loop back-off;
	// retryAt is when the pod worker retries that failed sync; killedRun is the last run the kubelet
	// stopped for a failed liveness probe (restarts.go).
	failedRun, killedRun string
	retryAt              time.Time

	probes map[probeKind]*probeWorker
}

// worker is the pod worker of p, whose key is key (a new one the first time: it keeps the work
// queue's key string rather than making another).
func (k *Kubelet) worker(key string, p *api.Pod) *podWorker {
	w := k.workers[p.UID]
	if w == nil {
		w = &podWorker{uid: p.UID, key: key}
		k.workers[p.UID] = w
		k.workersOfKey[w.key]++
	}
	w.pod = p
	return w
}

// record is the kubelet's memory of one container of the pod, by name (a new one the first time).
func (w *podWorker) record(name string) *containerRecord {
	for _, r := range w.containers {
		if r.name == name {
			return r
		}
	}
	r := &containerRecord{name: name}
	w.containers = append(w.containers, r)
	return r
}

// podStep does one unit of pod-side work. Relists and probes that change nothing are not units of
// work: they only feed the queue.
func (k *Kubelet) podStep(ctx context.Context) bool {
	k.mu.Lock()
	restarted := k.restarted
	k.restarted = false
	k.mu.Unlock()
	if restarted {
		for _, w := range k.workers {
			w.written = nil // compare with what the apiserver holds, as a new status manager does
		}
	}
	if k.takeDue(taskRelist) {
		k.relist(ctx)
	}
	if k.takeDue(taskRuntimeUp) {
		k.updateRuntimeUp(ctx)
	}
	k.runDueProbes(ctx)
	if k.takeDue(taskStatusSync) {
		k.reconcileStatuses()
	}
	if k.takeDue(taskHousekeeping) {
		k.markMirrorsDue()
		if k.housekeeping(ctx) {
			return true
		}
	}
	if len(k.static) > 0 && k.takeMirrorsDue() && k.syncMirrorPods(ctx) {
		return true
	}
	if k.writeOneStatus(ctx) {
		return true
	}
	for {
		key, ok := k.queue.TryGet()
		if !ok {
			return false
		}
		did := k.syncPod(ctx, key)
		k.queue.Done(key)
		if did {
			return true
		}
	}
}

// syncPod brings one pod (by key) to where it should be. It reports whether it did anything worth a
// step: a runtime call that changed something, an event, a status change to report.
func (k *Kubelet) syncPod(ctx context.Context, key string) bool {
	pod, exists := k.pods.Get(key)
	did := false
	// Workers for this key with another uid belong to a deleted pod of the same name: stop them
	// (in uid order; there is rarely more than one).
	var stale []string
	others := k.workersOfKey[key]
	if exists && k.workers[pod.UID] != nil {
		others--
	}
	for uid, w := range k.workers {
		if others == 0 {
			break // the usual case: no worker of another pod by this name, and no need to look
		}
		if w.key == key && (!exists || uid != pod.UID) {
			stale = append(stale, uid)
			others--
		}
	}
	slices.Sort(stale)
	for _, uid := range stale {
		did = k.removePod(ctx, k.workers[uid]) || did
	}
	if !exists {
		return did
	}
	w := k.worker(key, pod)
	if now := k.clock.Now(); now.Before(w.busyUntil) {
		k.enqueueAfter(key, w.busyUntil.Sub(now))
		return did
	}
	s := &syncResult{k: k, w: w}
	switch {
	case pod.DeletionTimestamp != nil:
		k.terminatePod(ctx, w, s)
	case w.evicted && !w.terminated:
		k.finishEviction(ctx, w, s)
	case w.rejected || w.evicted || w.terminated:
		// Nothing more to run: a rejected, evicted or finished pod keeps its final status.
	case isTerminalPhase(pod.Status.Phase) && !w.admitted:
		w.terminated = true // finished before this kubelet (re)started: leave it alone
	case !w.admitted:
		if !k.admitPod(ctx, w, s) {
			break
		}
		fallthrough
	default:
		k.syncRunningPod(ctx, w, s)
	}
	if !s.statusSet {
		k.setPodStatus(w)
	}
	k.finishSync(w, s)
	return did || s.did
}

// The pod worker's requeue periods (pkg/kubelet/kubelet.go, pod_workers.go): after a sync that
// succeeded the pod is synced again after the resync interval (--sync-frequency, 1 minute), after
// one that failed after backOffPeriod (10 s), or after backOffOnTransientErrorPeriod (1 s) when the
// pod network was not ready (network.go); each with up to 50% of jitter.
const (
	syncFrequency                    = time.Minute
	workerResyncIntervalJitterFactor = 0.5
	workerBackOffPeriodJitterFactor  = 0.5
)

// jitter is wait.Jitter: d plus up to factor*d, drawn from the kubelet's seeded source.
func (k *Kubelet) jitter(d time.Duration, factor float64) time.Duration {
	return d + time.Duration(k.rng.Float64()*factor*float64(d))
}

// finishSync is the pod worker's completeWork: it puts the pod back in the work queue, replacing
// the time it was queued for, after s.retry if the sync failed, else after the jittered resync
// interval. A pod with nothing left to run, or one being stopped (termination.go keeps its own
// times), is not requeued.
func (k *Kubelet) finishSync(w *podWorker, s *syncResult) {
	if w.rejected || w.terminated || w.evicted || w.pod.DeletionTimestamp != nil {
		if w.requeue != nil {
			w.requeue.Stop()
			w.requeue = nil
		}
		return
	}
	d := s.retry
	if d <= 0 {
		d = k.untilSyncTick(k.jitter(syncFrequency, workerResyncIntervalJitterFactor))
	}
	if w.requeue != nil && k.realtime {
		w.requeue.Reset(d) // the same timer, for the same key (see Kubelet.after on step mode)
		return
	}
	if w.requeue != nil {
		w.requeue.Stop()
	}
	w.requeue = k.enqueueAfter(w.key, d)
}

// syncTickPeriod is the syncLoop's ticker: every second it takes from the work queue the pods whose
// time has come (getPodsToSync).
const syncTickPeriod = time.Second

// untilSyncTick is how long until the first tick of the syncLoop's ticker (running from the
// kubelet's start) after d has passed: when the work queue hands out a pod queued for d.
func (k *Kubelet) untilSyncTick(d time.Duration) time.Duration {
	since := k.clock.Since(k.started)
	due := since + d
	tick := (due/syncTickPeriod + 1) * syncTickPeriod // GetWork takes items due strictly before now
	return tick - since
}

// removePod stops everything of a pod that no longer exists in the apiserver (force-deleted, or
// deleted while this kubelet was away) and forgets it.
func (k *Kubelet) removePod(ctx context.Context, w *podWorker) bool {
	did := false
	if !w.deleted {
		s := &syncResult{k: k, w: w}
		k.killPod(ctx, w, s, 0, "")
		k.removeSandboxes(ctx, w, s)
		if s.did {
			k.podRecord(w, "sync", "pod %s is gone from the apiserver: killed its containers and removed its sandbox", w.key)
			did = true
		}
	}
	k.stopProbes(w)
	if w.requeue != nil {
		w.requeue.Stop()
	}
	delete(k.workers, w.uid)
	if k.workersOfKey[w.key]--; k.workersOfKey[w.key] <= 0 {
		delete(k.workersOfKey, w.key)
	}
	return did
}

func isTerminalPhase(p api.PodPhase) bool { return p == api.PodSucceeded || p == api.PodFailed }

// syncResult collects what one sync did. Each action is its own trace line, so that every line has a
// format of its own (and a Chinese telling).
type syncResult struct {
	k   *Kubelet
	w   *podWorker
	did bool
	// retry is when the pod worker retries a sync that failed (0: the sync succeeded).
	retry time.Duration
	// statusSet: the sync's last step computed the pod's status, and nothing changed since.
	statusSet bool
}

// failed marks the sync as failed, to be retried after d (the earliest, if several parts failed).
func (s *syncResult) failed(d time.Duration) {
	if s.retry <= 0 || d < s.retry {
		s.retry = d
	}
}

// failedRetry marks the sync as failed with the pod worker's jittered backOffPeriod, as the
// syncLoop's ticker hands the pod out, and returns how long until then.
func (s *syncResult) failedRetry() time.Duration {
	d := s.k.untilSyncTick(s.k.jitter(backOffPeriod, workerBackOffPeriodJitterFactor))
	s.failed(d)
	return d
}

// add records one action of the sync.
func (s *syncResult) add(format string, args ...any) {
	s.did = true
	s.k.podRecord(s.w, "sync", format, args...)
}

// podRecord writes a trace line about a pod.
func (k *Kubelet) podRecord(w *podWorker, action, format string, args ...any) {
	if !k.trace.Enabled() {
		return
	}
	rv := ""
	if w.pod != nil {
		rv = w.pod.ResourceVersion
	}
	k.record(action, "pods/"+w.key, rv, format, args...)
}
