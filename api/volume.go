// volume.go: a pod's volumes (core/v1 Volume and VolumeSource) and its containers' volumeMounts.
// kubesim models the sources its scenarios teach: emptyDir (scratch space that lives as long as the
// pod), configMap and secret (files made from those objects' keys), persistentVolumeClaim (a claim on
// durable storage, which the scheduler must place the pod near), and projected (several of those in
// one directory: the kube-api-access volume every pod gets from the ServiceAccount admission plugin).
// The other sources of the schema (hostPath, nfs, csi, ...) load and are named in a warning
// (unmodelled.go).
package api

import "kubesim/api/resource"

// Volume is a named volume of a pod; exactly one source is set.
type Volume struct {
	Name         string `json:"name"`
	VolumeSource `json:",inline"`
}

// VolumeSource is where a volume's content comes from.
type VolumeSource struct {
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty"`
}

// StorageMedium is where an emptyDir lives: the node's disk ("") or memory ("Memory", a tmpfs).
type StorageMedium string

// EmptyDirVolumeSource is an empty directory made when the pod starts and removed with it.
type EmptyDirVolumeSource struct {
	Medium    StorageMedium      `json:"medium,omitempty"`
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
}

// KeyToPath projects one key of a ConfigMap or Secret to a file path in the volume.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	Mode *int32 `json:"mode,omitempty"`
}

// ConfigMapVolumeSource makes a file of each key of a ConfigMap (or of the listed items).
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	DefaultMode          *int32      `json:"defaultMode,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// SecretVolumeSource makes a file of each key of a Secret (or of the listed items).
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty"`
}

// ProjectedVolumeSource puts several sources' files in one directory.
type ProjectedVolumeSource struct {
	Sources     []VolumeProjection `json:"sources"`
	DefaultMode *int32             `json:"defaultMode,omitempty"`
}

// VolumeProjection is one source of a projected volume; exactly one field is set.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
}

// SecretProjection projects a Secret's keys (or the listed items) into a projected volume.
type SecretProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// ConfigMapProjection projects a ConfigMap's keys (or the listed items) into a projected volume.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// DownwardAPIProjection projects fields of the pod (metadata.namespace, ...) into files.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// DownwardAPIVolumeFile is one file of a downward API projection: a field of the pod or a
// container's request or limit.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	Mode             *int32                 `json:"mode,omitempty"`
}

// ServiceAccountTokenProjection is a token of the pod's ServiceAccount, bound to the pod, which the
// kubelet requests (TokenRequest) and renews before it expires. kubesim writes no token: the file is
// named, not made.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	Path              string `json:"path"`
}

// PersistentVolumeClaimVolumeSource mounts the volume bound to a claim in the pod's namespace.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// VolumeMount mounts a pod's volume (by name) at mountPath in one container.
type VolumeMount struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath,omitempty"`
}
