// volumerestrictions.go: the VolumeRestrictions plugin (framework/plugins/volumerestrictions in
// Kubernetes). A claim whose access modes include ReadWriteOncePod may be used by one pod of the
// whole cluster at a time:
//
//	PreFilter  every claim must exist (`persistentvolumeclaim "data" not found`, Unresolvable); the
//	           pod's ReadWriteOncePod claims are noted, and each one some scheduled pod already uses
//	           counts as a conflict. No such claim and nothing to check: Skip.
//	Filter     a conflict rejects every node: `node(s) unavailable due to PersistentVolumeClaim with
//	           ReadWriteOncePod access mode already in-use by another pod` (Unschedulable: preempting
//	           the pod that holds the claim helps, which AddPod/RemovePod let preemption see).
//
// What it simplifies: Kubernetes' plugin also rejects a node where another pod mounts the same GCE
// persistent disk, AWS EBS volume, iSCSI target or Ceph RBD image read-write (`node(s) had no
// available disk`); kubesim's pods have none of those volume sources (they load with a warning and
// are dropped), so that check can never fire and is not simulated.
package plugins

import (
	"context"
	"fmt"
	"slices"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// VolumeRestrictionsName is the plugin's name.
const VolumeRestrictionsName = "VolumeRestrictions"

// The plugin's reasons, in Kubernetes' words (ErrReasonDiskConflict is never produced: see above).
const (
	ErrReasonDiskConflict             = "node(s) had no available disk"
	ErrReasonReadWriteOncePodConflict = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
)

const volumeRestrictionsStateKey framework.StateKey = "PreFilter" + VolumeRestrictionsName

// VolumeRestrictions keeps a ReadWriteOncePod claim to one pod.
type VolumeRestrictions struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*VolumeRestrictions)(nil)
	_ framework.PreFilterExtensions = (*VolumeRestrictions)(nil)
	_ framework.FilterPlugin        = (*VolumeRestrictions)(nil)
	_ framework.EnqueueExtensions   = (*VolumeRestrictions)(nil)
)

// NewVolumeRestrictions is the plugin's factory.
func NewVolumeRestrictions(h framework.Handle) (framework.Plugin, error) {
	return &VolumeRestrictions{handle: h}, nil
}

// Name returns VolumeRestrictionsName.
func (*VolumeRestrictions) Name() string { return VolumeRestrictionsName }

// EventsToRegister: a pod deleted (it may have held the claim), a node added, or a claim created (the
// one the pod waited for). Kubernetes' queueing hints then look at the object (the same namespace,
// the same claim name); kubesim matches on the event alone.
func (*VolumeRestrictions) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		framework.EventAssignedPodDelete,
		framework.EventNodeAdd,
		{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add},
	}
}

// restrictionsState is the pod's ReadWriteOncePod claims (by name) and how many references scheduled
// pods make to them.
type restrictionsState struct {
	rwopClaims []string
	conflicts  int
}

func (s *restrictionsState) Clone() framework.StateData {
	c := *s
	return &c
}

// references counts the volumes of pod that name one of the claims (Kubernetes counts by claim name
// alone, whatever the other pod's namespace).
func (s *restrictionsState) references(pod *api.Pod) int {
	n := 0
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil && slices.Contains(s.rwopClaims, v.PersistentVolumeClaim.ClaimName) {
			n++
		}
	}
	return n
}

// PreFilter looks up the pod's claims and counts those in use elsewhere.
func (pl *VolumeRestrictions) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	var s restrictionsState
	lister := pl.handle.Volumes()
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		name := v.PersistentVolumeClaim.ClaimName
		claim, ok := (*api.PersistentVolumeClaim)(nil), false
		if lister != nil {
			claim, ok = lister.Claim(pod.Namespace, name)
		}
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, claimNotFound(name))
		}
		if slices.Contains(claim.Spec.AccessModes, api.ReadWriteOncePod) && !slices.Contains(s.rwopClaims, claim.Name) {
			s.rwopClaims = append(s.rwopClaims, claim.Name)
		}
	}
	for _, name := range s.rwopClaims {
		if pl.claimInUse(pod.Namespace, name) {
			s.conflicts++ // at most one pod may use it: one conflict per claim
		}
	}
	if s.conflicts == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(volumeRestrictionsStateKey, &s)
	return nil, nil
}

// claimInUse reports whether a pod bound or assumed to a node of the snapshot mounts the claim (the
// snapshot's used-claims set in Kubernetes).
func (pl *VolumeRestrictions) claimInUse(namespace, name string) bool {
	snap := pl.handle.SnapshotSharedLister()
	if snap == nil {
		return false
	}
	for _, ni := range snap.List() {
		for _, pi := range ni.Pods {
			if pi.Pod.Namespace != namespace {
				continue
			}
			for _, v := range pi.Pod.Spec.Volumes {
				if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == name {
					return true
				}
			}
		}
	}
	return false
}

func claimNotFound(name string) string {
	return fmt.Sprintf("persistentvolumeclaim %q not found", name)
}

// PreFilterExtensions keeps the conflict count right as preemption removes pods, or adds nominated ones.
func (pl *VolumeRestrictions) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts podToAdd's references to the pod's ReadWriteOncePod claims.
func (pl *VolumeRestrictions) AddPod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToAdd *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	s, err := readRestrictionsState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.conflicts += s.references(podToAdd.Pod)
	return nil
}

// RemovePod uncounts podToRemove's references.
func (pl *VolumeRestrictions) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	s, err := readRestrictionsState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	s.conflicts -= s.references(podToRemove.Pod)
	return nil
}

// Filter rejects the node while a ReadWriteOncePod claim of the pod is in use.
func (pl *VolumeRestrictions) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, _ *framework.NodeInfo) *framework.Status {
	s, err := readRestrictionsState(state)
	if err != nil {
		return framework.AsStatus(err)
	}
	if s.conflicts > 0 {
		return framework.NewStatus(framework.Unschedulable, ErrReasonReadWriteOncePodConflict)
	}
	return nil
}

func readRestrictionsState(state *framework.CycleState) (*restrictionsState, error) {
	d, err := state.Read(volumeRestrictionsStateKey)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q from cycleState", volumeRestrictionsStateKey)
	}
	return d.(*restrictionsState), nil
}
