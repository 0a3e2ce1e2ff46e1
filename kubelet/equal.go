// equal.go: semantic equality of statuses, so the kubelet writes a status only when it changed.
package kubelet

import "kubesim/api"

// valueHolder lets api.SpecEqual (Kubernetes' equality.Semantic: quantities and times by value, nil
// and empty alike) compare any value: the value sits where a spec would.
type valueHolder[T any] struct {
	api.TypeMeta
	api.ObjectMeta
	Value T
}

// semanticEqual reports whether a and b are equal in Kubernetes' semantic sense.
func semanticEqual[T any](a, b T) bool {
	return api.SpecEqual(&valueHolder[T]{Value: a}, &valueHolder[T]{Value: b})
}

// statusesDiffer reports, from the fields a sync changes most, that two pod statuses are certainly
// not semantically equal; false means "not known": semanticEqual decides. It spares markStatus the
// reflective walk of both statuses after most syncs of a starting pod, whose status did change.
// Every check here is one semanticEqual makes too (strings and numbers by value; a nil and a
// non-nil pointer differ; slices of different lengths differ).
func statusesDiffer(a, b *api.PodStatus) bool {
	if a.Phase != b.Phase || a.PodIP != b.PodIP || len(a.Conditions) != len(b.Conditions) ||
		len(a.ContainerStatuses) != len(b.ContainerStatuses) || len(a.InitContainerStatuses) != len(b.InitContainerStatuses) {
		return true
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason {
			return true
		}
	}
	for i := range a.ContainerStatuses {
		x, y := &a.ContainerStatuses[i], &b.ContainerStatuses[i]
		if x.Name != y.Name || x.Ready != y.Ready || x.RestartCount != y.RestartCount || x.ContainerID != y.ContainerID ||
			(x.State.Running == nil) != (y.State.Running == nil) || (x.State.Waiting == nil) != (y.State.Waiting == nil) ||
			(x.State.Terminated == nil) != (y.State.Terminated == nil) || (x.Started == nil) != (y.Started == nil) ||
			x.Started != nil && *x.Started != *y.Started {
			return true
		}
	}
	return false
}
