package api

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api/resource"
)

func TestFindMatchingVolume(t *testing.T) {
	pv := func(name, size string, phase PersistentVolumePhase, zone string) *PersistentVolume {
		v := &PersistentVolume{ObjectMeta: ObjectMeta{Name: name}, Spec: PersistentVolumeSpec{
			Capacity:    resource.ResourceList{resource.ResourceStorage: resource.MustParse(size)},
			AccessModes: []PersistentVolumeAccessMode{ReadWriteOnce}, StorageClassName: "local"},
			Status: PersistentVolumeStatus{Phase: phase}}
		if zone != "" {
			v.Spec.NodeAffinity = &VolumeNodeAffinity{Required: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{{
				MatchExpressions: []NodeSelectorRequirement{{Key: LabelTopologyZone, Operator: NodeSelectorOpIn, Values: []string{zone}}}}}}}
		}
		return v
	}
	claim := &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "data", Namespace: "default", UID: "u1"},
		Spec: PersistentVolumeClaimSpec{StorageClassName: Ptr("local"), AccessModes: []PersistentVolumeAccessMode{ReadWriteOnce},
			Resources: VolumeResourceRequirements{Requests: resource.ResourceList{resource.ResourceStorage: resource.MustParse("5Gi")}}}}
	small, big := pv("small", "1Gi", VolumeAvailable, ""), pv("big", "20Gi", VolumeAvailable, "")
	fit, pending := pv("fit", "10Gi", VolumeAvailable, "zone-b"), pv("pending", "5Gi", VolumePending, "")
	all := []*PersistentVolume{small, big, fit, pending}
	nodeA := &Node{ObjectMeta: ObjectMeta{Name: "node-1", Labels: map[string]string{LabelTopologyZone: "zone-a"}}}

	assert.Equal(t, fit, FindMatchingVolume(claim, all, nil, nil, false), "the smallest Available one with room; a Pending one waits")
	assert.Equal(t, big, FindMatchingVolume(claim, all, nodeA, nil, true), "fit is out of reach of zone-a")
	assert.Nil(t, FindMatchingVolume(claim, all, nodeA, map[string]bool{"big": true}, true), "big is taken by another claim of the pod")
	assert.Nil(t, FindMatchingVolume(claim, all, nil, nil, true), "WaitForFirstConsumer: the scheduler chooses")

	prebound := pv("mine", "5Gi", VolumeAvailable, "zone-b")
	prebound.Spec.ClaimRef = &ObjectReference{Namespace: "default", Name: "data"}
	withPrebound := append([]*PersistentVolume{prebound}, all...)
	assert.Equal(t, prebound, FindMatchingVolume(claim, withPrebound, nil, nil, true), "a volume pre-bound to the claim wins, even delayed")
	assert.Nil(t, FindMatchingVolume(claim, withPrebound, nodeA, nil, true), "and nothing else will do where it cannot be reached")

	rwx := *claim
	rwx.Spec.AccessModes = []PersistentVolumeAccessMode{ReadWriteMany}
	assert.Nil(t, FindMatchingVolume(&rwx, all, nil, nil, false), "no volume offers ReadWriteMany")
}
