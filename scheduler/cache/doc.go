// Package cache is the scheduler's cache (k8s.io/kubernetes/pkg/scheduler/backend/cache): the
// NodeInfo of every node, built from the informers' nodes and bound pods, plus the pods the scheduler
// has assumed onto a node while their binding is on its way.
//
// Read next: cache.go's head comment (assume, confirm, forget), then ../framework/nodeinfo.go.
//
// Promised: a scheduling cycle's snapshot never changes under it, and refreshing it costs only the
// nodes that changed. Simplified: assumed pods never expire (Kubernetes' default too).
package cache
