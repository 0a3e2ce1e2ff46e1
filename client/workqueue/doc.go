// Package workqueue is the queue between an informer and the code that
// reconciles. It mirrors k8s.io/client-go/util/workqueue: the plain queue
// (Type, TypedInterface), the delaying queue (AddAfter) and the rate-limiting
// queue (AddRateLimited, Forget, NumRequeues) folded into one Queue[T].
//
// Read next: client-go's util/workqueue/queue.go and doc.go, then
// sample-controller's controller.go, whose processNextWorkItem is the loop
// every kubesim controller, the scheduler and the kubelet run around a Queue.
//
// An informer handler never does work itself; it adds a key ("namespace/name")
// to a Queue. A worker takes a key with Get, reconciles it, then calls Done,
// and on error AddRateLimited (retry with backoff) or on success Forget.
//
// What a Queue promises (client-go's own guarantees):
//
//  1. Fair: items come out in the order they were added (FIFO).
//  2. Stingy: an item added several times before a worker takes it is
//     processed once; the duplicates collapse.
//  3. Exclusive: an item is never processed by two workers at once. An item
//     added while it is being processed is marked dirty and goes back into the
//     queue when the worker calls Done.
//  4. Delays go through the injected clock (AddAfter uses clk.AfterFunc), so
//     on a Virtual clock the step driver sees each waiting item as a timer;
//     when the same item is delayed twice, the earlier deadline wins.
//  5. ShutDown wakes every blocked Get; items already queued are still handed
//     out, then Get reports shutdown. Adds after ShutDown are ignored.
//
// Two ways to take work: Get blocks (real-time mode workers), TryGet never
// does (the step driver calls it to run exactly one unit of work).
//
// What it simplifies:
//
//   - One concrete generic type instead of client-go's stack of interfaces
//     (Interface, DelayingInterface, RateLimitingInterface and their Typed
//     variants); the methods and their meaning are the same.
//   - No metrics provider and no ShutDownWithDrain.
//   - DefaultControllerRateLimiter has only the per-item exponential part of
//     client-go's default, not its overall token bucket (see ratelimiter.go).
package workqueue
