// imagelocality.go: the ImageLocality plugin. A node that already has the pod's images (listed in
// node.status.images) starts the pod sooner, so it scores higher: the image sizes, each scaled by the
// share of nodes that have the image (so an image everybody has does not pull every pod to one
// node), clamped between 23 MB and 1000 MB per container and mapped onto 0..100.
package plugins

import (
	"context"
	"strings"

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
	if len(ni.ImageSizes) == 0 {
		return 0, nil
	}
	snap := pl.handle.SnapshotSharedLister()
	var sum int64
	for i := range pod.Spec.Containers {
		name := normalizedImageName(pod.Spec.Containers[i].Image)
		if size, ok := ni.ImageSizes[name]; ok {
			spread := float64(snap.ImageNumNodes(name)) / float64(snap.NumNodes())
			sum += int64(float64(size) * spread)
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
