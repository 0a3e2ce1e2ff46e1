// scheduling.go: PriorityClass (scheduling.k8s.io/v1). The Priority admission plugin copies a class's
// value into pod.spec.priority; the scheduler queues higher priorities first and may preempt lower
// ones to make room.
package api

// PriorityClass maps a name to a pod priority.
type PriorityClass struct {
	TypeMeta         `json:",inline"`
	ObjectMeta       `json:"metadata,omitempty"`
	Value            int32             `json:"value"`
	GlobalDefault    bool              `json:"globalDefault,omitempty"`
	Description      string            `json:"description,omitempty"`
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

// PreemptionPolicy says whether pods of a class may preempt lower-priority pods.
type PreemptionPolicy string

const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// The built-in priority classes and the bounds on user-defined values.
const (
	HighestUserDefinablePriority int32 = 1000000000
	SystemCriticalPriority       int32 = 2 * HighestUserDefinablePriority
	SystemClusterCritical              = "system-cluster-critical" // value SystemCriticalPriority
	SystemNodeCritical                 = "system-node-critical"    // value SystemCriticalPriority + 1000
)
