// parallelize.go: Until, how a framework spreads per-node work (Filter, Score) over goroutines
// (parallelize.Parallelizer in Kubernetes, 16 goroutines by default; kubesim uses GOMAXPROCS in real
// time and one goroutine in step mode).
package framework

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// Until calls fn(i) for i in [0, n), in increasing order of i, on up to Parallelism goroutines (the
// Parallelizer of Kubernetes), until fn returns false. With parallelism 1 it is a plain loop, which
// keeps step mode deterministic. In parallel, goroutines claim chunks of about sqrt(n) indices (as
// Kubernetes does, so they do not fight over every index); once fn returns false no new chunk is
// claimed, but every chunk claimed is finished. So the indices processed are always a prefix
// [0, k), which is what lets parallel filtering merge its results as if it had run in order. A panic
// in fn is re-raised in the caller, where the scheduling cycle turns it into an error.
func (f *Framework) Until(n int, fn func(i int) bool) {
	workers := min(f.parallelism, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if !fn(i) {
				return
			}
		}
		return
	}
	chunk := max(min(int(math.Sqrt(float64(n))), n/workers+1), 1)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	var panicked atomic.Value
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, fmt.Sprint(r))
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					if !fn(i) {
						stop.Store(true)
					}
				}
			}
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}
