// events.go: cluster events, the changes that can make an unschedulable pod schedulable (a node
// added, a pod deleted, a taint removed). Each plugin declares the events that could change its
// verdict (EnqueueExtensions.EventsToRegister); the queue moves a rejected pod back only on events
// that one of its rejecting plugins registered. So a pod rejected by TaintToleration waits for a
// taint change, not for every pod deletion. (Kubernetes adds per-event "queueing hint" functions
// that look at the object; kubesim matches on the event type alone.) Interface: EventResource,
// ActionType, ClusterEvent and the named events.
package framework

import "strings"

// EventResource is the kind of object that changed.
type EventResource string

const (
	// Node is a Node object.
	Node EventResource = "Node"
	// AssignedPod is a pod bound to a node.
	AssignedPod EventResource = "AssignedPod"
	// PersistentVolumeClaim, PersistentVolume and StorageClass are the storage objects the volume
	// plugins wait on. (Kubernetes also has CSINode and VolumeAttachment events, for
	// NodeVolumeLimits; kubesim has neither kind.)
	PersistentVolumeClaim EventResource = "PersistentVolumeClaim"
	PersistentVolume      EventResource = "PersistentVolume"
	StorageClass          EventResource = "StorageClass"
	// WildCard matches any resource (the 5-minute flush and forced moves).
	WildCard EventResource = "*"
)

// ActionType is a bit set of what happened to the object.
type ActionType int

const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeAllocatable
	UpdateNodeLabel
	UpdateNodeTaint
	UpdateNodeCondition
	UpdatePodLabel
	UpdatePodScaleDown

	// Update is any kind of update.
	Update = UpdateNodeAllocatable | UpdateNodeLabel | UpdateNodeTaint | UpdateNodeCondition | UpdatePodLabel | UpdatePodScaleDown
	// All is any action.
	All = Add | Delete | Update
)

var actionNames = []string{"Add", "Delete", "UpdateNodeAllocatable", "UpdateNodeLabel", "UpdateNodeTaint",
	"UpdateNodeCondition", "UpdatePodLabel", "UpdatePodScaleDown"}

func (a ActionType) String() string {
	if a == All {
		return "All"
	}
	var parts []string
	for i, name := range actionNames {
		if a&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, "|")
}

// ClusterEvent is a resource and what happened to it.
type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
}

// Label names the event as Kubernetes' metrics do: "NodeAdd", "AssignedPodDelete".
func (e ClusterEvent) Label() string {
	if e.Resource == WildCard {
		return "UnschedulableTimeout"
	}
	return string(e.Resource) + e.ActionType.String()
}

// Match reports whether a registered event (e) covers an incoming one.
func (e ClusterEvent) Match(incoming ClusterEvent) bool {
	if e.Resource == WildCard || incoming.Resource == WildCard {
		return true
	}
	return e.Resource == incoming.Resource && e.ActionType&incoming.ActionType != 0
}

// The events the scheduler's informers produce.
var (
	EventNodeAdd              = ClusterEvent{Resource: Node, ActionType: Add}
	EventNodeDelete           = ClusterEvent{Resource: Node, ActionType: Delete}
	EventAssignedPodAdd       = ClusterEvent{Resource: AssignedPod, ActionType: Add}
	EventAssignedPodDelete    = ClusterEvent{Resource: AssignedPod, ActionType: Delete}
	EventUnschedulableTimeout = ClusterEvent{Resource: WildCard, ActionType: All}
)
