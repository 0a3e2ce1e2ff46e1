// storage.go: durable storage, in three kinds. A PersistentVolumeClaim (core/v1) is a pod's request
// for storage: so much capacity, these access modes, of this StorageClass. A PersistentVolume
// (core/v1) is a piece of storage in the cluster, made by an administrator or by a provisioner. The
// PV controller binds the two one to one: the claim's spec.volumeName and the volume's
// spec.claimRef point at each other, and both phases become Bound. A StorageClass
// (storage.k8s.io/v1) names a provisioner that makes a volume on demand for a claim of that class,
// and says when: at once (Immediate) or once a pod using the claim has a node
// (WaitForFirstConsumer).
//
// Interface: the three kinds, their phases, access modes, reclaim policies and binding modes, the
// well-known annotations, and ClaimClass, IsDefaultClass, BindingMode, AccessModesString.
package api

import (
	"slices"
	"strings"

	"kubesim/api/resource"
)

// StorageGroupName is the API group of StorageClass.
const StorageGroupName = "storage.k8s.io"

// PersistentVolumeAccessMode is how a volume may be mounted.
type PersistentVolumeAccessMode string

const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"    // read-write by one node
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"     // read-only by many nodes
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"    // read-write by many nodes
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod" // read-write by one pod
)

// PersistentVolumeMode is whether a volume is a filesystem or a raw block device.
type PersistentVolumeMode string

const (
	PersistentVolumeBlock      PersistentVolumeMode = "Block"
	PersistentVolumeFilesystem PersistentVolumeMode = "Filesystem"
)

// PersistentVolumeReclaimPolicy says what happens to a volume once its claim is deleted.
type PersistentVolumeReclaimPolicy string

const (
	PersistentVolumeReclaimRetain  PersistentVolumeReclaimPolicy = "Retain"  // kept, phase Released
	PersistentVolumeReclaimDelete  PersistentVolumeReclaimPolicy = "Delete"  // deleted with its storage
	PersistentVolumeReclaimRecycle PersistentVolumeReclaimPolicy = "Recycle" // deprecated: wiped and reused
)

// PersistentVolume is a piece of storage.
type PersistentVolume struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PersistentVolumeSpec   `json:"spec,omitempty"`
	Status     PersistentVolumeStatus `json:"status,omitempty"`
}

