// equal.go: semantic equality of statuses, so the kubelet writes a status only when it changed.
package kubelet

import (
	"slices"

	"kubesim/api"
)

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

// samePodStatus reports whether two pod statuses are equal in every field, as semanticEqual would
// find them (times as instants, nil and empty slices alike, pointers by what they point to), without
// reflection: markStatus asks it after every sync, and at steady state, when a pod's periodic sync
// changed nothing, the reflective walk of both statuses was the sync's largest cost.
// TestSamePodStatusIsSemanticEqual holds it to semanticEqual, field by field.
func samePodStatus(a, b *api.PodStatus) bool {
	if a == b {
		return true
	}
	return a.Phase == b.Phase && a.Message == b.Message && a.Reason == b.Reason && a.NominatedNodeName == b.NominatedNodeName &&
		a.HostIP == b.HostIP && a.PodIP == b.PodIP && a.QOSClass == b.QOSClass &&
		slices.Equal(a.PodIPs, b.PodIPs) && sameTimePtr(a.StartTime, b.StartTime) &&
		slices.EqualFunc(a.Conditions, b.Conditions, samePodCondition) &&
		slices.EqualFunc(a.InitContainerStatuses, b.InitContainerStatuses, sameContainerStatus) &&
		slices.EqualFunc(a.ContainerStatuses, b.ContainerStatuses, sameContainerStatus)
}

func samePodCondition(a, b api.PodCondition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastProbeTime.Equal(b.LastProbeTime.Time) && a.LastTransitionTime.Equal(b.LastTransitionTime.Time)
}

func sameContainerStatus(a, b api.ContainerStatus) bool {
	return a.Name == b.Name && a.Ready == b.Ready && a.RestartCount == b.RestartCount && a.Image == b.Image &&
		a.ImageID == b.ImageID && a.ContainerID == b.ContainerID &&
		(a.Started == nil) == (b.Started == nil) && (a.Started == nil || *a.Started == *b.Started) &&
		sameContainerState(&a.State, &b.State) && sameContainerState(&a.LastTerminationState, &b.LastTerminationState)
}

func sameContainerState(a, b *api.ContainerState) bool {
	if (a.Waiting == nil) != (b.Waiting == nil) || (a.Running == nil) != (b.Running == nil) || (a.Terminated == nil) != (b.Terminated == nil) {
		return false
	}
	if a.Waiting != nil && *a.Waiting != *b.Waiting {
		return false
	}
	if a.Running != nil && !a.Running.StartedAt.Equal(b.Running.StartedAt.Time) {
		return false
	}
	if x, y := a.Terminated, b.Terminated; x != nil {
		return x.ExitCode == y.ExitCode && x.Signal == y.Signal && x.Reason == y.Reason && x.Message == y.Message &&
			x.ContainerID == y.ContainerID && x.StartedAt.Equal(y.StartedAt.Time) && x.FinishedAt.Equal(y.FinishedAt.Time)
	}
	return true
}

func sameTimePtr(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}
