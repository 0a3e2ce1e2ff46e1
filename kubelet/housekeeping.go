// housekeeping.go: the kubelet's periodic checks on its node (the image manager's list,
// HandlePodCleanups, the garbage collectors, and the eviction manager's synchronize).
//
//	housekeeping(ctx)     every 10s: images, orphans, container GC (every minute), image GC
//	                      (every 5 minutes), eviction
//	refreshImages(ctx)    the images the node status reports
//
// What it learns goes into runtimeHealth, which the node side reads to build the node status, so the
// node side never calls the runtime itself. (Whether the runtime answers at all is runtime_state.go's
// check.)
package kubelet

import (
	"context"
	"slices"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

// housekeeping runs the periodic checks; it reports whether it did a unit of work (an eviction).
func (k *Kubelet) housekeeping(ctx context.Context) bool {
	now := k.clock.Now()
	if now.Before(k.housekeepingBusyUntil) {
		k.after(taskHousekeeping, k.housekeepingBusyUntil.Sub(now))
		return false
	}
	took, pending, err := k.refreshImages(ctx)
	next := housekeepingInterval
	if pending {
		k.housekeepingBusyUntil = now.Add(took)
		next = max(next, took)
	}
	defer k.after(taskHousekeeping, next)
	if err != nil {
		return false
	}
	did := k.cleanupOrphans(ctx)
	k.containerGarbageCollect(ctx, now)
	k.imageGarbageCollect(ctx, now)
	return k.synchronizeEviction(ctx) || did
}

// refreshImages reads the node's images for the node status (largest first, as Kubernetes lists
// them, capped at 50).
func (k *Kubelet) refreshImages(ctx context.Context) (took time.Duration, pending bool, err error) {
	var images []*fakeruntime.Image
	if took, pending, err = k.call(func() (err error) { images, err = k.runtime.ListImages(ctx); return }); err != nil {
		return took, pending, err
	}
	out := make([]api.ContainerImage, 0, len(images))
	for _, img := range images {
		names := slices.Concat(img.RepoDigests, img.RepoTags)
		out = append(out, api.ContainerImage{Names: names, SizeBytes: int64(img.Size)})
	}
	slices.SortStableFunc(out, func(a, b api.ContainerImage) int {
		if a.SizeBytes != b.SizeBytes {
			return int(b.SizeBytes - a.SizeBytes)
		}
		return 0
	})
	out = out[:min(len(out), 50)]
	k.mu.Lock()
	if sameImages(k.health.images, out) {
		out = k.health.images // keep the list the last node status holds: it compares at once
	}
	k.health.images = out
	k.mu.Unlock()
	return took, pending, nil
}

// cleanupOrphans removes sandboxes of pods the kubelet no longer knows (deleted while it was down):
// HandlePodCleanups.
func (k *Kubelet) cleanupOrphans(ctx context.Context) bool {
	var sandboxes []*fakeruntime.PodSandbox
	if _, _, err := k.call(func() (err error) { sandboxes, err = k.runtime.ListPodSandbox(ctx, nil); return }); err != nil {
		return false
	}
	did := false
	for _, sb := range sandboxes {
		if _, ok := k.workers[sb.Metadata.UID]; ok {
			continue // its pod is known (or its worker is still finishing it)
		}
		key := sb.Metadata.Namespace + "/" + sb.Metadata.Name
		if pod, ok := k.pods.Get(key); ok && pod.UID == sb.Metadata.UID {
			continue
		}
		if _, _, err := k.call(func() error { return k.runtime.RemovePodSandbox(ctx, sb.ID) }); err == nil {
			k.record("cleanup", "pods/"+key, "", "removed sandbox %s of pod %s, which no longer exists", shortID(sb.ID), key)
			did = true
		}
	}
	return did
}
