package chaos_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/chaos"
	"kubesim/internal/testenv"
)

// A short chaos soak: faults of every kind, the invariants checked after every unit of work, and
// every Deployment available once the faults stop.
func TestChaosSoakKeepsTheInvariants(t *testing.T) {
	var lines []string
	r, err := chaos.Run(context.Background(), chaos.Config{Seed: 1, Duration: 10 * time.Minute,
		Log: func(s string) { lines = append(lines, s) }})
	require.NoError(t, err)
	t.Log("\n" + r.String())
	assert.Empty(t, r.Violations)
	assert.True(t, r.Converged, "every deployment available after the faults")
	assert.InDelta(t, 60, r.Injected, 3, "a fault every 10s for 10m (a slow write or a hung webhook may carry the clock past one)")
	assert.Len(t, lines, r.Injected)
	assert.Greater(t, r.Rounds, 100)
	assert.Greater(t, r.Checks, r.Rounds)
	assert.Positive(t, r.Degraded, "the faults bite")
}

// The checker catches what it is there to catch: a pod on a node that does not exist, a lost
// Deployment.
func TestInvariantsReportViolations(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Step)
	_, err := c.Kubectl.Apply(ctx, []byte(`apiVersion: v1
kind: Pod
metadata:
  name: stray
spec:
  nodeName: ghost
  containers:
  - name: app
    image: nginx:1.25
`))
	require.NoError(t, err)
	inv := chaos.NewInvariants(c)
	inv.ExpectDeployment("default", "gone")
	require.NoError(t, inv.Check(ctx))
	assert.Equal(t, []string{"pod default/stray is on node ghost, which does not exist", "deployment default/gone was lost"}, inv.Violations)
	assert.Equal(t, 3, inv.Checks)
}
