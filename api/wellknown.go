// wellknown.go: the well-known labels and taint keys (k8s.io/api/core/v1 well_known_labels.go and
// well_known_taints.go). Kubelets label their nodes with them, the scheduler's topology plugins read
// them, and the node lifecycle controller and kubelet add the taints when a node is in trouble.
package api

// Node labels.
const (
	LabelHostname             = "kubernetes.io/hostname"
	LabelOSStable             = "kubernetes.io/os"
	LabelArchStable           = "kubernetes.io/arch"
	LabelTopologyZone         = "topology.kubernetes.io/zone"
	LabelTopologyRegion       = "topology.kubernetes.io/region"
	LabelNodeRoleControlPlane = "node-role.kubernetes.io/control-plane" // set by kubeadm, also a taint key
	LabelMetadataName         = "kubernetes.io/metadata.name"           // every namespace carries its own name
)

// Taint keys. The node lifecycle controller adds not-ready and unreachable (NoExecute, after
// NoSchedule) from the Ready condition; the kubelet's conditions map to the pressure taints; kubectl
// cordon's unschedulable field maps to the unschedulable taint.
const (
	TaintNodeNotReady           = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable        = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	TaintNodeOutOfService       = "node.kubernetes.io/out-of-service"
)
