// faults.go: the store faults a history runs under: etcd writes slowed by a random few milliseconds,
// on and off, compactions of etcd's history, and members of a multi-member etcd (the leader, too)
// that die and come back.
//
//	InjectFaults    slow writes and compactions until stopped
//	KillMembers     stop a member (every other time the leader), start it again, until stopped
package robustness

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"time"

	"kubesim/store"
)

// InjectFaults slows st's writes by a random few milliseconds, on and off, and calls compact every
// compactEvery, until ctx ends; stop waits for it and tells how many compactions it made. Like
// kube-apiserver's compactor, each compaction goes up to the revision the previous one saw
// (compactEvery ago, not 5 minutes), so that a watch keeping up is never compacted away.
func InjectFaults(ctx context.Context, rnd *rand.Rand, st *store.Store, compact func(context.Context, int64) error, compactEvery time.Duration) (stop func() int) {
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

// MemberLosses is what KillMembers did.
type MemberLosses struct {
	Kills, LeaderKills int
}

// KillMembers loses a member of c, every other time the one that leads, a seeded 50-250 ms after the
// last loss ended; waits for the others (a quorum of 2 of 3) to have a leader, and keeps it down for
// another 50-250 ms while they go on; starts it again and waits for it to catch up. It repeats until
// ctx ends; stop waits for it and tells what it did, or why it could not (no leader within a minute,
// a member that would not start or catch up).
//
// It reads the members' Raft status itself rather than through the Cluster's WaitForLeader, which
// hands the leadership back to the lowest-numbered member: that is a story's need, and a member that
// has just restarted cannot take it.
func KillMembers(ctx context.Context, rnd *rand.Rand, c *store.Cluster) (stop func() (MemberLosses, error)) {
	var losses MemberLosses
	var err error
	done := make(chan struct{})
	pause := func() bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Duration(50+rnd.Intn(200)) * time.Millisecond):
			return true
		}
	}
	go func() {
		defer close(done)
		for pause() {
			var leader store.MemberStatus
			if leader, err = waitForLeader(c); err != nil {
				return
			}
			victim := leader.Name
			if losses.Kills%2 == 1 {
				var followers []string
				for _, m := range c.Members() {
					if m.Name != leader.Name {
						followers = append(followers, m.Name)
					}
				}
				victim = followers[rnd.Intn(len(followers))]
			} else {
				losses.LeaderKills++
			}
			if err = c.Stop(victim); err != nil {
				return
			}
			losses.Kills++
			// The others elect a leader (or keep theirs) and go on without it for a while; it stays
			// down even if ctx ends now, and starts again below.
			if leader, err = waitForLeader(c); err != nil {
				return
			}
			pause()
			if err = c.Start(context.Background(), victim); err != nil {
				err = fmt.Errorf("start %s again: %w", victim, err)
				return
			}
			if err = waitCaughtUp(c, victim, leader.Applied); err != nil {
				return
			}
		}
	}()
	return func() (MemberLosses, error) {
		<-done
		return losses, err
	}
}

// memberWait bounds each of KillMembers' waits.
const memberWait = time.Minute

// waitForLeader waits until a quorum of running members follows one running member that leads.
func waitForLeader(c *store.Cluster) (store.MemberStatus, error) {
	for deadline := time.Now().Add(memberWait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		st := c.Status()
		votes := map[string]int{}
		for _, m := range st {
			if m.Running && m.Leader != "" {
				votes[m.Leader]++
			}
		}
		for _, m := range st {
			if m.Running && m.Leader == m.Name && votes[m.Name] >= c.Quorum() {
				return m, nil
			}
		}
	}
	return store.MemberStatus{}, fmt.Errorf("no etcd leader within %s: %+v", memberWait, c.Status())
}

// waitCaughtUp waits until name has applied the log up to index.
func waitCaughtUp(c *store.Cluster, name string, index uint64) error {
	for deadline := time.Now().Add(memberWait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for _, m := range c.Status() {
			if m.Name == name && m.Applied >= index {
				return nil
			}
		}
	}
	return fmt.Errorf("%s did not catch up with index %d within %s: %+v", name, index, memberWait, c.Status())
}
