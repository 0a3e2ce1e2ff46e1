// disk.go: the node's filesystem, which holds the images and every container's writable layer.
//
//	(*container).rootfsAt(now)   the bytes a container has written to its writable layer by now
//	(*Runtime).fsLocked()        the filesystem's capacity and use: images plus writable layers
//
// A kubeadm node keeps /var/lib/containerd (the images, the containers' writable layers) and
// /var/lib/kubelet and /var/log (volumes, logs) on its root filesystem, so the kubelet's two disk
// signals, nodefs (the kubelet's filesystem) and imagefs (the runtime's), measure the same disk:
// that is Kubernetes' default, and kubesim's only layout. A container writes only when its
// KUBESIM_DISK_GROWTH says so; what it has written stays on disk after it exits, until the
// container is removed (the kubelet's container garbage collection, or its pod's sandbox removed).
// Usage is counted in 4 KiB blocks, as du and statfs count it.
//
// Simplified: logs are not counted (a real container's log file is on the same disk, capped at
// 10Mi by containerLogMaxSize), nor emptyDir volumes, nor the operating system's own files.

package fakeruntime

import "time"

// blockSize is the filesystem's block: usage is always a whole number of blocks.
const blockSize = 4096

// rootfsAt is how much the container has written to its writable layer by now: its disk growth
// times the time it ran (until its end, if it has ended).
func (c *container) rootfsAt(now time.Time) uint64 {
	if c.startedAt.IsZero() || c.beh.diskGrowth == 0 {
		return 0
	}
	until := now
	if _, end := c.stateAt(now); end != nil {
		until = end.at
	}
	written := uint64(until.Sub(c.startedAt).Seconds() * float64(c.beh.diskGrowth))
	return (written + blockSize - 1) / blockSize * blockSize
}

// fsLocked reports the node filesystem's use as of now: the stored images and the writable layer of
// every container still present, running or exited.
func (r *Runtime) fsLocked() FilesystemUsage {
	now := r.clk.Now()
	u := FilesystemUsage{Timestamp: now, CapacityBytes: r.opts.ImageFsCapacityBytes}
	for _, img := range r.images {
		u.UsedBytes += img.size
		u.InodesUsed += img.size / 32_768 // roughly one inode per 32 KiB of layer data
	}
	for _, c := range r.containers {
		u.UsedBytes += c.rootfsAt(now)
	}
	return u
}
