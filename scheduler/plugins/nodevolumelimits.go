// nodevolumelimits.go: the NodeVolumeLimits plugin (CSILimits in Kubernetes'
// framework/plugins/nodevolumelimits). A node can attach only so many volumes of a CSI driver: the
// limit is the driver's allocatable count in the node's CSINode object, and a pod whose new volumes
// would pass it is rejected with `node(s) exceed max volume count` (Unschedulable).
//
//	PreFilter  a pod without claims (nor generic ephemeral or migratable in-tree volumes, which
//	           kubesim does not have) is skipped.
//	Filter     every claim of the pod must exist: `looking up PVC default/data: persistentvolumeclaim
//	           "data" not found` (Unresolvable; VolumeRestrictions' PreFilter says so first in the
//	           default profile). Then the volumes are counted per driver against the node's limits.
//
// What it simplifies: kubesim has no CSINode objects and no CSI volume source (its volumes are
// hostPath and local, which no driver attaches). In Kubernetes too, a node without a CSINode has no
// limits, and a hostPath or local volume counts for no driver; so the plugin's verdict on a kubesim
// cluster is Kubernetes' own: every node passes once the claims exist. `node(s) exceed max volume
// count` is never produced, and the CSINode and VolumeAttachment events it registers never happen.
package plugins

import (
	"context"
	"fmt"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NodeVolumeLimitsName is the plugin's name.
const NodeVolumeLimitsName = "NodeVolumeLimits"

// ErrReasonMaxVolumeCountExceeded is the plugin's rejection in Kubernetes (never produced: see above).
const ErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count"

// NodeVolumeLimits counts a node's attached volumes against its CSI drivers' limits.
type NodeVolumeLimits struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin   = (*NodeVolumeLimits)(nil)
	_ framework.FilterPlugin      = (*NodeVolumeLimits)(nil)
	_ framework.EnqueueExtensions = (*NodeVolumeLimits)(nil)
)

// NewNodeVolumeLimits is the plugin's factory.
func NewNodeVolumeLimits(h framework.Handle) (framework.Plugin, error) {
	return &NodeVolumeLimits{handle: h}, nil
}

// Name returns NodeVolumeLimitsName.
func (*NodeVolumeLimits) Name() string { return NodeVolumeLimitsName }

// EventsToRegister: a pod deleted (its volumes detached) or a claim created. (Kubernetes also
// registers CSINode added or changed and VolumeAttachment deleted: kinds kubesim does not have.)
func (*NodeVolumeLimits) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		framework.EventAssignedPodDelete,
		{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add},
	}
}

// PreFilter skips a pod that mounts no claim.
func (*NodeVolumeLimits) PreFilter(_ context.Context, _ *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			return nil, nil
		}
	}
	return nil, framework.NewStatus(framework.Skip)
}

// PreFilterExtensions is nil: the plugin keeps no state.
func (*NodeVolumeLimits) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter looks the pod's claims up; with no CSINode the node has no limits, and it passes.
func (pl *NodeVolumeLimits) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ *framework.NodeInfo) *framework.Status {
	lister := pl.handle.Volumes()
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		name := v.PersistentVolumeClaim.ClaimName
		if name == "" {
			return framework.AsStatus(fmt.Errorf("PersistentVolumeClaim had no name"))
		}
		if lister == nil {
			lister = storageless{}
		}
		if _, ok := lister.Claim(pod.Namespace, name); !ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("looking up PVC %s/%s: %s", pod.Namespace, name, claimNotFound(name)))
		}
	}
	return nil
}

// storageless is the lister of a scheduler that watches no storage: it finds nothing.
type storageless struct{}

func (storageless) Claim(string, string) (*api.PersistentVolumeClaim, bool) { return nil, false }
func (storageless) Volume(string) (*api.PersistentVolume, bool)             { return nil, false }
func (storageless) Volumes() []*api.PersistentVolume                        { return nil }
func (storageless) Class(string) (*api.StorageClass, bool)                  { return nil, false }
