// faults.go: the store faults a history runs under: etcd writes slowed by a random few milliseconds,
// on and off, and compactions of etcd's history. (Members of a multi-member etcd that die and come
// back are memberloss_test.go's, in apiserver: its only user.)
//
//	Store           what InjectFaults slows and reads: kubesim's store.Store
//	InjectFaults    slow writes and compactions until stopped
package robustness

import (
	"context"
	"math/rand"
	"sync"
	"time"
)

// A Store is what InjectFaults slows and reads: kubesim's *store.Store. An interface rather than the
// type, so that this package's own tests do not link etcd's server.
type Store interface {
	SetWriteLatency(time.Duration)
	CurrentRevision(context.Context) (int64, error)
}

// InjectFaults slows st's writes by a random few milliseconds, on and off, and calls compact every
// compactEvery, until ctx ends; stop waits for it and tells how many compactions it made. Like
// kube-apiserver's compactor, each compaction goes up to the revision the previous one saw
// (compactEvery ago, not 5 minutes), so that a watch keeping up is never compacted away.
func InjectFaults(ctx context.Context, rnd *rand.Rand, st Store, compact func(context.Context, int64) error, compactEvery time.Duration) (stop func() int) {
	var wg sync.WaitGroup
	compactions := 0
	var seen int64 // the revision the last compaction saw
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer st.SetWriteLatency(0)
		const every = 5 * time.Millisecond
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if rnd.Intn(2) == 0 {
				st.SetWriteLatency(time.Duration(rnd.Intn(4000)) * time.Microsecond)
			} else {
				st.SetWriteLatency(0)
			}
			if i%int(compactEvery/every) == 0 {
				rev, err := st.CurrentRevision(ctx)
				if err == nil && seen > 0 && compact(ctx, seen) == nil {
					compactions++
				}
				seen = rev
			}
		}
	}()
	return func() int {
		wg.Wait()
		return compactions
	}
}
