// Package queue is the scheduling queue (k8s.io/kubernetes/pkg/scheduler/backend/queue): the activeQ
// heap of pods ready to try, the backoffQ of pods that failed recently, the unschedulablePods waiting
// for a cluster event, and the nominator that remembers where preemption made room.
//
// Read next: queue.go's head comment for the life of a pod in the queue; then ../eventhandlers.go
// for which informer events become cluster events.
//
// Promised: Kubernetes' defaults (backoff 1s doubling to 10s, 5 minutes in unschedulablePods),
// priority order with the longest-waiting first among equals, and a deterministic order (arrival as
// the last tie-breaker). Simplified: each wait is a clock timer (Kubernetes polls), and a cluster
// event matches on resource and action only (no queueing hint functions).
package queue
