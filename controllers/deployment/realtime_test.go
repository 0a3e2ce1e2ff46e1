package deployment_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/deployment"
	"kubesim/controllers/internal"
	"kubesim/controllers/replicaset"
	"kubesim/sim"
)

// In real time both controllers run their informers and five workers each on goroutines; the rollout
// still converges to exactly 3 pods.
func TestControllersRollOutInRealTime(t *testing.T) {
	ctx := context.Background()
	sc, err := sim.New(ctx, sim.Config{Mode: sim.RealTime, Speed: 1, Seed: 1})
	require.NoError(t, err)
	t.Cleanup(sc.Close)
	rsClient := sc.Client(internal.User, replicaset.Name)
	require.NoError(t, sc.Add(ctx, replicaset.New(rsClient, client.NewInformerFactory(rsClient, sc.Clock, sc.Trace), sc.Clock, sc.Trace,
		client.NewEventRecorder(rsClient, replicaset.Name, "", sc.Clock, sc.Trace))))
	dClient := sc.Client(internal.User, deployment.Name)
	require.NoError(t, sc.Add(ctx, deployment.New(dClient, client.NewInformerFactory(dClient, sc.Clock, sc.Trace), sc.Clock, sc.Trace,
		client.NewEventRecorder(dClient, deployment.Name, "", sc.Clock, sc.Trace))))
	c := &cluster{Cluster: sc, t: t, ctx: ctx, admin: sc.Kubectl.Client()}

	c.applyNginx()
	require.Eventually(t, func() bool { return len(c.pods()) == 3 }, 10*time.Second, 5*time.Millisecond)
	c.kubelet()
	require.Eventually(t, func() bool { return c.rolledOut("nginx") }, 10*time.Second, 5*time.Millisecond)
	require.Len(t, c.pods(), 3)
	d := c.deployment("nginx")
	require.Equal(t, api.ConditionTrue, condition(d, api.DeploymentAvailable).Status)
}
