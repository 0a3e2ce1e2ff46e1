package apiserver

// A three-member etcd that loses members while clients work, the leader every other time: each
// member is stopped as if its machine died, the other two (a quorum) elect a leader and go on, and
// it comes back and catches up. Requests in flight at a loss may get no usable answer (a 5xx: etcd's
// "leader changed", a request timed out); those may or may not have happened, and porcupine's model
// tries both. Every answered operation must still be linearizable, and every watch stream ordered,
// unique, gap-free and equal to etcd's own history (watch_validation_test.go's validators).

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/require"

	apierrors "kubesim/api/errors"
	"kubesim/internal/testenv/robustness"
	"kubesim/store"
)

// memberLossSeedsEnv sets how many seeded histories TestLinearizabilityWhileEtcdMembersDie plays
// (default 1; each is about 10 s, most of it etcd's members stopping and starting).
const memberLossSeedsEnv = "KUBESIM_MEMBER_LOSS_SEEDS"

// unanswered is an error that leaves a write's outcome unknown: a server error or a timeout.
func unanswered(err error) bool { return apierrors.CodeForError(err) >= 500 }

func TestLinearizabilityWhileEtcdMembersDie(t *testing.T) {
	t.Parallel() // it mostly waits for etcd's elections and timeouts, beside the others that do
	seeds := []int64{1}
	if v := os.Getenv(memberLossSeedsEnv); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, memberLossSeedsEnv)
		for seeds = nil; len(seeds) < n; {
			seeds = append(seeds, int64(len(seeds)+1))
		}
	}
	total, kills, leaderKills := 0, 0, 0
	total = checkHistories(t, seeds, func(t *testing.T, seed int64) []porcupine.Operation {
		s, st := newFaultyServer(t, Config{Seed: seed}, 3)
		faultCtx, stopFaults := context.WithCancel(context.Background())
		stop := killMembers(faultCtx, rand.New(rand.NewSource(seed)), st.Cluster())
		history, err := robustness.Run(robustness.RunConfig{Seed: seed, Clients: 8, OpsPerClient: 150, Budget: 3 * time.Second, Overtime: 20 * time.Second,
			Keys: []string{"a", "b", "c"}}, registerTransport(s, unanswered))
		stopFaults()
		losses, lossErr := stop()
		require.NoError(t, lossErr)
		require.NoError(t, err)
		require.Positive(t, losses.LeaderKills, "the leader must die during the history")
		kills, leaderKills = kills+losses.Kills, leaderKills+losses.LeaderKills
		t.Logf("seed %d: %d members lost during the history, %d of them the leader", seed, losses.Kills, losses.LeaderKills)
		return history
	})
	t.Logf("%d operations checked across %d member losses (%d leaders)", total, kills, leaderKills)
}

func TestWatchStreamsWhileEtcdMembersDie(t *testing.T) {
	t.Parallel() // it mostly waits for etcd's elections and timeouts, beside the others that do
	const seed = 7
	s, st := newFaultyServer(t, Config{Seed: seed, BookmarkInterval: 10 * time.Millisecond}, 3)
	validateWatchesUnder(t, s, st, seed, func(ctx context.Context) func() string {
		stop := killMembers(ctx, rand.New(rand.NewSource(seed)), st.Cluster())
		return func() string {
			losses, err := stop()
			require.NoError(t, err)
			require.Positive(t, losses.LeaderKills, "the leader must die during the churn")
			return fmt.Sprintf("%d etcd members lost during the churn, %d of them the leader", losses.Kills, losses.LeaderKills)
		}
	}, 120, unanswered) // fewer writes than under compactions: each leader lost stalls them for an election
}

// memberLosses is what killMembers did.
type memberLosses struct {
	Kills, LeaderKills int
}

// killMembers loses a member of c, every other time the one that leads, a seeded 50-250 ms after the
// last loss ended; waits for the others (a quorum of 2 of 3) to have a leader, and keeps it down for
// another 50-250 ms while they go on; starts it again and waits for it to catch up. It repeats until
// ctx ends; stop waits for it and tells what it did, or why it could not (no leader within a minute,
// a member that would not start or catch up).
//
// It reads the members' Raft status itself rather than through the Cluster's WaitForLeader, which
// hands the leadership back to the lowest-numbered member: that is a story's need, and a member that
// has just restarted cannot take it.
func killMembers(ctx context.Context, rnd *rand.Rand, c *store.Cluster) (stop func() (memberLosses, error)) {
	var losses memberLosses
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
	return func() (memberLosses, error) {
		<-done
		return losses, err
	}
}

// memberWait bounds each of killMembers' waits.
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
