// loop.go: the Loop, one controller's work queue drained by its Reconcile:
//
//	Step(ctx)  reconcile queued keys until one does work, if any is queued (step mode)
//	Run(ctx)   run Workers goroutines that take keys as they come (real time)
//	Errors(f)  adapt a sample-controller syncHandler, func(ctx, key) error, to Reconcile
package workloop

import (
	"context"
	"sync"
	"time"

	"kubesim/client/workqueue"
	"kubesim/trace"
)

// Result is what a successful Reconcile asks of the loop (controller-runtime's reconcile.Result).
type Result struct {
	// RequeueAfter, if positive, brings the key back after this long.
	RequeueAfter time.Duration
	// Idle reports that the reconcile found nothing to do and wrote nothing.
	Idle bool
}

// Errors adapts a reconcile that only reports an error: every key it takes counts as work, and it
// never asks to come back on success.
func Errors(f func(ctx context.Context, key string) error) func(context.Context, string) (Result, error) {
	return func(ctx context.Context, key string) (Result, error) { return Result{}, f(ctx, key) }
}

// Loop drives one controller's work queue.
type Loop struct {
	Queue     *workqueue.Queue[string]
	Reconcile func(ctx context.Context, key string) (Result, error)
	Workers   int // goroutines taking keys in real time (at least one)

	// Component and Actor name the controller and its identity in the retry lines the loop writes
	// to Trace ("replicaset-controller", "system:kube-controller-manager").
	Component string
	Actor     string
	Trace     *trace.Recorder
	// Resource is the plural that names keys in the trace ("deployments"); "" when keys name it
	// already.
	Resource string
	// MaxRetries, if positive, is how many times a failing key is retried before it is dropped until
	// its object changes; DroppedUntil says what brings it back ("the Deployment changes").
	MaxRetries   int
	DroppedUntil string
}

// Step reconciles queued keys until one does work (a reconcile that is not Idle, or one that fails)
// or the queue is empty, and reports whether one did.
func (l *Loop) Step(ctx context.Context) (bool, error) {
	for {
		key, ok := l.Queue.TryGet()
		if !ok {
			return false, nil
		}
		if l.processNextWorkItem(ctx, key) {
			return true, ctx.Err()
		}
	}
}

// Run runs the workers until ctx ends and waits for them to finish the keys they hold. The queue
// goes on (keys added meanwhile wait in it), so Run may be called again: a controller's replica that
// lost its lease stops here and starts again when it leads again (leaderelection.Gated).
func (l *Loop) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range max(l.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.runWorker(ctx)
		}()
	}
	wg.Wait()
}

// runWorker takes keys, waiting for each, until ctx ends or the queue shuts down.
func (l *Loop) runWorker(ctx context.Context) {
	for {
		key, ok := l.Queue.GetContext(ctx)
		if !ok {
			return
		}
		l.processNextWorkItem(ctx, key)
	}
}

// processNextWorkItem reconciles one key taken from the queue and settles what becomes of it. It
// reports whether the reconcile did work.
func (l *Loop) processNextWorkItem(ctx context.Context, key string) bool {
	defer l.Queue.Done(key)
	res, err := l.Reconcile(ctx, key)
	switch {
	case err == nil:
		l.Queue.Forget(key)
		if res.RequeueAfter > 0 {
			l.Queue.AddAfter(key, res.RequeueAfter)
		}
		return !res.Idle
	case l.MaxRetries <= 0 || l.Queue.NumRequeues(key) < l.MaxRetries:
		l.Queue.AddRateLimited(key)
		l.record(key, "reconcile %s failed: %v -> requeued with backoff (retry %d)", key, err, l.Queue.NumRequeues(key))
	default:
		l.Queue.Forget(key)
		l.record(key, "reconcile %s failed %d times: %v -> dropped until %s", key, l.MaxRetries, err, l.DroppedUntil)
	}
	return true
}

// record writes a retry line about key under the controller's name.
func (l *Loop) record(key, format string, args ...any) {
	object := key
	if l.Resource != "" {
		object = l.Resource + "/" + object
	}
	l.Trace.Record(trace.Event{Component: l.Component, Actor: l.Actor, Action: "retry", Object: object}.Msgf(format, args...))
}
