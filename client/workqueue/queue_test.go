package workqueue

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/clock"
)

var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func newTestQueue() (*Queue[string], *clock.Virtual) {
	clk := clock.NewVirtual(epoch)
	return New(clk, "test", DefaultControllerRateLimiter[string]()), clk
}

// drain takes every queued item with TryGet, calling Done on each.
func drain(q *Queue[string]) []string {
	var got []string
	for {
		item, ok := q.TryGet()
		if !ok {
			return got
		}
		got = append(got, item)
		q.Done(item)
	}
}

func TestQueueIsFIFO(t *testing.T) {
	q, _ := newTestQueue()
	for _, key := range []string{"default/c", "default/a", "default/b"} {
		q.Add(key)
	}
	assert.Equal(t, []string{"default/c", "default/a", "default/b"}, drain(q))
}

func TestQueueCollapsesDuplicatesWhileWaiting(t *testing.T) {
	q, _ := newTestQueue()
	q.Add("a")
	q.Add("b")
	q.Add("a") // keeps its original place
	q.Add("a")
	assert.Equal(t, 2, q.Len())
	assert.Equal(t, []string{"a", "b"}, drain(q))
}

func TestQueueRequeuesItemAddedDuringProcessingOnDone(t *testing.T) {
	q, _ := newTestQueue()
	q.Add("a")
	item, ok := q.TryGet()
	require.True(t, ok)

	q.Add("a") // the object changed while a worker reconciles it
	assert.Zero(t, q.Len(), "not handed to a second worker while processing")
	_, ok = q.TryGet()
	assert.False(t, ok)

	q.Done(item)
	assert.Equal(t, 1, q.Len(), "requeued once the first worker is done")
	assert.Equal(t, []string{"a"}, drain(q))
}

func TestQueueDoneWithoutReAddDoesNotRequeue(t *testing.T) {
	q, _ := newTestQueue()
	q.Add("a")
	item, _ := q.TryGet()
	q.Done(item)
	assert.Zero(t, q.Len())
}

func TestQueueNeverProcessesOneItemConcurrently(t *testing.T) {
	q, _ := newTestQueue()
	const keys, workers, adds = 5, 8, 2000

	var inFlight [keys]atomic.Int32
	var overlaps, processed atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				var k int
				fmt.Sscanf(item, "key-%d", &k)
				if inFlight[k].Add(1) > 1 {
					overlaps.Add(1)
				}
				processed.Add(1)
				runtime.Gosched() // widen the window in which a second worker could take k
				inFlight[k].Add(-1)
				q.Done(item)
			}
		})
	}
	var producers sync.WaitGroup
	for p := range 4 {
		producers.Go(func() {
			for i := range adds {
				q.Add(fmt.Sprintf("key-%d", (i+p)%keys))
			}
		})
	}
	producers.Wait()
	q.ShutDown()
	wg.Wait()

	assert.Zero(t, overlaps.Load(), "an item was processed by two workers at once")
	assert.Positive(t, processed.Load())
	assert.LessOrEqual(t, processed.Load(), int32(4*adds), "duplicates collapse, never multiply")
}

func TestQueueShutDownUnblocksGet(t *testing.T) {
	q, _ := newTestQueue()
	result := make(chan bool)
	go func() {
		_, shutdown := q.Get()
		result <- shutdown
	}()
	q.ShutDown()
	assert.True(t, <-result)
	assert.True(t, q.ShuttingDown())
}

// A worker waiting in GetContext stops when its context ends and leaves the queue as it was: what is
// added afterwards waits for the next worker (a controller that leads again), and a queued item is
// not handed to a worker whose context has ended.
func TestGetContextStopsTheWorkerNotTheQueue(t *testing.T) {
	q, _ := newTestQueue()
	ctx, cancel := context.WithCancel(t.Context())
	result := make(chan bool)
	go func() {
		_, ok := q.GetContext(ctx)
		result <- ok
	}()
	select {
	case <-result:
		t.Fatal("GetContext returned before its context ended, with an empty queue")
	case <-time.After(20 * time.Millisecond):
	}
	cancel()
	assert.False(t, <-result, "the worker stops")
	assert.False(t, q.ShuttingDown())

	q.Add("a")
	_, ok := q.GetContext(ctx)
	assert.False(t, ok, "an ended worker takes nothing")
	item, ok := q.GetContext(t.Context())
	assert.True(t, ok)
	assert.Equal(t, "a", item, "the next worker finds it")
	q.Done(item)

	q.ShutDown()
	_, ok = q.GetContext(t.Context())
	assert.False(t, ok, "a shut-down, empty queue stops the worker too")
}

func TestQueueShutDownHandsOutQueuedItemsThenIgnoresAdds(t *testing.T) {
	q, _ := newTestQueue()
	q.Add("a")
	q.ShutDown()
	q.Add("b")

	item, shutdown := q.Get()
	assert.False(t, shutdown)
	assert.Equal(t, "a", item)
	q.Done(item)

	_, shutdown = q.Get()
	assert.True(t, shutdown)
}

func BenchmarkQueueAddGetDone(b *testing.B) {
	q := New(clock.Real{}, "bench", DefaultControllerRateLimiter[int]())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.Add(i % 1024)
		item, _ := q.Get()
		q.Done(item)
	}
}

func BenchmarkQueueAddGetDoneParallel(b *testing.B) {
	q := New(clock.Real{}, "bench", DefaultControllerRateLimiter[int]())
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			q.Add(int(next.Add(1) % 1024))
			if item, ok := q.TryGet(); ok {
				q.Done(item)
			}
		}
	})
}

// The fifo under the queue keeps order through every fill, partial drain and refill (a push into a
// full array moves the queued items to its start), and once it has held its largest size a queue
// that fills and drains allocates nothing.
func TestFifoKeepsOrderAndItsArray(t *testing.T) {
	var f fifo[int]
	var want []int
	next := 0
	push := func(n int) {
		for range n {
			f.push(next)
			want = append(want, next)
			next++
		}
	}
	pop := func(n int) {
		for range n {
			require.Equal(t, want[0], f.pop())
			want = want[1:]
		}
		require.Equal(t, len(want), f.len())
	}
	push(4)
	pop(3)
	push(7) // the array is full with the head at 3: the one left moves to the start
	pop(5)
	push(2)
	pop(f.len())
	assert.Zero(t, f.head, "a drained fifo starts again at the front of its array")

	size := cap(f.items)
	allocs := testing.AllocsPerRun(100, func() {
		for i := range size {
			f.push(i)
		}
		for f.len() > 0 {
			f.pop()
		}
	})
	assert.Zero(t, allocs, "filling and draining within the array's size allocates nothing")
}
