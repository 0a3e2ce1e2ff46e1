// Package workloop is the loop around a controller's Reconcile, written once for every controller of
// kube-controller-manager and for a learner's own. It is client-go's sample-controller loop (Run,
// runWorker, processNextWorkItem) with controller-runtime's Reconcile contract:
//
//	Reconcile(ctx, key) (Result, error)
//
// A key ("namespace/name") names an object, never a change: reconciling is level-based. Reconcile
// reads the object and what it owns from informer caches, compares what is desired with what is,
// and writes the difference through the apiserver. It must be safe to call again for the same key
// at any time, because keys collapse in the queue and come back after errors and resyncs.
//
// A controller with one Loop embeds Component (component.go), which answers the component contract
// (client.Component) from the Loop and the informers that feed it.
//
// Read next: loop.go, then client/workqueue (the queue it drains), then any controller in
// controllers/ (replicaset is the smallest with the full shape) and sample-controller's controller.go.
//
// # What a Loop promises
//
//  1. Step takes queued keys one at a time (step mode: the driver calls it for exactly one unit of
//     work); Run runs Workers goroutines that block for keys (real time). Informers are not the
//     loop's business: whoever runs the controller runs them (client.Component).
//  2. A key is never reconciled by two workers at once (the queue's promise).
//  3. An error requeues the key with the queue's per-key backoff (controllers use
//     workqueue.DefaultControllerRateLimiter: 5 ms doubling up to 1000 s) and tells the trace;
//     success resets the backoff. With MaxRetries, a key that keeps failing is dropped until its
//     object changes again.
//  4. Result.RequeueAfter brings a key back after a delay: periodic work (a health check every 5 s,
//     a garbage-collection pass every 20 s) is a key that requeues itself, as Kubernetes' controllers
//     do with AddAfter.
//  5. Result.Idle says a reconcile found nothing to do and wrote nothing; Step then takes the next
//     key, so a look that changed nothing is never a step of its own.
//
// # What it simplifies
//
// controller-runtime's Request is a NamespacedName and its Result can also ask for an immediate
// requeue; here a key is a string, and an immediate requeue is an error.
package workloop
