// compaction.go: the apiserver compacts etcd's history on a timer, as kube-apiserver does every
// --etcd-compaction-interval (5 minutes). At each tick it compacts up to the revision it read at the
// tick before, so etcd keeps between one and two intervals of history: enough for a client that
// resumes a watch or a paginated list it started a moment ago, and bounded, where without it etcd
// would keep every version of every object it was ever written (each pod's every status write, each
// Lease's every renewal) in its index and its database.
//
// As in Kubernetes, the watch cache is not told: it keeps its own window, and a watch from a
// resourceVersion older than that window gets 410 Gone from it either way. Unlike Server.Compact
// (a fault a scenario injects), the routine compaction writes no trace event: kube-apiserver logs it
// only at a high verbosity. Kubernetes also writes a compact_rev_key so that several apiservers take
// turns; kubesim has one apiserver, and writing that key would move every resourceVersion after it.
package apiserver

import (
	"context"
	"time"

	"kubesim/clock"
	"kubesim/store"
)

// defaultCompactionInterval is kube-apiserver's --etcd-compaction-interval.
const defaultCompactionInterval = 5 * time.Minute

// scheduleCompaction starts the compaction timer: every interval of the cluster's clock, etcd is
// compacted up to the revision read at the previous tick.
func (s *Server) scheduleCompaction(ctx context.Context, interval time.Duration) {
	var (
		t    clock.Timer
		prev int64 // the revision read at the previous tick, the next compaction's target
	)
	t = s.clock.AfterFunc(interval, func() {
		if ctx.Err() != nil {
			return
		}
		prev = s.compactTo(ctx, prev)
		t.Reset(interval)
	})
	context.AfterFunc(ctx, func() { t.Stop() })
}

// compactTo compacts etcd up to rev (if it is past the start) and returns the current revision, the
// target of the next tick. The watch cache's own etcd watch must not be compacted away (the cache would
// have to list everything again, and every watch would start over), so a cache still behind rev (a process too busy to read etcd for a whole interval) makes the
// tick compact only up to what the cache has read. A revision already compacted (a scenario compacted
// further) or an etcd that does not answer only skips this tick.
func (s *Server) compactTo(ctx context.Context, rev int64) int64 {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	if rev = min(rev, s.cache.revision()); rev > 1 {
		if err := s.store.Compact(ctx, rev); err != nil && !store.IsCompacted(err) {
			return rev
		}
	}
	now, err := s.store.CurrentRevision(ctx)
	if err != nil {
		return rev
	}
	return now
}
