// prioritysort.go: the PrioritySort plugin, the default QueueSort: higher spec.priority first, and
// among equal priorities the pod that has waited longest in the queue.
package plugins

import "kubesim/scheduler/framework"

// PrioritySortName is the plugin's name.
const PrioritySortName = "PrioritySort"

// PrioritySort orders the activeQ.
type PrioritySort struct{}

var _ framework.QueueSortPlugin = PrioritySort{}

// NewPrioritySort is the plugin's factory.
func NewPrioritySort(framework.Handle) (framework.Plugin, error) { return PrioritySort{}, nil }

// Name returns PrioritySortName.
func (PrioritySort) Name() string { return PrioritySortName }

// Less reports whether a should be scheduled before b.
func (PrioritySort) Less(a, b *framework.QueuedPodInfo) bool {
	pa, pb := framework.PodPriority(a.Pod), framework.PodPriority(b.Pod)
	return pa > pb || pa == pb && a.Timestamp.Before(b.Timestamp)
}
