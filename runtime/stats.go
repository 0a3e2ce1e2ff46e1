// stats.go: resource usage, for the kubelet's eviction manager.
//
//	Stats(ctx)   every running container's memory working set and writable layer, the node's
//	             memory sum, the node's filesystem
//
// The eviction manager compares memory.available (node capacity minus the working sets),
// nodefs.available and imagefs.available (the filesystem's free space) with its thresholds
// (memory.available<100Mi, nodefs.available<10%, imagefs.available<15% by default) and, under
// pressure, evicts pods whose usage exceeds their requests first. A container's working set here is its image's
// base footprint plus KUBESIM_MEMORY_GROWTH times its age, capped by its limit (past the limit the
// cgroup's OOM killer has already ended it).

package fakeruntime

import (
	"cmp"
	"context"
	"slices"
)

// Stats reports usage as of now.
func (r *Runtime) Stats(ctx context.Context) (*NodeStats, error) {
	if err := r.enter(ctx); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clk.Now()
	out := &NodeStats{Timestamp: now, Fs: r.fsLocked(), Containers: make([]ContainerStats, 0, len(r.containers))}
	for _, c := range r.containers {
		if st, _ := c.stateAt(now); st != ContainerRunning {
			continue
		}
		ws := c.beh.memoryAt(now.Sub(c.startedAt))
		if limit := c.memoryLimit(); limit > 0 {
			ws = min(ws, uint64(limit))
		}
		out.Containers = append(out.Containers, ContainerStats{
			ContainerID: c.id, PodSandboxID: c.sandboxID, Metadata: c.config.Metadata,
			Labels: c.config.Labels, MemoryWorkingSetBytes: ws, RootfsUsedBytes: c.rootfsAt(now),
		})
		out.MemoryWorkingSetBytes += ws
	}
	if len(out.Containers) == 0 {
		out.Containers = nil // nothing running: no list, not an empty one
	}
	slices.SortFunc(out.Containers, func(a, b ContainerStats) int { return cmp.Compare(a.ContainerID, b.ContainerID) })
	return out, nil
}
