// config.go: NodeConfig, what a kubelet is told about its machine and how to run it: the flags and
// KubeletConfiguration fields of a real kubelet that matter to kubesim.
//
//	NodeConfig{Capacity, Reserved, EvictionHard, Labels, Arch, Zone, Taints, PodCIDR, InternalIP, KubeletVersion}
//	DefaultNodeConfig()            4 CPU, 8Gi, 110 pods, 100Gi disk, nothing reserved, Kubernetes'
//	                               default eviction thresholds
//	(NodeConfig).Allocatable()     capacity - reserved - hard eviction thresholds
//
// Allocatable is the number the scheduler packs pods against. Kubernetes computes it exactly this way
// (pkg/kubelet/cm/node_container_manager_linux.go): what the machine has, minus what the operator
// keeps for the OS and the kubelet (--system-reserved, --kube-reserved), minus the hard eviction
// threshold, because the kubelet starts evicting before memory actually runs out.
package kubelet

import (
	"cmp"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
)

// NodeConfig describes the machine and the kubelet's settings.
type NodeConfig struct {
	// Capacity is what the machine has: cpu, memory, pods (--max-pods, default 110), ephemeral-storage.
	Capacity resource.ResourceList
	// Reserved is --kube-reserved plus --system-reserved: kept back from pods for the OS and daemons.
	// Both are empty by default in Kubernetes, and here.
	Reserved resource.ResourceList
	// EvictionHard is --eviction-hard.
	EvictionHard EvictionThresholds
	// Labels are extra node labels (--node-labels); the kubelet always adds kubernetes.io/hostname,
	// kubernetes.io/os, kubernetes.io/arch and, when Zone is set, topology.kubernetes.io/zone.
	Labels map[string]string
	Arch   string // "amd64" (default) or "arm64"
	Zone   string // topology.kubernetes.io/zone
	// Taints are registered with the node (--register-with-taints).
	Taints []api.Taint
	// PodCIDR is the node's pod network range (in Kubernetes the node-ipam controller assigns it;
	// kubesim lets the cluster choose it up front, as --allocate-node-cidrs=false setups do).
	PodCIDR string
	// InternalIP is the node's address (status.addresses InternalIP).
	InternalIP string
	// KubeletVersion is reported in status.nodeInfo.kubeletVersion ("v1.32.0").
	KubeletVersion string
	// CrashLoopBackOff, if set, replaces Kubernetes' restart delay policy (10s, doubling up to 5m)
	// for crashed containers: the crash-loop lab (examples/labs) plugs a learner's in here.
	CrashLoopBackOff BackOffPolicy
	// ProbeThreshold, if set, replaces Kubernetes' rule for when a probe's result changes (see
	// ProbeThreshold): a learner's probe logic, swapped in with lab.WithProbeThreshold.
	ProbeThreshold ProbeThreshold
	// StaticPods are the manifests in the kubelet's --pod-manifest-path (static_pods.go): on a
	// control-plane node, the control plane's own components.
	StaticPods []*api.Pod
}

// EvictionThresholds are the hard eviction signals the eviction manager watches. Kubernetes' defaults
// are memory.available<100Mi, nodefs.available<10%, imagefs.available<15%, nodefs.inodesFree<5%,
// imagefs.inodesFree<5%; kubesim watches the first three.
type EvictionThresholds struct {
	MemoryAvailable         resource.Quantity // memory.available
	NodeFsAvailablePercent  int64             // nodefs.available, in percent of the filesystem
	ImageFsAvailablePercent int64             // imagefs.available, in percent of the filesystem
}

