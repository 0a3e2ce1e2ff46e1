// image_gc.go: the image garbage collector (pkg/kubelet/images/image_gc_manager.go), which deletes
// images no container uses when the node's disk fills up.
//
//	imageGarbageCollect(ctx, now)   every 5 minutes (ImageGCPeriod): at 85% disk use or more, free
//	                                down to 80%
//	deleteUnusedImages(ctx, now)    the eviction manager's reclaim: every unused image it may delete
//	freeImages(ctx, want, now)      delete unused images, least recently used first
//
// The collector keeps a record of every image: when it first saw it and when it last saw a
// container use it (any container the runtime still has, running or exited). Its detection runs with
// each collection, every ImageGCPeriod, so an image pulled since is first seen then. An image is
// never deleted while a container uses it, nor if the runtime pins it (the pause image), nor until
// imageMinimumGCAge (2 minutes) after it was first seen: a freshly pulled image may be about to be
// used. The candidates go least recently used first.
//
// A successful collection records no event. One that cannot free enough records
// FreeDiskSpaceFailed on the node (`Failed to garbage collect required amount of images. Attempted
// to free N bytes, but only found M bytes eligible to free.`); when a collection fails again the
// next time, ImageGCFailed with the same words.
package kubelet

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

// The image GC policy's defaults (KubeletConfiguration) and the kubelet's period.
const (
	imageGCPeriod               = 5 * time.Minute
	imageGCHighThresholdPercent = 85
	imageGCLowThresholdPercent  = 80
	imageMinimumGCAge           = 2 * time.Minute
)

// imageRecord is what the collector knows of one image.
type imageRecord struct {
	firstDetected time.Time
	lastUsed      time.Time
	size          int64
	pinned        bool
	name          string // for trace lines
}

// imageGCState is the collector's memory; only the pod side touches it.
type imageGCState struct {
	records    map[string]*imageRecord // by image ID
	lastRun    time.Time               // the last periodic collection
	prevFailed bool                    // the last periodic collection failed
}

// imageGarbageCollect is the periodic collection, due every imageGCPeriod.
func (k *Kubelet) imageGarbageCollect(ctx context.Context, now time.Time) {
	gc := &k.eviction.images
	if !gc.lastRun.IsZero() && now.Sub(gc.lastRun) < imageGCPeriod {
		return
	}
	gc.lastRun = now
	err := k.collectImages(ctx, now)
	if err != nil && gc.prevFailed {
		k.recorder.Event(ctx, k.nodeRef(), api.EventTypeWarning, "ImageGCFailed", err.Error())
	}
	gc.prevFailed = err != nil
}

// collectImages frees images down to the low threshold when the disk is at the high one or above.
func (k *Kubelet) collectImages(ctx context.Context, now time.Time) error {
	if err := k.detectImages(ctx, now); err != nil {
		return err
	}
	var fs fakeruntime.FilesystemUsage
	if _, _, err := k.call(func() error {
		u, err := k.runtime.ImageFsInfo(ctx)
		if u != nil {
			fs = *u
		}
		return err
	}); err != nil {
		return err
	}
	capacity, available := int64(fs.CapacityBytes), int64(fs.CapacityBytes)-int64(fs.UsedBytes)
	if capacity == 0 {
		return nil
	}
	usage := 100 - int(available*100/capacity)
	if usage < imageGCHighThresholdPercent {
		return nil
	}
	want := capacity*(100-imageGCLowThresholdPercent)/100 - available
	k.record("image-gc", "nodes/"+k.nodeName, "", "disk %d%% used (high threshold %d%%): freeing %s of unused images to get down to %d%%",
		usage, imageGCHighThresholdPercent, bytesQty(want), imageGCLowThresholdPercent)
	if freed := k.freeImages(ctx, want, now); freed < want {
		err := fmt.Errorf("Failed to garbage collect required amount of images. Attempted to free %d bytes, but only found %d bytes eligible to free.", want, freed)
		k.recorder.Event(ctx, k.nodeRef(), api.EventTypeWarning, "FreeDiskSpaceFailed", err.Error())
		return err
	}
	return nil
}

// deleteUnusedImages deletes every image the collector may delete: the eviction manager's
// reclaim before it evicts a pod for disk.
func (k *Kubelet) deleteUnusedImages(ctx context.Context, now time.Time) {
	if err := k.detectImages(ctx, now); err == nil {
		k.freeImages(ctx, -1, now)
	}
}

// detectImages brings the records up to date: new images, images gone, images in use now.
func (k *Kubelet) detectImages(ctx context.Context, now time.Time) error {
	var images []*fakeruntime.Image
	var containers []*fakeruntime.Container
	if _, _, err := k.call(func() (err error) {
		if images, err = k.runtime.ListImages(ctx); err != nil {
			return err
		}
		containers, err = k.runtime.ListContainers(ctx, nil)
		return err
	}); err != nil {
		return err
	}
	inUse := map[string]bool{}
	for _, c := range containers {
		inUse[c.Image], inUse[c.ImageRef] = true, true
	}
	gc := &k.eviction.images
	if gc.records == nil {
		gc.records = map[string]*imageRecord{}
	}
	present := map[string]bool{}
	for _, img := range images {
		present[img.ID] = true
		r := gc.records[img.ID]
		if r == nil {
			r = &imageRecord{firstDetected: now}
			gc.records[img.ID] = r
		}
		r.size, r.pinned, r.name = int64(img.Size), img.Pinned, shortID(img.ID)
		if len(img.RepoTags) > 0 {
			r.name = img.RepoTags[0]
		}
		if slices.ContainsFunc(slices.Concat(img.RepoTags, img.RepoDigests), func(n string) bool { return inUse[n] }) {
			r.lastUsed = now
		}
	}
	for id := range gc.records {
		if !present[id] {
			delete(gc.records, id)
		}
	}
	return nil
}

// freeImages deletes unused images, least recently used first, until want bytes are freed (want < 0:
// all it may), and returns how many bytes it freed.
func (k *Kubelet) freeImages(ctx context.Context, want int64, now time.Time) int64 {
	gc := &k.eviction.images
	var ids []string
	for _, id := range sortedKeys(gc.records) {
		r := gc.records[id]
		// In use at this very detection, pinned, or too new to delete.
		if !r.lastUsed.Before(now) || r.pinned || now.Sub(r.firstDetected) < imageMinimumGCAge {
			continue
		}
		ids = append(ids, id)
	}
	slices.SortStableFunc(ids, func(a, b string) int {
		ra, rb := gc.records[a], gc.records[b]
		return cmp.Or(ra.lastUsed.Compare(rb.lastUsed), ra.firstDetected.Compare(rb.firstDetected))
	})
	var freed int64
	for _, id := range ids {
		if want >= 0 && freed >= want {
			break
		}
		r := gc.records[id]
		if _, _, err := k.call(func() error { return k.runtime.RemoveImage(ctx, id) }); err != nil {
			continue
		}
		delete(gc.records, id)
		freed += r.size
		if r.lastUsed.IsZero() {
			k.record("image-gc", "nodes/"+k.nodeName, "", "removed image %s (%s, never seen in use): freed %d bytes",
				r.name, shortID(id), r.size)
		} else {
			k.record("image-gc", "nodes/"+k.nodeName, "", "removed image %s (%s, last seen in use %s ago): freed %d bytes",
				r.name, shortID(id), now.Sub(r.lastUsed), r.size)
		}
	}
	if freed > 0 {
		_, _, _ = k.refreshImages(ctx) // the node status lists what is left
	}
	return freed
}
