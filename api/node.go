// node.go: Node (core/v1), a machine the scheduler can place pods on. A kubelet registers its node,
// reports capacity, conditions and images in status, and heartbeats through a Lease; the node
// lifecycle controller turns missed heartbeats into Ready=Unknown and the not-ready/unreachable taints.
package api

import "kubesim/api/resource"

// Node is a worker machine.
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NodeSpec   `json:"spec,omitempty"`
	Status     NodeStatus `json:"status,omitempty"`
}

// NodeSpec holds the pod network range, cordoning and taints.
type NodeSpec struct {
	PodCIDR       string   `json:"podCIDR,omitempty"`
	PodCIDRs      []string `json:"podCIDRs,omitempty"`
	Unschedulable bool     `json:"unschedulable,omitempty"` // set by kubectl cordon
	Taints        []Taint  `json:"taints,omitempty"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

const (
	TaintEffectNoSchedule       TaintEffect = "NoSchedule"       // new pods are not scheduled here
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule" // the scheduler avoids the node if it can
	TaintEffectNoExecute        TaintEffect = "NoExecute"        // running pods are evicted too
)

// Taint repels pods that lack a matching toleration. timeAdded is set for NoExecute taints so that
// tolerationSeconds can be counted from it.
type Taint struct {
	Key       string      `json:"key"`
	Value     string      `json:"value,omitempty"`
	Effect    TaintEffect `json:"effect"`
	TimeAdded *Time       `json:"timeAdded,omitempty"`
}

// ToString is "key=value:effect", or "key:effect" without a value, as kubectl prints taints.
func (t *Taint) ToString() string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// NodeStatus is what the kubelet reports about its node.
type NodeStatus struct {
	Capacity    resource.ResourceList `json:"capacity,omitempty"`
	Allocatable resource.ResourceList `json:"allocatable,omitempty"` // capacity minus system reservations
	Conditions  []NodeCondition       `json:"conditions,omitempty"`
	Addresses   []NodeAddress         `json:"addresses,omitempty"`
	NodeInfo    NodeSystemInfo        `json:"nodeInfo,omitempty"`
	Images      []ContainerImage      `json:"images,omitempty"`
}

// NodeConditionType names a node condition.
type NodeConditionType string

const (
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one observation about a node. The kubelet refreshes lastHeartbeatTime; the node
// lifecycle controller sets the status to Unknown when heartbeats stop.
type NodeCondition struct {
	Type               NodeConditionType `json:"type"`
	Status             ConditionStatus   `json:"status"`
	LastHeartbeatTime  Time              `json:"lastHeartbeatTime,omitempty"`
	LastTransitionTime Time              `json:"lastTransitionTime,omitempty"`
	Reason             string            `json:"reason,omitempty"`
	Message            string            `json:"message,omitempty"`
}

// GetNodeCondition returns the status' condition of type t, or nil if it has none (Kubernetes'
// nodeutil.GetNodeCondition, which also returns the index).
func GetNodeCondition(status *NodeStatus, t NodeConditionType) *NodeCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// NodeAddressType names a kind of node address.
type NodeAddressType string

const (
	NodeHostName   NodeAddressType = "Hostname"
	NodeInternalIP NodeAddressType = "InternalIP"
	NodeExternalIP NodeAddressType = "ExternalIP"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type"`
	Address string          `json:"address"`
}

// NodeSystemInfo is what the kubelet learned about its machine and container runtime.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID"`
	SystemUUID              string `json:"systemUUID"`
	BootID                  string `json:"bootID"`
	KernelVersion           string `json:"kernelVersion"`
	OSImage                 string `json:"osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion"`
	KubeProxyVersion        string `json:"kubeProxyVersion"`
	OperatingSystem         string `json:"operatingSystem"`
	Architecture            string `json:"architecture"`
}

// ContainerImage is an image present on the node; the ImageLocality score plugin prefers nodes that
// already have a pod's images.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}