// PersistentVolumeSpec is the volume's size, where it lives and who may claim it.
type PersistentVolumeSpec struct {
	Capacity                      resource.ResourceList         `json:"capacity,omitempty"`
	PersistentVolumeSource        `json:",inline"`              // where the storage is
	AccessModes                   []PersistentVolumeAccessMode  `json:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference              `json:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy PersistentVolumeReclaimPolicy `json:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string                        `json:"storageClassName,omitempty"`
	MountOptions                  []string                      `json:"mountOptions,omitempty"`
	VolumeMode                    *PersistentVolumeMode         `json:"volumeMode,omitempty"`
	NodeAffinity                  *VolumeNodeAffinity           `json:"nodeAffinity,omitempty"`
}

// PersistentVolumeSource is the storage behind a volume. kubesim models the two kinds that live on a
// node's disk (and what its simulated provisioner makes); the network and cloud sources load with a
// warning (unmodelled.go).
type PersistentVolumeSource struct {
	HostPath *HostPathVolumeSource `json:"hostPath,omitempty"`
	Local    *LocalVolumeSource    `json:"local,omitempty"`
}

// HostPathVolumeSource is a directory on the node.
type HostPathVolumeSource struct {
	Path string  `json:"path"`
	Type *string `json:"type,omitempty"`
}

// LocalVolumeSource is a disk or directory of one node; the volume's nodeAffinity names the node.
type LocalVolumeSource struct {
	Path   string  `json:"path"`
	FSType *string `json:"fsType,omitempty"`
}

// VolumeNodeAffinity limits the nodes that can reach a volume: a pod using it is scheduled there.
type VolumeNodeAffinity struct {
	Required *NodeSelector `json:"required,omitempty"`
}

// PersistentVolumePhase is where a volume is in its life.
type PersistentVolumePhase string

const (
	VolumePending   PersistentVolumePhase = "Pending"
	VolumeAvailable PersistentVolumePhase = "Available" // not yet bound to a claim
	VolumeBound     PersistentVolumePhase = "Bound"
	VolumeReleased  PersistentVolumePhase = "Released" // its claim is gone; not yet reclaimed
	VolumeFailed    PersistentVolumePhase = "Failed"
)

// PersistentVolumeStatus is the volume's phase, set by the PV controller.
type PersistentVolumeStatus struct {
	Phase   PersistentVolumePhase `json:"phase,omitempty"`
	Message string                `json:"message,omitempty"`
	Reason  string                `json:"reason,omitempty"`
}

// PersistentVolumeClaim is a request for storage.
type PersistentVolumeClaim struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PersistentVolumeClaimSpec   `json:"spec,omitempty"`
	Status     PersistentVolumeClaimStatus `json:"status,omitempty"`
}

// PersistentVolumeClaimSpec is what the claim asks for. A nil storageClassName means "the default
// class"; "" means "no class: only a volume without one".
type PersistentVolumeClaimSpec struct {
	AccessModes      []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Selector         *LabelSelector               `json:"selector,omitempty"`
	Resources        VolumeResourceRequirements   `json:"resources,omitempty"`
	VolumeName       string                       `json:"volumeName,omitempty"`
	StorageClassName *string                      `json:"storageClassName,omitempty"`
	VolumeMode       *PersistentVolumeMode        `json:"volumeMode,omitempty"`
}

// VolumeResourceRequirements is the storage a claim requests (and may be limited to).
type VolumeResourceRequirements struct {
	Limits   resource.ResourceList `json:"limits,omitempty"`
	Requests resource.ResourceList `json:"requests,omitempty"`
}

// PersistentVolumeClaimPhase is Pending until the claim is bound.
type PersistentVolumeClaimPhase string

const (
	ClaimPending PersistentVolumeClaimPhase = "Pending"
	ClaimBound   PersistentVolumeClaimPhase = "Bound"
	ClaimLost    PersistentVolumeClaimPhase = "Lost" // its bound volume is gone
)

// PersistentVolumeClaimStatus is the claim's phase and, once bound, what it got.
type PersistentVolumeClaimStatus struct {
	Phase       PersistentVolumeClaimPhase   `json:"phase,omitempty"`
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Capacity    resource.ResourceList        `json:"capacity,omitempty"`
}

// VolumeBindingMode says when a StorageClass's claims are bound or provisioned.
type VolumeBindingMode string

const (
	// VolumeBindingImmediate binds or provisions as soon as the claim exists.
	VolumeBindingImmediate VolumeBindingMode = "Immediate"
	// VolumeBindingWaitForFirstConsumer waits until the scheduler has picked a node for a pod using
	// the claim, so that the volume is made where the pod can reach it.
	VolumeBindingWaitForFirstConsumer VolumeBindingMode = "WaitForFirstConsumer"
)

// StorageClass is a kind of storage and who makes it.
type StorageClass struct {
	TypeMeta             `json:",inline"`
	ObjectMeta           `json:"metadata,omitempty"`
	Provisioner          string                         `json:"provisioner"`
	Parameters           map[string]string              `json:"parameters,omitempty"`
	ReclaimPolicy        *PersistentVolumeReclaimPolicy `json:"reclaimPolicy,omitempty"`
	MountOptions         []string                       `json:"mountOptions,omitempty"`
	AllowVolumeExpansion *bool                          `json:"allowVolumeExpansion,omitempty"`
	VolumeBindingMode    *VolumeBindingMode             `json:"volumeBindingMode,omitempty"`
}

// The annotations of volume binding, with Kubernetes' names.
const (
	// AnnIsDefaultStorageClass marks the class a claim without storageClassName gets.
	AnnIsDefaultStorageClass = "storageclass.kubernetes.io/is-default-class"
	// AnnSelectedNode is set on a WaitForFirstConsumer claim by the scheduler: the node its pod goes
	// to, where the volume must be provisioned.
	AnnSelectedNode = "volume.kubernetes.io/selected-node"
	// AnnStorageProvisioner is set on a claim by the PV controller: the provisioner asked to make its
	// volume.
	AnnStorageProvisioner = "volume.kubernetes.io/storage-provisioner"
	// AnnBindCompleted is set on a claim by the PV controller once the binding is complete.
	AnnBindCompleted = "pv.kubernetes.io/bind-completed"
	// AnnBoundByController is set on a volume or claim the PV controller bound (not the user).
	AnnBoundByController = "pv.kubernetes.io/bound-by-controller"
	// AnnProvisionedBy is set on a volume by the provisioner that made it.
	AnnProvisionedBy = "pv.kubernetes.io/provisioned-by"
)

// NotProvisioned is the provisioner of a class whose volumes are made by hand.
const NotProvisioned = "kubernetes.io/no-provisioner"

// ClaimClass is the class a claim asks for; "" for none (or, while it is nil, not chosen yet).
func ClaimClass(c *PersistentVolumeClaim) string {
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// IsDefaultClass reports whether a StorageClass is marked the default.
func IsDefaultClass(sc *StorageClass) bool {
	return sc.Annotations[AnnIsDefaultStorageClass] == "true"
}

// BindingMode is a class's volumeBindingMode, Immediate when unset.
func (sc *StorageClass) BindingMode() VolumeBindingMode {
	return Deref(sc.VolumeBindingMode, VolumeBindingImmediate)
}

// AccessModesString abbreviates access modes as kubectl prints them: "RWO,ROX,RWX,RWOP", in that
// order, whatever order they were written in (GetAccessModesAsString in Kubernetes).
func AccessModesString(modes []PersistentVolumeAccessMode) string {
	var out []string
	for _, m := range []struct {
		mode PersistentVolumeAccessMode
		abbr string
	}{{ReadWriteOnce, "RWO"}, {ReadOnlyMany, "ROX"}, {ReadWriteMany, "RWX"}, {ReadWriteOncePod, "RWOP"}} {
		if slices.Contains(modes, m.mode) {
			out = append(out, m.abbr)
		}
	}
	return strings.Join(out, ",")
}
