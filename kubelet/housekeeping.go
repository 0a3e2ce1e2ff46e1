// housekeeping.go: the kubelet's periodic checks on its runtime and its node (the runtime-up check,
// the image manager's list, HandlePodCleanups, and the eviction manager's synchronize).
//
//	housekeeping(ctx)     every 10s: runtime status and version, images, orphans, eviction
//	refreshImages(ctx)    the images the node status reports
//
// What it learns goes into runtimeHealth, which the node side reads to build the node status: this is
// how a dead containerd becomes `container runtime is down` on the Node without the node side ever
// calling the runtime itself.
package kubelet

import (
	"context"
	"slices"

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
	var status *fakeruntime.RuntimeStatus
	var version *fakeruntime.VersionResponse
	took, pending, err := k.call(func() (err error) {
		if err = k.updatePodCIDR(ctx); err != nil {
			return err
		}
		if status, err = k.runtime.Status(ctx); err != nil {
			return err
		}
		version, err = k.runtime.Version(ctx)
		return err
	})
	down := ""
	switch {
	case fakeruntime.CodeOf(err) == fakeruntime.Unavailable:
		// containerd refuses connections. (A hung containerd answers nothing at all; the PLEG, not
		// this check, reports that.)
		down = err.Error()
	case err == nil:
		for _, c := range status.Conditions {
			if !c.Status && c.Type != fakeruntime.NetworkReady { // see network.go
				down = c.Type + "=false: " + c.Message
			}
		}
	}
	k.mu.Lock()
	wasDown := k.health.runtimeDown
	k.health.checked = true
	k.health.runtimeDown = down
	if version != nil {
		k.health.runtimeVersion = version.RuntimeName + "://" + version.RuntimeVersion
	}
	k.mu.Unlock()
	if down != wasDown {
		if down != "" {
			k.record("runtime", "", "", "container runtime is down: %s", down)
		} else if wasDown != "" {
			k.record("runtime", "", "", "container runtime is up again")
		}
	}
	next := housekeepingInterval
	if pending {
		k.housekeepingBusyUntil = now.Add(took)
		next = max(next, took)
	}
	defer k.after(taskHousekeeping, next)
	if err != nil {
		return false
	}
	k.refreshImages(ctx)
	did := k.cleanupOrphans(ctx)
	return k.synchronizeEviction(ctx) || did
}

// refreshImages reads the node's images for the node status (largest first, as Kubernetes lists
// them, capped at 50).
func (k *Kubelet) refreshImages(ctx context.Context) {
	var images []*fakeruntime.Image
	if _, _, err := k.call(func() (err error) { images, err = k.runtime.ListImages(ctx); return }); err != nil {
		return
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
	k.health.images = out
	k.mu.Unlock()
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
		key := sb.Metadata.Namespace + "/" + sb.Metadata.Name
		if pod, ok := k.pods.Get(key); ok && pod.UID == sb.Metadata.UID {
			continue
		}
		if _, ok := k.workers[sb.Metadata.UID]; ok {
			continue // its worker is still finishing it
		}
		if _, _, err := k.call(func() error { return k.runtime.RemovePodSandbox(ctx, sb.ID) }); err == nil {
			k.record("cleanup", "pods/"+key, "", "removed sandbox %s of pod %s, which no longer exists", shortID(sb.ID), key)
			did = true
		}
	}
	return did
}
