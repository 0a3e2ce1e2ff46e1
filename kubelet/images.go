// images.go: the image manager (pkg/kubelet/images/image_manager.go): imagePullPolicy, pulls that
// take time, and ImagePullBackOff.
//
//	ensureImage(ctx, w, s, spec, r)   is the container's image ready? start or finish a pull if not
//
// What a learner sees, in Kubernetes' words:
//
//	Normal   Pulling  Pulling image "nginx:1.25"
//	Normal   Pulled   Successfully pulled image "nginx:1.25" in 3.339s (3.339s including waiting). Image size: 70983496 bytes.
//	Normal   Pulled   Container image "nginx:1.25" already present on machine
//	Warning  Failed   Failed to pull image "ngnix:1.25": <the runtime's error>
//	Warning  Failed   Error: ErrImagePull
//	Normal   BackOff  Back-off pulling image "ngnix:1.25"
//	Warning  Failed   Error: ImagePullBackOff
//
// A failed pull puts the image in back-off, 10s doubling to 300s (per pod and image). The kubelet does
// not pull again when the back-off ends, though: nothing wakes it then. The sync that failed is retried
// by the pod worker after backOffPeriod (10 s plus up to 50% of jitter, on the syncLoop's 1 s tick),
// and each retry that finds the image still in back-off fails again at once, with the events
// "Back-off pulling image" and "Error: ImagePullBackOff", to be retried 10 to 16 s later; the first
// retry after the back-off ends pulls. So the pulls come at least 10s, 20s, 40s ... apart, and the
// BackOff event is counted up more often than Pulling.
//
// What the pod's status shows follows the kubelet's reason cache: a sync writes the status before it
// acts, from the runtime's view and the previous sync's result. So after a failed pull the container
// reads ErrImagePull (message: the runtime's error) from the next sync on, and ImagePullBackOff
// (message `Back-off pulling image "ngnix:1.25": ErrImagePull: <the last pull error>`) from the sync
// after a retry that found the back-off; while a retry pulls it keeps its last reason: only a first
// pull shows ContainerCreating. kubesim writes a pod's status after its sync instead, so a sync sets
// the waiting reason from the last one's result (pullReason) before it acts, and leaves its own
// result for the next.
//
// The first failed pull is followed at once by another sync: a real pull blocks the pod's worker, and
// the PLEG's event for the sandbox that sync created (or any other update meanwhile) waits as its
// pending update, taken at the first relist after the pull. That sync shows ErrImagePull and finds the
// back-off: ImagePullBackOff shows 10 to 16 s later, when the pod worker retries. A later pull, with
// nothing pending, is retried after backOffPeriod like any failed sync.
//
// A pull takes time (the image's size over the registry's bandwidth). The kubelet does not wait for
// it: it starts the pull, leaves the container waiting in ContainerCreating, and syncs the pod again
// when the pull completes: on a clock timer in step mode (see cri.go), from a goroutine in real
// time. Other pods, and other nodes, carry on meanwhile.
package kubelet

import (
	"context"
	"fmt"
	"time"

	"kubesim/api"
)

// imagePull is one pull of a container's image. done, took and err are guarded by Kubelet.mu
// (in real time a goroutine fills them in).
type imagePull struct {
	image   string
	started time.Time
	done    bool
	took    time.Duration
	err     error
}

