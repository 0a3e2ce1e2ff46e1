// AddAfter: the delaying part of the queue (client-go's DelayingInterface).
//
//	AddAfter(item, d)  add item once d has passed on the queue's clock
//
// client-go keeps a heap of waiting items and one goroutine that sleeps until
// the earliest is due. kubesim instead gives each waiting item its own
// clk.AfterFunc timer: on a Virtual clock that makes every waiting item a
// timer the step driver can see (NextDeadline) and jump to, with no extra
// goroutine to keep in step.

package workqueue

import (
	"time"

	"kubesim/clock"
)

// delayedAdd is one item waiting out an AddAfter delay.
type delayedAdd struct {
	readyAt time.Time
	timer   clock.Timer
}

// AddAfter adds item to the queue after d of cluster time. A non-positive d
// adds it now. If item is already waiting, the earlier of the two deadlines
// wins, as in client-go's delaying queue; either way it is added once.
func (q *Queue[T]) AddAfter(item T, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if d <= 0 {
		q.addLocked(item)
		return
	}
	readyAt := q.clock.Now().Add(d)
	if w, ok := q.waiting[item]; ok {
		if !readyAt.Before(w.readyAt) {
			return
		}
		w.timer.Stop()
	}
	w := &delayedAdd{readyAt: readyAt}
	// The callback checks that it still belongs to the current delayedAdd:
	// on a real clock a superseded timer may already be running when we
	// stop it.
	w.timer = q.clock.AfterFunc(d, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.waiting[item] != w {
			return
		}
		delete(q.waiting, item)
		q.addLocked(item)
	})
	q.waiting[item] = w
}

// cancelWaitingLocked stops every AddAfter timer; used by ShutDown.
func (q *Queue[T]) cancelWaitingLocked() {
	for item, w := range q.waiting {
		w.timer.Stop()
		delete(q.waiting, item)
	}
}
