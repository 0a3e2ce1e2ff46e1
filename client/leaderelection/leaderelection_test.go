package leaderelection_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/client/leaderelection"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

// candidate is one kube-controller-manager replica: an elector and what its callbacks saw.
type candidate struct {
	e       *leaderelection.LeaderElector
	agent   string
	started []time.Time
	stopped []time.Time
	leaders []string
}

func newCluster(t *testing.T) (*sim.Cluster, context.Context) {
	t.Helper()
	return testenv.Cluster(t, testenv.Step)
}

func addCandidate(t *testing.T, ctx context.Context, c *sim.Cluster, id string) *candidate {
	t.Helper()
	cand := &candidate{agent: "kube-controller-manager/" + id}
	cl := c.Client("system:kube-controller-manager", cand.agent)
	e, err := leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{
		Lock: leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: id},
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(context.Context) { cand.started = append(cand.started, c.Now()) },
			OnStoppedLeading: func() { cand.stopped = append(cand.stopped, c.Now()) },
			OnNewLeader:      func(id string) { cand.leaders = append(cand.leaders, id) },
		},
	})
	require.NoError(t, err)
	cand.e = e
	require.NoError(t, c.Add(ctx, e))
	return cand
}

func lease(t *testing.T, ctx context.Context, c *sim.Cluster) *api.Lease {
	t.Helper()
	l, err := client.For[api.Lease](c.Kubectl.Client()).Get(ctx, "kube-system", "kube-controller-manager")
	require.NoError(t, err)
	return l
}

func leads(cand *candidate) func() (bool, error) {
	return func() (bool, error) { return cand.e.IsLeader(), nil }
}

func TestTheFirstCandidateAcquiresTheLeaseAndTheOtherFollows(t *testing.T) {
	c, ctx := newCluster(t)
	cm1 := addCandidate(t, ctx, c, "cm-1")
	cm2 := addCandidate(t, ctx, c, "cm-2")
	require.NoError(t, c.Driver.RunUntil(ctx, "cm-1 leads", leads(cm1), 10))
	require.NoError(t, c.Driver.Advance(ctx, 30*time.Second))

	assert.True(t, cm1.e.IsLeader())
	assert.False(t, cm2.e.IsLeader(), "the lease is renewed, so it never expires for cm-2")
	assert.Equal(t, []string{"cm-1"}, cm2.leaders)

	l := lease(t, ctx, c)
	assert.Equal(t, "cm-1", *l.Spec.HolderIdentity)
	assert.Equal(t, int32(15), *l.Spec.LeaseDurationSeconds)
	assert.Equal(t, int32(0), *l.Spec.LeaseTransitions)
	assert.Equal(t, sim.Epoch, l.Spec.AcquireTime.Time)
	assert.True(t, l.Spec.RenewTime.After(sim.Epoch.Add(25*time.Second)), "renewed every retryPeriod, last at %s", l.Spec.RenewTime)
}

// cm1Leads starts candidates cm-1 and cm-2 and lets 10 s pass, in which cm-1 wins and renews; it
// returns the cluster, both candidates and the time of cm-1's last renewal.
func cm1Leads(t *testing.T) (*sim.Cluster, context.Context, *candidate, *candidate, time.Time) {
	t.Helper()
	c, ctx := newCluster(t)
	cm1 := addCandidate(t, ctx, c, "cm-1")
	cm2 := addCandidate(t, ctx, c, "cm-2")
	require.NoError(t, c.Driver.Advance(ctx, 10*time.Second))
	require.True(t, cm1.e.IsLeader())
	return c, ctx, cm1, cm2, lease(t, ctx, c).Spec.RenewTime.Time
}

