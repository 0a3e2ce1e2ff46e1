// expectations.go: Expectations, Kubernetes' ControllerExpectations. A controller reads the world
// from its informer's cache, and the cache lags behind its own writes: right after creating three
// pods, the cache may still show none. A controller that trusted it would create three more. So before
// writing, the controller records what it expects to see (ExpectCreations, ExpectDeletions); its
// informer handlers tick the expectations off as the pods show up or go (CreationObserved,
// DeletionObserved); and Reconcile acts only when they are met (SatisfiedExpectations). If they are
// never met (a watch event was lost), they expire after ExpectationsTimeout and the controller acts
// on the cache again.
//
//	NewExpectations(clk) *Expectations
//	ExpectCreations(key, n); ExpectDeletions(key, podKeys)
//	CreationObserved(key); DeletionObserved(key, podKey)
//	SatisfiedExpectations(key) bool; Pending(key) (adds, deletes int); DeleteExpectations(key)
package internal

import (
	"sync"
	"time"

	"kubesim/clock"
)

// ExpectationsTimeout is how long a controller waits for its writes to be observed before it stops
// trusting its expectations (Kubernetes' ExpectationsTimeout, 5 minutes).
const ExpectationsTimeout = 5 * time.Minute

// Expectations remembers, per controller key ("namespace/name"), the pod adds and deletes the
// controller has asked for and not yet seen through its informer. It is safe for concurrent use:
// handlers observe from the informer's goroutine while workers set expectations.
type Expectations struct {
	clock clock.Clock

	mu    sync.Mutex
	items map[string]*expectation // guarded by mu; a key is absent once nothing is expected of it
}

// expectation is what one controller key waits for. Adds are counted (a created pod's name is not
// known in advance with generateName); deletes are tracked by pod key, like Kubernetes'
// UIDTrackingControllerExpectations, so that a pod seen going twice (first its deletionTimestamp,
// then its removal) is counted once.
type expectation struct {
	adds      int
	deletes   map[string]bool
	timestamp time.Time // when the expectations were set; they expire ExpectationsTimeout later
}

// NewExpectations returns an empty set of expectations that times out on clk.
func NewExpectations(clk clock.Clock) *Expectations {
	return &Expectations{clock: clk, items: map[string]*expectation{}}
}

// ExpectCreations records that the controller is about to create n pods for key.
func (e *Expectations) ExpectCreations(key string, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.items[key] = &expectation{adds: n, timestamp: e.clock.Now()}
}

// ExpectDeletions records that the controller is about to delete the pods with these keys.
func (e *Expectations) ExpectDeletions(key string, podKeys []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	dels := make(map[string]bool, len(podKeys))
	for _, k := range podKeys {
		dels[k] = true
	}
	e.items[key] = &expectation{deletes: dels, timestamp: e.clock.Now()}
}

// CreationObserved ticks off one expected add: the informer saw a new pod owned by key, or a create
// the controller attempted did not happen.
func (e *Expectations) CreationObserved(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.items[key]; ok && exp.adds > 0 {
		exp.adds--
	}
}

// DeletionObserved ticks off the expected delete of podKey, if it was expected.
func (e *Expectations) DeletionObserved(key, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.items[key]; ok {
		delete(exp.deletes, podKey)
	}
}

// SatisfiedExpectations reports whether the controller may act on key: it expects nothing, everything
// it expected has been observed, or its expectations have expired.
func (e *Expectations) SatisfiedExpectations(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	exp, ok := e.items[key]
	if !ok {
		return true
	}
	if exp.adds <= 0 && len(exp.deletes) == 0 {
		return true
	}
	return e.clock.Since(exp.timestamp) > ExpectationsTimeout
}

// Pending returns the adds and deletes key still waits for.
func (e *Expectations) Pending(key string) (adds, deletes int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.items[key]; ok {
		return max(exp.adds, 0), len(exp.deletes)
	}
	return 0, 0
}

// DeleteExpectations forgets key (its controller object was deleted).
func (e *Expectations) DeleteExpectations(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.items, key)
}