// ensureImage reports whether spec's image is on the node, starting or finishing a pull as needed.
// When it is not ready, r.waiting says why.
func (k *Kubelet) ensureImage(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord) bool {
	image := spec.Image
	if r.pull != nil {
		return k.finishPull(ctx, w, s, spec, r)
	}
	if r.pullReason != nil {
		r.waiting = r.pullReason // the status this sync writes shows the last one's result
	}
	var present bool
	err := k.runtimeCall(w, func() error {
		img, err := k.runtime.ImageStatus(ctx, image)
		present = img != nil
		return err
	})
	if err != nil {
		r.waiting = &api.ContainerStateWaiting{Reason: "InvalidImageName", Message: fmt.Sprintf("Failed to apply default image tag %q: %v", image, err)}
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "InspectFailed", "Failed to apply default image tag %q: %v", image, err)
		s.add("image %q cannot be inspected: %v", image, err)
		return false
	}
	policy := spec.ImagePullPolicy
	if policy == "" {
		policy = api.PullIfNotPresent
	}
	switch {
	case policy == api.PullNever && !present:
		msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", image)
		r.waiting = &api.ContainerStateWaiting{Reason: "ErrImageNeverPull", Message: msg}
		k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "ErrImageNeverPull", msg)
		s.add("image %q is not on the node and imagePullPolicy is Never: the container cannot start", image)
		return false
	case present && policy != api.PullAlways:
		if left := k.pullInProgress(image); left > 0 {
			// Another pod's pull of this image is still running (in virtual time the image is
			// already in the runtime): like the kubelet's serialized pulls, wait for it to finish.
			r.waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
			k.enqueueAfter(w.key, left)
			s.add("image %q is being pulled for another pod: waiting %s", image, left.Round(time.Millisecond))
			return false
		}
		k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Pulled", "Container image %q already present on machine", image)
		return true
	}

	key := w.uid + "_" + image
	if in, left := k.imageBackoff.InBackOffSinceUpdate(key, k.clock.Now()); in {
		msg := fmt.Sprintf("Back-off pulling image %q", image)
		k.recorder.Event(ctx, w.pod, api.EventTypeNormal, "BackOff", msg)
		k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "Failed", "Error: ImagePullBackOff")
		if r.lastPullErr != "" {
			msg += ": " + r.lastPullErr
		}
		r.pullReason = &api.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: msg}
		retry := s.failedRetry()
		s.add("image %q in back-off (%s, over in %s): ImagePullBackOff; kubectl shows %s until the retry in %s",
			image, k.imageBackoff.Get(key), left.Round(time.Millisecond), waitingReason(r.waiting), retry.Round(time.Millisecond))
		return false
	}

	k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Pulling", "Pulling image %q", image)
	p := &imagePull{image: image, started: k.clock.Now()}
	r.pull, r.pullPending = p, false
	if r.pullReason == nil {
		r.waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
	}
	s.add("PullImage %q for container %s (imagePullPolicy %s)", image, spec.Name, policy)
	if k.realtime {
		go func() {
			took, _, err := k.call(func() (err error) { _, err = k.runtime.PullImage(ctx, image, nil); return })
			k.completePull(p, took, err)
			k.enqueue(w.key)
		}()
		return false
	}
	took, pending, err := k.call(func() (err error) { _, err = k.runtime.PullImage(ctx, image, nil); return })
	if pending {
		// Step mode: the pull "runs" for took of virtual time; the timer completes it.
		k.mu.Lock()
		if k.pullingUntil == nil {
			k.pullingUntil = map[string]time.Time{}
		}
		k.pullingUntil[image] = k.clock.Now().Add(took)
		k.mu.Unlock()
		k.clock.AfterFunc(took, func() {
			k.completePull(p, took, err)
			k.enqueue(w.key)
		})
		return false
	}
	k.completePull(p, took, err)
	return k.finishPull(ctx, w, s, spec, r)
}

// pullInProgress is how long a step-mode pull of image has still to run (0 if none is running).
func (k *Kubelet) pullInProgress(image string) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if until, ok := k.pullingUntil[image]; ok {
		if left := until.Sub(k.clock.Now()); left > 0 {
			return left
		}
		delete(k.pullingUntil, image)
	}
	return 0
}

// completePull records a pull's outcome; a timer callback or a goroutine may call it.
func (k *Kubelet) completePull(p *imagePull, took time.Duration, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	p.done, p.took, p.err = true, took, err
}

// finishPull reports a completed pull (or a pull still running).
func (k *Kubelet) finishPull(ctx context.Context, w *podWorker, s *syncResult, spec *api.Container, r *containerRecord) bool {
	k.mu.Lock()
	p := *r.pull
	k.mu.Unlock()
	if !p.done {
		// Something asked for a sync while the pull runs: a real pod worker is blocked in the pull,
		// and takes that update once the sync is over (see the file comment).
		r.pullPending = true
		if r.pullReason == nil {
			r.waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
		}
		return false
	}
	r.pull = nil
	took := p.took.Truncate(time.Millisecond)
	if p.err != nil {
		key := w.uid + "_" + p.image
		delay := k.imageBackoff.Next(key, k.clock.Now())
		k.recorder.Eventf(ctx, w.pod, api.EventTypeWarning, "Failed", "Failed to pull image %q: %v", p.image, p.err)
		k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "Failed", "Error: ErrImagePull")
		// The status keeps what this sync showed before it pulled; the next sync shows ErrImagePull.
		r.pullReason = &api.ContainerStateWaiting{Reason: "ErrImagePull", Message: p.err.Error()}
		r.lastPullErr = "ErrImagePull: " + p.err.Error()
		var retry time.Duration
		if r.pullPending {
			// The pending update: the pod worker syncs again once the PLEG's next relist has
			// refreshed the pod's runtime state (kubesim's relists come on the syncLoop's ticks).
			r.pullPending = false
			retry = k.untilSyncTick(0)
			s.failed(retry)
		} else {
			retry = s.failedRetry()
		}
		s.add("pull of %q failed after %s: ErrImagePull, back-off %s; the pod worker retries the failed sync in %s", p.image, took, delay, retry.Round(time.Millisecond))
		return false
	}
	var size uint64
	_ = k.runtimeCall(w, func() error {
		img, err := k.runtime.ImageStatus(ctx, p.image)
		if img != nil {
			size = img.Size
		}
		return err
	})
	k.imageBackoff.Reset(w.uid + "_" + p.image)
	r.lastPullErr, r.pullReason = "", nil
	waited := k.clock.Since(p.started).Truncate(time.Millisecond)
	k.recorder.Eventf(ctx, w.pod, api.EventTypeNormal, "Pulled",
		"Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", p.image, took, waited, size)
	s.add("pulled %q in %s (%d bytes)", p.image, took, size)
	k.refreshImages(ctx)
	return true
}

// waitingReason is a waiting state's reason, "" for none.
func waitingReason(w *api.ContainerStateWaiting) string {
	if w == nil {
		return ""
	}
	return w.Reason
}
