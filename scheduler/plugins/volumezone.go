// volumezone.go: the VolumeZone plugin (framework/plugins/volumezone in Kubernetes). A volume
// labelled with a zone or region (topology.kubernetes.io/zone, .../region, or their deprecated
// failure-domain.beta.kubernetes.io forms; several zones joined by "__") can only be used from a node
// of that zone:
//
//	PreFilter  gather the topology labels of the volumes of the pod's bound claims (a claim with
//	           spec.volumeName); a claim waiting for its first consumer has no volume yet and is
//	           passed over. A missing claim, class or volume rejects the pod (Unresolvable): the
//	           lister's `... not found`, `PersistentVolume had no name` for an unbound claim that
//	           binds at once. No labelled volume: Skip.
//	Filter     a node with no zone or region label passes; otherwise each label of each volume must
//	           be on the node with one of the volume's values, or `node(s) had no available volume
//	           zone` (UnschedulableAndUnresolvable).
package plugins

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// VolumeZoneName is the plugin's name.
const VolumeZoneName = "VolumeZone"

// ErrReasonVolumeZoneConflict is the plugin's rejection, in Kubernetes' words.
const ErrReasonVolumeZoneConflict = "node(s) had no available volume zone"

const volumeZoneStateKey framework.StateKey = "PreFilter" + VolumeZoneName

// The topology labels VolumeZone reads, in Kubernetes' order: the deprecated beta forms first.
const (
	labelFailureDomainBetaZone   = "failure-domain.beta.kubernetes.io/zone"
	labelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region"
	labelTopologyRegion          = "topology.kubernetes.io/region"
)

var volumeTopologyLabels = []string{labelFailureDomainBetaZone, labelFailureDomainBetaRegion, api.LabelTopologyZone, labelTopologyRegion}

// gaLabel maps a deprecated label to its GA name: a node labelled either way matches.
func gaLabel(key string) string {
	switch key {
	case labelFailureDomainBetaZone:
		return api.LabelTopologyZone
	case labelFailureDomainBetaRegion:
		return labelTopologyRegion
	}
	return key
}

// VolumeZone keeps pods in the zones of their volumes.
type VolumeZone struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin   = (*VolumeZone)(nil)
	_ framework.FilterPlugin      = (*VolumeZone)(nil)
	_ framework.EnqueueExtensions = (*VolumeZone)(nil)
)

// NewVolumeZone is the plugin's factory.
func NewVolumeZone(h framework.Handle) (framework.Plugin, error) { return &VolumeZone{handle: h}, nil }

// Name returns VolumeZoneName.
func (*VolumeZone) Name() string { return VolumeZoneName }

// EventsToRegister: a class added (Kubernetes' hint: a WaitForFirstConsumer one), a node added or
// relabelled, a claim added or changed, a volume added or changed (its topology).
func (*VolumeZone) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.StorageClass, ActionType: framework.Add},
		{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel},
		{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add | framework.Update},
		{Resource: framework.PersistentVolume, ActionType: framework.Add | framework.Update},
	}
}

// volumeTopology is one topology label of one volume: its key and the values it allows.
type volumeTopology struct {
	key    string
	values []string
}

type volumeZoneState []volumeTopology

func (s volumeZoneState) Clone() framework.StateData { return s }

// PreFilter gathers the topology labels of the pod's volumes.
func (pl *VolumeZone) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	topologies, st := pl.podTopologies(pod)
	if st != nil {
		return nil, st
	}
	if len(topologies) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(volumeZoneStateKey, topologies)
	return nil, nil
}

func (pl *VolumeZone) podTopologies(pod *api.Pod) (volumeZoneState, *framework.Status) {
	unresolvable := func(msg string) *framework.Status {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, msg)
	}
	lister := pl.handle.Volumes()
	var out volumeZoneState
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		name := v.PersistentVolumeClaim.ClaimName
		if name == "" {
			return nil, unresolvable("PersistentVolumeClaim had no name")
		}
		if lister == nil {
			return nil, unresolvable(claimNotFound(name))
		}
		claim, ok := lister.Claim(pod.Namespace, name)
		if !ok {
			return nil, unresolvable(claimNotFound(name))
		}
		if claim.Spec.VolumeName == "" {
			class := api.ClaimClass(claim)
			if class == "" {
				return nil, unresolvable("PersistentVolumeClaim had no pv name and storageClass name")
			}
			sc, ok := lister.Class(class)
			switch {
			case !ok:
				return nil, unresolvable(fmt.Sprintf("storageclass.storage.k8s.io %q not found", class))
			case sc.VolumeBindingMode == nil:
				return nil, unresolvable(fmt.Sprintf("VolumeBindingMode not set for StorageClass %q", class))
			case *sc.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer:
				continue // no volume yet: it will be made where the pod goes
			}
			return nil, unresolvable("PersistentVolume had no name")
		}
		vol, ok := lister.Volume(claim.Spec.VolumeName)
		if !ok {
			return nil, unresolvable(fmt.Sprintf("persistentvolume %q not found", claim.Spec.VolumeName))
		}
		out = append(out, volumeTopologies(vol)...)
	}
	return out, nil
}

// volumeTopologies reads a volume's topology labels; a value with an empty zone in it ("a__") is
// ignored, as Kubernetes ignores a label it cannot parse.
func volumeTopologies(vol *api.PersistentVolume) []volumeTopology {
	var out []volumeTopology
	for _, key := range volumeTopologyLabels {
		value, ok := vol.Labels[key]
		if !ok {
			continue
		}
		var values []string
		valid := true
		for _, z := range strings.Split(value, "__") {
			z = strings.TrimSpace(z)
			if z == "" {
				valid = false
				break
			}
			values = append(values, z)
		}
		if valid {
			out = append(out, volumeTopology{key: key, values: values})
		}
	}
	return out
}

// Filter checks the node's zone and region against the volumes'.
func (pl *VolumeZone) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	var topologies volumeZoneState
	if d, err := state.Read(volumeZoneStateKey); err == nil {
		topologies = d.(volumeZoneState)
	} else {
		var st *framework.Status
		if topologies, st = pl.podTopologies(pod); st != nil {
			return st
		}
	}
	node := ni.Node()
	constrained := false
	for _, key := range volumeTopologyLabels {
		if _, ok := node.Labels[key]; ok {
			constrained = true
			break
		}
	}
	if !constrained {
		return nil
	}
	for _, t := range topologies {
		v, ok := node.Labels[t.key]
		if !ok {
			v, ok = node.Labels[gaLabel(t.key)]
		}
		if !ok || !slices.Contains(t.values, v) {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonVolumeZoneConflict)
		}
	}
	return nil
}

// PreFilterExtensions is nil: other pods do not change where the pod's volumes are.
func (*VolumeZone) PreFilterExtensions() framework.PreFilterExtensions { return nil }
