package replicaset

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// In real time a batch's calls run at once: the batch of 4 (after 1 and 2) only completes when all
// four are inside fn together, which calls in order never are. In step mode they run one by one.
func TestSlowStartBatchRunsABatchAtOnceInRealTime(t *testing.T) {
	var (
		mu       sync.Mutex
		inside   int
		most     int
		released = make(chan struct{})
		calls    atomic.Int32
	)
	fn := func() error {
		n := calls.Add(1)
		mu.Lock()
		inside++
		most = max(most, inside)
		if inside == 4 {
			close(released)
		}
		mu.Unlock()
		if n > 3 { // the batch of 4: wait for the others, or give up
			select {
			case <-released:
			case <-time.After(10 * time.Second):
			}
		}
		mu.Lock()
		inside--
		mu.Unlock()
		return nil
	}
	created, err := slowStartBatch(7, 1, true, fn)
	assert.NoError(t, err)
	assert.Equal(t, 7, created)
	assert.Equal(t, 4, most, "the batch of 4 ran at once")

	calls.Store(0)
	order := []int32{}
	created, err = slowStartBatch(7, 1, false, func() error {
		order = append(order, calls.Add(1))
		return nil
	})
	assert.NoError(t, err)
	assert.Equal(t, 7, created)
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6, 7}, order, "in step mode, one after another")
}

// A failure in a batch stops the next batches, in parallel as in order: the batch it failed in
// still finishes its other calls.
func TestSlowStartBatchStopsAfterAFailedBatch(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		var calls atomic.Int32
		refused := errors.New("exceeded quota")
		created, err := slowStartBatch(100, 1, parallel, func() error {
			if calls.Add(1) == 2 { // in the batch of 2
				return refused
			}
			return nil
		})
		assert.ErrorIs(t, err, refused)
		assert.Equal(t, 2, created, "parallel %t: the first batch and one call of the second", parallel)
		assert.Equal(t, int32(3), calls.Load(), "parallel %t: no call after the failed batch", parallel)
	}
}