func TestAnotherCandidateTakesOverOnceTheDeadLeadersLeaseExpires(t *testing.T) {
	c, ctx, _, cm2, lastRenew := cm1Leads(t)

	require.NoError(t, c.Stop("cm-1")) // the process dies: no more renewals
	require.NoError(t, c.Driver.RunUntil(ctx, "cm-2 leads", leads(cm2), 100))

	require.Len(t, cm2.started, 1)
	waited := cm2.started[0].Sub(lastRenew)
	assert.GreaterOrEqual(t, waited, 15*time.Second, "not before leaseDuration")
	assert.LessOrEqual(t, waited, 15*time.Second+2*leaderelection.DefaultRetryPeriod, "within a retry or two after it")

	l := lease(t, ctx, c)
	assert.Equal(t, "cm-2", *l.Spec.HolderIdentity)
	assert.Equal(t, int32(1), *l.Spec.LeaseTransitions)
	assert.Equal(t, cm2.started[0], l.Spec.AcquireTime.Time)
	assert.Equal(t, []string{"cm-1", "cm-2"}, cm2.leaders)
	assert.Contains(t, messages(c), "new leader: cm-2")
}

func TestAPartitionedLeaderStopsWithinRenewDeadlineBeforeAnotherStarts(t *testing.T) {
	c, ctx, cm1, cm2, lastRenew := cm1Leads(t)

	c.Partition(cm1.agent) // cm-1 runs on, but cannot reach the apiserver
	require.NoError(t, c.Driver.RunUntil(ctx, "cm-2 leads", leads(cm2), 100))

	require.Len(t, cm1.stopped, 1, "the old leader gave up")
	require.Len(t, cm2.started, 1)
	assert.LessOrEqual(t, cm1.stopped[0].Sub(lastRenew), leaderelection.DefaultRenewDeadline)
	assert.True(t, cm1.stopped[0].Before(cm2.started[0]), "no moment with two leaders: cm-1 stopped at %s, cm-2 started at %s",
		cm1.stopped[0].Sub(sim.Epoch), cm2.started[0].Sub(sim.Epoch))
	assert.Contains(t, messages(c), "failed to renew lease kube-system/kube-controller-manager: context deadline exceeded "+
		"(last renewed 10s ago, renewDeadline 10s): cm-1 stops leading")

	// Healed, cm-1 finds cm-2 renewing and stays a follower.
	c.Heal(cm1.agent)
	require.NoError(t, c.Driver.Advance(ctx, 30*time.Second))
	assert.False(t, cm1.e.IsLeader())
	assert.True(t, cm2.e.IsLeader())
	assert.Equal(t, "cm-2", cm1.e.GetLeader())
}

func TestGatedComponentWorksOnlyWhileLeading(t *testing.T) {
	c, ctx := newCluster(t)
	cm1 := addCandidate(t, ctx, c, "cm-1")
	w := &counter{}
	g := leaderelection.Gated(cm1.e, w)
	assert.Equal(t, "counter", g.Name())

	did, err := g.Step(ctx)
	require.NoError(t, err)
	assert.False(t, did, "not leading yet: no work")
	require.NoError(t, c.Driver.RunUntil(ctx, "cm-1 leads", leads(cm1), 10))
	did, err = g.Step(ctx)
	require.NoError(t, err)
	assert.True(t, did)
	assert.Equal(t, 1, w.steps)
}

func TestNewLeaderElectorRejectsUnsafeDurations(t *testing.T) {
	c, _ := newCluster(t)
	cl := c.Client("system:kube-controller-manager", "kube-controller-manager")
	lock := leaderelection.LeaseLock{Namespace: "kube-system", Name: "kube-controller-manager", Identity: "cm-1"}
	_, err := leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{Lock: lock, LeaseDuration: 10 * time.Second})
	assert.EqualError(t, err, "leaseDuration must be greater than renewDeadline")
	_, err = leaderelection.NewLeaderElector(cl, c.Clock, c.Trace, leaderelection.Config{Lock: lock, RetryPeriod: 10 * time.Second})
	assert.EqualError(t, err, "renewDeadline must be greater than retryPeriod")
}

// counter is a component that always has work.
type counter struct{ steps int }

func (w *counter) Name() string                       { return "counter" }
func (w *counter) Informers() []client.InformerHandle { return nil }
func (w *counter) Run(context.Context)                {}
func (w *counter) Step(context.Context) (bool, error) {
	w.steps++
	return true, nil
}

func messages(c *sim.Cluster) []string {
	var out []string
	for _, e := range c.Trace.Events() {
		out = append(out, e.Message)
	}
	return out
}
