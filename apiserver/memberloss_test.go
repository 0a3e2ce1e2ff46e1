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
		stop := robustness.KillMembers(faultCtx, rand.New(rand.NewSource(seed)), st.Cluster())
		history, err := robustness.Run(robustness.RunConfig{Seed: seed, Clients: 8, OpsPerClient: 150, Budget: 3 * time.Second,
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
		stop := robustness.KillMembers(ctx, rand.New(rand.NewSource(seed)), st.Cluster())
		return func() string {
			losses, err := stop()
			require.NoError(t, err)
			require.Positive(t, losses.LeaderKills, "the leader must die during the churn")
			return fmt.Sprintf("%d etcd members lost during the churn, %d of them the leader", losses.Kills, losses.LeaderKills)
		}
	}, 120, unanswered) // fewer writes than under compactions: each leader lost stalls them for an election
}
