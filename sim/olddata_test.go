package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/sim"
)

// A step-mode cluster booted again on its own data dir, with the same seed, goes on after the last
// instant the data records (its Leases' renewals), not from the epoch, and hands out generated names
// the first run did not (with the first run's seed it would name the object it already has).
func TestAClusterBootedOnOldDataGoesOnFromWhereItStopped(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := sim.FullCluster(1)
	cfg.Mode, cfg.Seed, cfg.DataDir = sim.StepMode, 7, dir
	generated := func(c *sim.Cluster) string {
		cm, err := client.For[api.ConfigMap](c.Kubectl.Client()).Create(ctx,
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{GenerateName: "note-", Namespace: "default"}})
		require.NoError(t, err)
		return cm.Name
	}

	first, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	firstName := generated(first)
	require.NoError(t, first.Driver.Advance(ctx, 5*time.Minute))
	stopped := first.Now()
	first.Close()

	second, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(second.Close)
	assert.True(t, second.Now().After(stopped.Add(-15*time.Second)),
		"the clock starts near %s, where the first run stopped, not at %s", stopped, second.Now())
	assert.True(t, second.Now().After(sim.Epoch.Add(4*time.Minute)))
	secondName := generated(second)
	assert.NotEqual(t, firstName, secondName)
	_, err = client.For[api.ConfigMap](second.Kubectl.Client()).Get(ctx, "default", firstName)
	assert.NoError(t, err, "the first run's object is still there")
}
