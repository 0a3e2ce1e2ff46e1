// Queue is the work queue: a FIFO of items with a dirty set and a
// processing set, so that duplicates collapse and no item is processed by
// two workers at once.
//
//	New(clk, name, limiter) *Queue[T]
//	Add(item)               mark item as needing work
//	Get() / TryGet()        take the next item (blocking / non-blocking)
//	GetContext(ctx)         Get that gives up when ctx ends
//	Done(item)              finish processing item
//	Len(), ShutDown(), ShuttingDown(), Name()
//
// AddAfter is in delaying.go; AddRateLimited, Forget and NumRequeues are in
// rate_limiting.go.

package workqueue

import (
	"context"
	"sync"

	"kubesim/clock"
)

// Queue is client-go's rate-limited, delaying work queue for items of type
// T (usually a "namespace/name" string key). It is safe for concurrent use.
type Queue[T comparable] struct {
	name    string
	clock   clock.Clock
	limiter RateLimiter[T]

	mu sync.Mutex
	// cond is signalled (with mu held) when queue grows or shuttingDown is
	// set; Get waits on it.
	cond *sync.Cond
	// mu guards everything below. Invariants:
	//   - every item in queue is in dirty and not in processing, and appears
	//     in queue once;
	//   - an item in dirty is either in queue or in processing (in which case
	//     Done will move it back into queue).
	queue        fifo[T]           // items waiting for a worker, oldest first
	dirty        map[T]struct{}    // items that need processing
	processing   map[T]struct{}    // items a worker has taken and not yet Done
	waiting      map[T]*delayedAdd // items scheduled by AddAfter; see delaying.go
	shuttingDown bool
}

// New returns an empty Queue. clk drives AddAfter and AddRateLimited; name
// identifies the queue in logs and traces (client-go uses it for metrics);
// limiter decides retry delays and must not be nil (use
// DefaultControllerRateLimiter when in doubt).
func New[T comparable](clk clock.Clock, name string, limiter RateLimiter[T]) *Queue[T] {
	if limiter == nil {
		panic("workqueue: New needs a RateLimiter")
	}
	q := &Queue[T]{
		name:       name,
		clock:      clk,
		limiter:    limiter,
		dirty:      map[T]struct{}{},
		processing: map[T]struct{}{},
		waiting:    map[T]*delayedAdd{},
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Name returns the name the queue was created with.
func (q *Queue[T]) Name() string { return q.name }

// Add marks item as needing processing. If it is already waiting in the
// queue, nothing changes (it keeps its place); if a worker is processing it,
// it is queued again when that worker calls Done.
func (q *Queue[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(item)
}

func (q *Queue[T]) addLocked(item T) {
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		return
	}
	q.queue.push(item)
	q.cond.Signal()
}

// Get blocks until an item is available and returns it, marking it as being
// processed; the caller must call Done(item) when finished. After ShutDown,
// Get keeps handing out queued items and returns shutdown=true once the
// queue is empty; a worker should then exit.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	item, ok := q.GetContext(context.Background())
	return item, !ok
}

// GetContext is Get for a worker that may stop while the queue goes on: it returns the next item and
// true, or false once ctx has ended (the queue untouched) or the queue is shut down and empty. A
// controller whose replica loses its lease stops its workers this way, and starts them again on the
// same queue when it leads again.
func (q *Queue[T]) GetContext(ctx context.Context) (item T, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queue.len() == 0 && !q.shuttingDown && ctx.Err() == nil {
		// Only a worker about to wait pays for being woken when ctx ends.
		stop := context.AfterFunc(ctx, func() {
			q.mu.Lock()
			q.cond.Broadcast()
			q.mu.Unlock()
		})
		defer stop()
		for q.queue.len() == 0 && !q.shuttingDown && ctx.Err() == nil {
			q.cond.Wait()
		}
	}
	if ctx.Err() != nil || q.queue.len() == 0 {
		return item, false
	}
	return q.popLocked(), true
}

// TryGet is Get without blocking: it returns the next item and true, or
// false if the queue is empty (shutting down or not). The step driver uses
// it to run exactly one unit of work.
func (q *Queue[T]) TryGet() (item T, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queue.len() == 0 {
		return item, false
	}
	return q.popLocked(), true
}

// popLocked moves the oldest queued item from dirty to processing.
func (q *Queue[T]) popLocked() T {
	item := q.queue.pop()
	delete(q.dirty, item)
	q.processing[item] = struct{}{}
	return item
}

// Done marks item as no longer being processed. If it was added again while
// it was being processed, it goes back to the end of the queue now.
func (q *Queue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok {
		q.queue.push(item)
		q.cond.Signal()
	}
}

// Len returns the number of items waiting for a worker. Items being
// processed or waiting out an AddAfter delay are not counted.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queue.len()
}

// fifo is a first-in first-out list that keeps its backing array: popping moves a head index
// instead of reslicing, and a push into a full array first moves the items left to its start, so a
// queue that fills and drains forever (a kubelet's pod keys, resynced every minute) allocates only
// when it grows past its largest size. (Reslicing from the front left no room behind, and every
// push after a drain allocated again: 4% of a 5,000-node envelope's CPU.)
type fifo[T any] struct {
	items []T // items[head:] are queued
	head  int
}

func (f *fifo[T]) len() int { return len(f.items) - f.head }

func (f *fifo[T]) push(item T) {
	if f.head > 0 && len(f.items) == cap(f.items) {
		n := copy(f.items, f.items[f.head:])
		clear(f.items[n:])
		f.items, f.head = f.items[:n], 0
	}
	f.items = append(f.items, item)
}

// pop removes and returns the oldest item; the fifo must not be empty.
func (f *fifo[T]) pop() T {
	var zero T
	item := f.items[f.head]
	f.items[f.head] = zero // let the backing array drop its reference
	f.head++
	if f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	}
	return item
}

// ShutDown makes the queue ignore new items, cancels pending AddAfter
// delays, and wakes every worker blocked in Get.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shuttingDown = true
	q.cancelWaitingLocked()
	q.cond.Broadcast()
}

// ShuttingDown reports whether ShutDown has been called.
func (q *Queue[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}
