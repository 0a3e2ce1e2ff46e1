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

// FindMatchingVolume returns the volume that can serve claim, or nil, as component-helpers'
// FindMatchingVolume decides for both the PV controller (node nil) and the scheduler's VolumeBinding
// (node set; it sees only the claim's class, and never one of excluded, the volumes it has already
// chosen for other claims of the pod). Among the volumes with room for the request, of the claim's
// volume mode and not being deleted: one pre-bound to the claim wins at once (none, if node cannot
// reach it); with delayBinding and no node, nothing else (the scheduler chooses, once it has a
// node); otherwise the smallest Available one, not claimed by another, that the claim's selector
// accepts, of its class, reachable from node and with every access mode the claim asks for.
// Simplified: Kubernetes' PV controller walks its index by access modes, smallest set first, before
// size; kubesim checks the modes of every volume and takes the smallest.
func FindMatchingVolume(claim *PersistentVolumeClaim, volumes []*PersistentVolume, node *Node, excluded map[string]bool, delayBinding bool) *PersistentVolume {
	request := claim.Spec.Resources.Requests[resource.ResourceStorage]
	class := ClaimClass(claim)
	var selector labels.Selector
	if claim.Spec.Selector != nil {
		sel, err := claim.Spec.Selector.AsSelector()
		if err != nil {
			return nil
		}
		selector = sel
	}
	var best *PersistentVolume
	var bestSize resource.Quantity
	for _, pv := range volumes {
		if excluded[pv.Name] || node != nil && pv.Spec.StorageClassName != class {
			continue
		}
		prebound := pv.Spec.ClaimRef != nil && RefersToClaim(pv.Spec.ClaimRef, claim)
		if pv.Spec.ClaimRef != nil && !prebound {
			continue
		}
		size := pv.Spec.Capacity[resource.ResourceStorage]
		if size.Cmp(request) < 0 || volumeMode(pv.Spec.VolumeMode) != volumeMode(claim.Spec.VolumeMode) || pv.DeletionTimestamp != nil {
			continue
		}
		reachable := node == nil || VolumeReachable(pv, node)
		if prebound {
			if !reachable {
				return nil
			}
			return pv
		}
		if node == nil && delayBinding {
			continue
		}
		if pv.Status.Phase != VolumeAvailable || selector != nil && !selector.Matches(labels.Set(pv.Labels)) ||
			pv.Spec.StorageClassName != class || !reachable || !hasAccessModes(pv, claim) {
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

// hasAccessModes reports whether the volume offers every access mode the claim asks for.
func hasAccessModes(pv *PersistentVolume, claim *PersistentVolumeClaim) bool {
	for _, m := range claim.Spec.AccessModes {
		if !slices.Contains(pv.Spec.AccessModes, m) {
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
	return Deref(m, PersistentVolumeFilesystem)
}
