// expectations.go: Expectations, the ReplicaSet controller's memory of the creates and deletes it
// made and has not yet seen in its cache (ControllerExpectations in pkg/controller). Given: you use it.
//
//	ExpectCreations(key, n), ExpectDeletions(key, n)   before making n creates (deletes)
//	CreationObserved(key), DeletionObserved(key)       the pod informer saw one (the handlers call these)
//	Satisfied(key)                                     everything expected has been seen (or 5 minutes passed)
//	Delete(key)                                        the ReplicaSet is gone
package replicasetexpectations

import (
	"sync"
	"time"

	"kubesim/clock"
)

// ExpectationsTimeout is how long a controller waits for its cache before it stops trusting its
// expectations (pkg/controller: ExpectationsTimeout): a create whose event was lost must not block
// the ReplicaSet forever.
const ExpectationsTimeout = 5 * time.Minute

// Expectations counts, per ReplicaSet key, the pod creates and deletes still to be observed.
type Expectations struct {
	clock clock.Clock
	// mu guards byKey: informer handlers and Reconcile both touch it.
	mu    sync.Mutex
	byKey map[string]*expected
}

type expected struct {
	add, del int
	set      time.Time
}

// NewExpectations returns empty expectations.
func NewExpectations(clk clock.Clock) *Expectations {
	return &Expectations{clock: clk, byKey: map[string]*expected{}}
}

// ExpectCreations records that n pods are about to be created for key.
func (e *Expectations) ExpectCreations(key string, n int) { e.set(key, n, 0) }

// ExpectDeletions records that n pods are about to be deleted for key.
func (e *Expectations) ExpectDeletions(key string, n int) { e.set(key, 0, n) }

func (e *Expectations) set(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byKey[key] = &expected{add: add, del: del, set: e.clock.Now()}
}

// CreationObserved lowers the creates key still waits for by one (also after a failed create, which
// will never be observed).
func (e *Expectations) CreationObserved(key string) { e.lower(key, 1, 0) }

// DeletionObserved lowers the deletes key still waits for by one.
func (e *Expectations) DeletionObserved(key string) { e.lower(key, 0, 1) }

func (e *Expectations) lower(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.byKey[key]; ok {
		x.add, x.del = x.add-add, x.del-del
	}
}

// Satisfied reports whether key's cache can be trusted: nothing is expected, everything expected has
// been observed, or the expectations are older than ExpectationsTimeout.
func (e *Expectations) Satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.byKey[key]
	return !ok || x.add <= 0 && x.del <= 0 || e.clock.Since(x.set) > ExpectationsTimeout
}

// Delete forgets key.
func (e *Expectations) Delete(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byKey, key)
}
