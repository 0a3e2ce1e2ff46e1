package leaderelection_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/client"
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

// work is a component that counts how often its Run started and whether it is running.
type work struct{ starts, running atomic.Int32 }

func (w *work) Name() string                           { return "work" }
func (w *work) Informers() []client.InformerHandle     { return nil }
func (w *work) Step(ctx context.Context) (bool, error) { return false, nil }
func (w *work) Run(ctx context.Context) {
	w.starts.Add(1)
	w.running.Add(1)
	defer w.running.Add(-1)
	<-ctx.Done()
}

// A replica that cannot renew its lease stops its work, and starts it again when it leads again (in
// Kubernetes its process exits and the restarted one campaigns): the work must not stay stopped
// while the same replica leads.
func TestGatedWorkResumesWhenTheReplicaLeadsAgain(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.RealTime(50))
	e, err := leaderelection.NewLeaderElector(c.Client("system:kube-controller-manager", "kube-controller-manager/cm-1"), c.Clock, c.Trace,
		leaderelection.Config{Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: "cm-1"}})
	require.NoError(t, err)
	require.NoError(t, c.Add(ctx, e))
	w := &work{}
	require.NoError(t, c.Add(ctx, leaderelection.Gated(e, w)))
	require.Eventually(t, func() bool { return e.IsLeader() && w.running.Load() == 1 }, 5*time.Second, 5*time.Millisecond,
		"the work runs while the replica leads")

	c.Partition("kube-controller-manager/cm-1")
	require.Eventually(t, func() bool { return !e.IsLeader() && w.running.Load() == 0 }, 5*time.Second, 5*time.Millisecond,
		"no renewal for renewDeadline (10 s of cluster time): the replica stops leading and its work stops")
	assert.Contains(t, e.LastFailure(), "error retrieving resource lock kube-system/kube-controller-manager: get leases: dial kube-apiserver: connection refused", "why it stopped")
	c.Heal("kube-controller-manager/cm-1")
	require.Eventually(t, func() bool { return e.IsLeader() && w.running.Load() == 1 }, 5*time.Second, 5*time.Millisecond,
		"leading again, the replica works again")
	require.Equal(t, int32(2), w.starts.Load())
	assert.Empty(t, e.LastFailure(), "a success clears it")
}
