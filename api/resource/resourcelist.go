// resourcelist.go is ResourceList, the map of resource name to quantity that
// a container's requests and limits and a node's capacity and allocatable
// are written as. Interface: ResourceName and its constants, Cpu, Memory,
// Pods, Add, DeepCopy.
//
// In Kubernetes these types live in k8s.io/api/core/v1; kubesim keeps them
// next to Quantity so that the scheduler and the kubelet can sum resources
// without importing the object types.
package resource

// ResourceName names a resource: "cpu", "memory", or an extended resource
// such as "example.com/gpu".
type ResourceName string

// The resources Kubernetes itself accounts for.
const (
	// ResourceCPU is in cores; "500m" is half a core.
	ResourceCPU ResourceName = "cpu"
	// ResourceMemory is in bytes; "128Mi" is 128 × 2^20 bytes.
	ResourceMemory ResourceName = "memory"
	// ResourcePods is how many pods a node accepts (kubelet default 110).
	ResourcePods ResourceName = "pods"
	// ResourceEphemeralStorage is local disk in bytes.
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
	// ResourceStorage is a volume's size in bytes (a PersistentVolume's capacity, a claim's request).
	ResourceStorage ResourceName = "storage"
)

// ResourceList is a set of quantities by resource name.
type ResourceList map[ResourceName]Quantity

// Cpu returns the cpu quantity, or zero if the list has none.
func (rl ResourceList) Cpu() Quantity { return rl[ResourceCPU] }

// Memory returns the memory quantity, or zero if the list has none.
func (rl ResourceList) Memory() Quantity { return rl[ResourceMemory] }

// Pods returns the pods quantity, or zero if the list has none.
func (rl ResourceList) Pods() Quantity { return rl[ResourcePods] }

// Add adds every quantity in other to rl, as the scheduler sums the requests
// of the pods on a node. rl must not be nil when other has entries.
func (rl ResourceList) Add(other ResourceList) {
	for name, q := range other {
		sum := rl[name]
		sum.Add(q)
		rl[name] = sum
	}
}

// DeepCopy returns an independent copy (nil stays nil). Quantity is a plain
// value, so copying the map is enough.
func (rl ResourceList) DeepCopy() ResourceList {
	if rl == nil {
		return nil
	}
	out := make(ResourceList, len(rl))
	for name, q := range rl {
		out[name] = q
	}
	return out
}
