// loop.go: the loop around a controller's Reconcile, written once (client-go sample-controller's Run,
// runWorker and processNextWorkItem):
//
//	Step(ctx)  take one key if one is queued, reconcile it (step mode)
//	Run(ctx)   run the informers and Workers goroutines that take keys as they come (real time)
//
// A failed reconcile goes back into the queue with per-key exponential backoff; a success resets the
// key's backoff. With MaxRetries set, a key that keeps failing is dropped until its object changes.
package internal

import (
	"context"
	"sync"

	"kubesim/client"
	"kubesim/client/workqueue"
)

// Loop drives one controller's work queue.
type Loop struct {
	Queue     *workqueue.Queue[string]
	Reconcile func(ctx context.Context, key string) error
	Informers func() []client.InformerHandle
	Workers   int    // goroutines taking keys in real time
	Tracer    Tracer // where retries are told
	Resource  string // the plural that names keys in the trace ("deployments"); "" when keys name it already
	// MaxRetries, if positive, is how many times a failing key is retried before it is dropped until
	// its object changes; DroppedUntil says what brings it back ("the Deployment changes").
	MaxRetries   int
	DroppedUntil string
}

// Step reconciles one queued key, if any is queued.
func (l *Loop) Step(ctx context.Context) (bool, error) {
	return l.processNextWorkItem(ctx, false), nil
}

// Run runs the informers and the workers until ctx ends.
func (l *Loop) Run(ctx context.Context) {
	for _, inf := range l.Informers() {
		go inf.Run(ctx)
	}
	var wg sync.WaitGroup
	for range max(l.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l.processNextWorkItem(ctx, true) {
			}
		}()
	}
	<-ctx.Done()
	l.Queue.ShutDown()
	wg.Wait()
}

// processNextWorkItem takes one key (waiting for one if blocking) and reconciles it. It returns false
// when there was no key (or the queue is shutting down).
func (l *Loop) processNextWorkItem(ctx context.Context, blocking bool) bool {
	var key string
	if blocking {
		k, shutdown := l.Queue.Get()
		if shutdown {
			return false
		}
		key = k
	} else {
		k, ok := l.Queue.TryGet()
		if !ok {
			return false
		}
		key = k
	}
	defer l.Queue.Done(key)
	err := l.Reconcile(ctx, key)
	object := key
	if l.Resource != "" {
		object = l.Resource + "/" + key
	}
	switch {
	case err == nil:
		l.Queue.Forget(key)
	case l.MaxRetries <= 0 || l.Queue.NumRequeues(key) < l.MaxRetries:
		l.Queue.AddRateLimited(key)
		l.Tracer.Record("retry", object, "", "reconcile %s failed: %v -> requeued with backoff (retry %d)",
			key, err, l.Queue.NumRequeues(key))
	default:
		l.Queue.Forget(key)
		l.Tracer.Record("retry", object, "", "reconcile %s failed %d times: %v -> dropped until %s",
			key, l.MaxRetries, err, l.DroppedUntil)
	}
	return true
}
