// Package crashloopbackoff is lab 4: the kubelet's restart delay for a container that keeps crashing
// (CrashLoopBackOff). README.md says what to read and how the grader checks it.
//
// policy.go holds what is given: Kubernetes' numbers, and Policy, which plugs your Delay into every
// kubelet of the grader's cluster. You write Delay in delay.go.
package crashloopbackoff

import (
	"time"

	"kubesim/kubelet"
)

// Kubernetes' restart back-off: the first restart waits Initial, each next one twice the one before,
// never more than Max (pkg/kubelet/kubelet.go: initialBackOff 10s, MaxContainerBackOff 300s).
const (
	Initial = 10 * time.Second
	Max     = 300 * time.Second
)

// Policy is your Delay as the kubelet wants it. A Delay that still answers TODO waits Initial.
func Policy() kubelet.BackOffPolicy {
	return func(previous time.Duration) time.Duration {
		d, err := Delay(previous)
		if err != nil {
			return Initial
		}
		return d
	}
}
