// volumematch.go: which PersistentVolume can satisfy a claim (FindMatchingVolume in Kubernetes'
// component-helpers/storage/volume), shared by the two components that must agree on it: the PV
// controller (which volume it binds an Immediate claim to) and the scheduler's VolumeBinding plugin
// (whether a node has a volume for a WaitForFirstConsumer claim). Interface: FindMatchingVolume,
// RefersToClaim, VolumeReachable.
package api

import (
	"slices"

	"kubesim/api/labels"
	"kubesim/api/resource"
)

// FindMatchingVolume returns the smallest volume that can serve claim, or nil: one already
// pre-bound to the claim wins; otherwise an Available volume, not claimed by another, of the claim's
// class, with every access mode the claim asks for, at least the storage it requests, the same
// volume mode, and labels the claim's selector accepts. node, if not nil, also requires the volume to
// be reachable from that node. When delayBinding is set only a pre-bound volume is returned: the
// scheduler chooses the others, once it has a node.
func FindMatchingVolume(claim *PersistentVolumeClaim, volumes []*PersistentVolume, node *Node, delayBinding bool) *PersistentVolume {
	request := claim.Spec.Resources.Requests[resource.ResourceStorage]
	var best *PersistentVolume
	var bestSize resource.Quantity
	for _, pv := range volumes {
		if node != nil && !VolumeReachable(pv, node) {
			continue
		}
		if ref := pv.Spec.ClaimRef; ref != nil {
			if RefersToClaim(ref, claim) {
				return pv // pre-bound to this claim
			}
			continue
		}
		if delayBinding && node == nil {
			continue
		}
		if pv.DeletionTimestamp != nil || pv.Status.Phase != VolumeAvailable && pv.Status.Phase != VolumePending {
			continue
		}
		size := pv.Spec.Capacity[resource.ResourceStorage]
		if !volumeFits(pv, claim) || size.Cmp(request) < 0 {
			continue
		}
		if best == nil || size.Cmp(bestSize) < 0 {
			best, bestSize = pv, size
		}
	}
	return best
}

// RefersToClaim reports whether a volume's claimRef names the claim (by UID too, once it has one).
func RefersToClaim(ref *ObjectReference, c *PersistentVolumeClaim) bool {
	return ref.Namespace == c.Namespace && ref.Name == c.Name && (ref.UID == "" || ref.UID == c.UID)
}

// volumeFits checks everything but size and reachability.
func volumeFits(pv *PersistentVolume, claim *PersistentVolumeClaim) bool {
	if pv.Spec.StorageClassName != ClaimClass(claim) {
		return false
	}
	for _, m := range claim.Spec.AccessModes {
		if !slices.Contains(pv.Spec.AccessModes, m) {
			return false
		}
	}
	if volumeMode(pv.Spec.VolumeMode) != volumeMode(claim.Spec.VolumeMode) {
		return false
	}
	if claim.Spec.Selector != nil {
		sel, err := claim.Spec.Selector.AsSelector()
		if err != nil || !sel.Matches(labels.Set(pv.Labels)) {
			return false
		}
	}
	return true
}

// VolumeReachable reports whether node can reach the volume: it has no node affinity, or the node
// matches it.
func VolumeReachable(pv *PersistentVolume, node *Node) bool {
	if pv.Spec.NodeAffinity == nil || pv.Spec.NodeAffinity.Required == nil {
		return true
	}
	return pv.Spec.NodeAffinity.Required.Matches(node.Name, node.Labels)
}

func volumeMode(m *PersistentVolumeMode) PersistentVolumeMode {
	if m == nil {
		return PersistentVolumeFilesystem
	}
	return *m
}