// Kubernetes' default timings (KubeletConfiguration defaults).
const (
	// nodeLeaseDuration is the Lease's leaseDurationSeconds; the node lifecycle controller treats a
	// node whose Lease was not renewed for this long (its grace period) as unreachable.
	nodeLeaseDuration = 40 * time.Second
	// leaseRenewInterval is a quarter of the lease duration, as in the kubelet's lease controller.
	leaseRenewInterval = nodeLeaseDuration / 4
	// nodeStatusUpdateFrequency is how often the kubelet computes its node status.
	nodeStatusUpdateFrequency = 10 * time.Second
	// nodeStatusReportFrequency is how often it writes the status even when nothing changed: with
	// Leases carrying the heartbeat, the status write became a slow, change-driven report.
	nodeStatusReportFrequency = 5 * time.Minute
	// A failed registration is retried after 100ms, doubling up to 7s, as Kubernetes does.
	registrationBackoffStart = 100 * time.Millisecond
	registrationBackoffMax   = 7 * time.Second
	// housekeepingInterval is how often the eviction manager looks at the node (evictionMonitoringPeriod)
	// and the kubelet refreshes what it knows of its runtime (images, runtime status).
	housekeepingInterval = 10 * time.Second
	// statusRetryInterval is how long a failed pod status write waits before it is tried again.
	statusRetryInterval = 10 * time.Second
)

// DefaultNodeConfig is a 4-CPU, 8Gi machine with Kubernetes' defaults: max-pods 110, no kube-reserved
// or system-reserved, and the hard eviction thresholds (so allocatable is cpu 4, memory 8Gi - 100Mi).
func DefaultNodeConfig() NodeConfig {
	return NodeConfig{
		Capacity: resource.ResourceList{
			resource.ResourceCPU:              resource.MustParse("4"),
			resource.ResourceMemory:           resource.MustParse("8Gi"),
			resource.ResourcePods:             resource.MustParse("110"),
			resource.ResourceEphemeralStorage: resource.MustParse("100Gi"),
		},
		EvictionHard: EvictionThresholds{
			MemoryAvailable:         resource.MustParse("100Mi"),
			NodeFsAvailablePercent:  10,
			ImageFsAvailablePercent: 15,
		},
		Arch:           "amd64",
		KubeletVersion: "v1.32.0",
	}
}

// withDefaults fills what the caller left empty from DefaultNodeConfig.
func (c NodeConfig) withDefaults() NodeConfig {
	d := DefaultNodeConfig()
	if c.Capacity == nil {
		c.Capacity = d.Capacity
	}
	if c.EvictionHard == (EvictionThresholds{}) {
		c.EvictionHard = d.EvictionHard
	}
	c.Arch = cmp.Or(c.Arch, d.Arch)
	c.KubeletVersion = cmp.Or(c.KubeletVersion, d.KubeletVersion)
	return c
}

// Allocatable is capacity minus reserved minus the hard eviction thresholds, never below zero.
func (c NodeConfig) Allocatable() resource.ResourceList {
	out := c.Capacity.DeepCopy()
	subtract := func(name resource.ResourceName, q resource.Quantity) {
		v, ok := out[name]
		if !ok {
			return
		}
		v.Sub(q)
		if v.Sign() < 0 {
			v = resource.NewQuantity(0, resource.DecimalSI)
		}
		out[name] = v
	}
	for name, q := range c.Reserved {
		subtract(name, q)
	}
	subtract(resource.ResourceMemory, c.EvictionHard.MemoryAvailable)
	if disk, ok := c.Capacity[resource.ResourceEphemeralStorage]; ok && c.EvictionHard.NodeFsAvailablePercent > 0 {
		subtract(resource.ResourceEphemeralStorage,
			resource.NewQuantity(disk.Value()*c.EvictionHard.NodeFsAvailablePercent/100, resource.BinarySI))
	}
	return out
}

// nodeLabels are the labels the kubelet registers its Node with.
func (c NodeConfig) nodeLabels(nodeName string) map[string]string {
	labels := map[string]string{
		api.LabelHostname:   nodeName,
		api.LabelOSStable:   "linux",
		api.LabelArchStable: c.Arch,
	}
	if c.Zone != "" {
		labels[api.LabelTopologyZone] = c.Zone
	}
	for k, v := range c.Labels {
		labels[k] = v
	}
	return labels
}
