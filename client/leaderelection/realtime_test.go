package leaderelection_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/client/leaderelection"
	"kubesim/internal/testenv"
)

func TestLeaderElectionInRealTime(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(50))
	var electors []*leaderelection.LeaderElector
	for _, id := range []string{"cm-1", "cm-2"} {
		e, err := leaderelection.NewLeaderElector(c.Client("system:kube-controller-manager", "kube-controller-manager/"+id), c.Clock, c.Trace,
			leaderelection.Config{Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: id}})
		require.NoError(t, err)
		require.NoError(t, c.Add(ctx, e))
		electors = append(electors, e)
	}
	require.Eventually(t, func() bool { return electors[0].IsLeader() != electors[1].IsLeader() }, 5*time.Second, 5*time.Millisecond,
		"exactly one leads")
	leader, follower := electors[0], electors[1]
	if follower.IsLeader() {
		leader, follower = follower, leader
	}
	c.Partition("kube-controller-manager/" + leader.Name())
	require.Eventually(t, func() bool { return follower.IsLeader() && !leader.IsLeader() }, 5*time.Second, 5*time.Millisecond,
		"the other takes over (15 s of cluster time is 0.3 s here)")
}
