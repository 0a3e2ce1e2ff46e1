// imagelocality.go: the ImageLocality plugin. A node that already has the pod's images (listed in
// node.status.images) starts the pod sooner, so it scores higher: the image sizes, each scaled by the
// share of nodes that have the image (so an image everybody has does not pull every pod to one
// node), clamped between 23 MB and 1000 MB per container and mapped onto 0..100.
//
// The pod's normalised image names and each image's share of nodes depend only on the pod and the
// snapshot, so Score works them out on the first node of a cycle and keeps them while the pod and
// the snapshot's generation stay the same (Kubernetes keeps the share in each NodeInfo's
// ImageStates, kept by its cache; kubesim's NodeInfos are shared between snapshots). The scores
// are the same.
package plugins

import (
	"context"
	"strings"
	"sync/atomic"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// ImageLocalityName is the plugin's name.
const ImageLocalityName = "ImageLocality"

const (
	mb                    int64 = 1024 * 1024
	minThreshold          int64 = 23 * mb
	maxContainerThreshold int64 = 1000 * mb
)

// ImageLocality scores by images already present.
type ImageLocality struct {
	handle framework.Handle
	// images is what the last Score worked out for its pod and snapshot (imageSpread).
	images atomic.Pointer[imageSpread]
}

// imageSpread is, for one pod and one generation of one snapshot, each container's image name as
// nodes report it (hashed, for NodeInfo.ImageSize) and the share of nodes that have it.
type imageSpread struct {
	pod        *api.Pod
	snap       *framework.Snapshot
	generation uint64
	names      []framework.ImageKey
	spread     []float64
}

// spreadOf returns the imageSpread of pod in the current snapshot, working it out if the last one
// was another pod's or another snapshot's. Several goroutines may work it out at once: they find
// the same.
func (pl *ImageLocality) spreadOf(pod *api.Pod) *imageSpread {
	snap := pl.handle.SnapshotSharedLister()
	if is := pl.images.Load(); is != nil && is.pod == pod && is.snap == snap && is.generation == snap.Generation() {
		return is
	}
	is := &imageSpread{pod: pod, snap: snap, generation: snap.Generation(),
		names: make([]framework.ImageKey, len(pod.Spec.Containers)), spread: make([]float64, len(pod.Spec.Containers))}
	for i := range pod.Spec.Containers {
		name := normalizedImageName(pod.Spec.Containers[i].Image)
		is.names[i] = framework.NewImageKey(name)
		is.spread[i] = float64(snap.ImageNumNodes(name)) / float64(snap.NumNodes())
	}
	pl.images.Store(is)
	return is
}

var _ framework.ScorePlugin = (*ImageLocality)(nil)

// NewImageLocality is the plugin's factory.
func NewImageLocality(h framework.Handle) (framework.Plugin, error) {
	return &ImageLocality{handle: h}, nil
}

// Name returns ImageLocalityName.
func (*ImageLocality) Name() string { return ImageLocalityName }

// Score maps the spread-scaled size of the images present onto 0..100.
func (pl *ImageLocality) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	if !ni.HasImages() {
		return 0, nil
	}
	is := pl.spreadOf(pod)
	var sum int64
	for i, name := range is.names {
		if size, ok := ni.ImageSize(name); ok {
			sum += int64(float64(size) * is.spread[i])
		}
	}
	maxThreshold := maxContainerThreshold * int64(len(pod.Spec.Containers))
	sum = min(max(sum, minThreshold), maxThreshold)
	return framework.MaxNodeScore * (sum - minThreshold) / (maxThreshold - minThreshold), nil
}

// ScoreExtensions is nil: scores are already 0..100.
func (*ImageLocality) ScoreExtensions() framework.ScoreExtensions { return nil }

// normalizedImageName adds ":latest" to an image without a tag, as the node reports it.
func normalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}
