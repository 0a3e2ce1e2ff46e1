// garbagecollector.go: the GarbageCollector component and what its informers enqueue.
//
//	New(c, informers, clk, tr) *GarbageCollector
//	Name, Informers, Step, Run     the component contract, from workloop.Component
//	Reconcile(ctx, key)            in reconcile.go
//
// Handlers never write; they decide which objects need a look and queue them by path
// ("replicasets/default/nginx-6d4cf56db6"):
//
//   - an object whose owner is missing from the cache (perhaps deleted, perhaps not seen yet);
//   - an owner being deleted with the orphan or foregroundDeletion finalizer, and, in the
//     foreground case, every one of its dependents;
//   - when an object disappears: its dependents (their owner may be gone for good) and any owner of
//     it that waits in the foreground for its dependents to go.
package garbagecollector

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/client/workqueue"
	"kubesim/clock"
	"kubesim/controllers/internal"
	"kubesim/controllers/workloop"
	"kubesim/trace"
)

// Name is how Kubernetes names the controller (--controllers=garbage-collector).
const Name = "garbage-collector"

// Identity is the user the controller manager authenticates as.
const Identity = internal.User

// The finalizers the apiserver adds for the non-default propagation policies (metav1).
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// GarbageCollector deletes objects whose owners are gone.
type GarbageCollector struct {
	workloop.Component
	client *client.Client
	clock  clock.Clock
	tracer internal.Tracer
	// kinds are the watched resources, owners before dependents, so that in step mode an owner is
	// in its cache before any handler looks for it.
	kinds []kind
	queue *workqueue.Queue[string]
}

// New builds the collector on informers from the shared factory. c must act as
// system:kube-controller-manager.
func New(c *client.Client, informers *client.InformerFactory, clk clock.Clock, tr *trace.Recorder) *GarbageCollector {
	gc := &GarbageCollector{client: c, clock: clk, tracer: internal.Tracer{Component: Name, Recorder: tr},
		queue: workqueue.New(clk, Name, workqueue.DefaultControllerRateLimiter[string]())}
	gc.kinds = []kind{
		watch[api.Deployment](gc, informers),
		watch[api.DaemonSet](gc, informers),
		watch[api.ReplicaSet](gc, informers),
		watch[api.Pod](gc, informers),
	}
	// The collector's informers, owners first.
	handles := make([]client.InformerHandle, 0, len(gc.kinds))
	for _, k := range gc.kinds {
		handles = append(handles, k.handle())
	}
	gc.Component = workloop.NewComponent(&workloop.Loop{Queue: gc.queue, Reconcile: workloop.Errors(gc.Reconcile), Workers: 1,
		Component: Name, Actor: Identity, Trace: tr}, handles...)
	return gc
}

// onChange queues an object that may need the collector: a missing owner, or a deletion in progress
// that the collector must finish.
func (gc *GarbageCollector) onChange(obj api.Object) {
	m := obj.GetObjectMeta()
	if m.DeletionTimestamp != nil {
		if m.HasFinalizer(FinalizerOrphanDependents) {
			gc.queue.Add(objectPath(obj))
		}
		if m.HasFinalizer(FinalizerDeleteDependents) {
			gc.queue.Add(objectPath(obj))
			for _, dep := range gc.dependents(m.UID) {
				gc.queue.Add(objectPath(dep))
			}
		}
		return
	}
	for _, ref := range m.OwnerReferences {
		if owner := gc.lookup(ref, m.Namespace); owner == nil || waitingForDependents(owner) {
			gc.queue.Add(objectPath(obj))
			return
		}
	}
}

// onDelete queues the dependents of an object that is gone, and its owners that wait for it.
func (gc *GarbageCollector) onDelete(obj api.Object) {
	m := obj.GetObjectMeta()
	deps := gc.dependents(m.UID)
	if len(deps) > 0 {
		gc.tracer.Record("watch", objectPath(obj), m.ResourceVersion,
			"%s is gone: check its dependents %v", objectPath(obj), paths(deps))
	}
	for _, dep := range deps {
		gc.queue.Add(objectPath(dep))
	}
	for _, ref := range m.OwnerReferences {
		if owner := gc.lookup(ref, m.Namespace); owner != nil && waitingForDependents(owner) {
			gc.queue.Add(objectPath(owner))
		}
	}
}

// waitingForDependents reports whether obj is being deleted in the foreground.
func waitingForDependents(obj api.Object) bool {
	m := obj.GetObjectMeta()
	return m.DeletionTimestamp != nil && m.HasFinalizer(FinalizerDeleteDependents)
}
