// podutil.go: UpdatePodCondition, how the scheduler writes a pod condition (podutil in Kubernetes):
// the transition time moves only when the status flips, and an identical condition is no change, so
// a pod that keeps failing for the same reason costs no status write.
package framework

import "kubesim/api"

// UpdatePodCondition sets c in status, replacing the condition of the same type. It reports whether
// anything changed.
func UpdatePodCondition(status *api.PodStatus, c api.PodCondition) bool {
	for i, old := range status.Conditions {
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		equal := old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message &&
			old.LastProbeTime.Equal(c.LastProbeTime.Time) && old.LastTransitionTime.Equal(c.LastTransitionTime.Time)
		status.Conditions[i] = c
		return !equal
	}
	status.Conditions = append(status.Conditions, c)
	return true
}
