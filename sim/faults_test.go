package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func traceHas(c *sim.Cluster, text string) bool {
	_, ok := sim.FindLine(c.Trace.Events(), "", text)
	return ok
}

// A node whose clock runs two years ahead finds the apiserver's certificate expired: its requests fail
// before they are sent, its Lease goes stale and the node lifecycle controller marks it Unknown.
func TestASkewedNodeClockFailsTLSAndTheNodeGoesUnknown(t *testing.T) {
	ctx := context.Background()
	cfg := sim.FullCluster(2)
	cfg.Seed, cfg.KeepTrace = 1, true
	c, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SkewClock("node-2", 2*365*24*time.Hour))
	require.NoError(t, c.Driver.Advance(ctx, 90*time.Second))
	node, err := sim.Get[api.Node](ctx, c, "", "node-2")
	require.NoError(t, err)
	ready := api.ConditionStatus("")
	for _, cond := range node.Status.Conditions {
		if cond.Type == api.NodeReady {
			ready = cond.Status
		}
	}
	assert.Equal(t, api.ConditionUnknown, ready, "node-2 stopped heartbeating")
	assert.True(t, traceHas(c, "x509: certificate has expired or is not yet valid"), "the kubelet's failures say why")

	require.Error(t, c.SkewClock("node-9", time.Hour), "no such node")
}

// Slow etcd writes show up as cluster time spent in etcd.
func TestSlowEtcdWritesTakeClusterTime(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Seed: 1, KeepTrace: true})
	require.NoError(t, err)
	defer c.Close()
	c.SlowEtcd(200 * time.Millisecond)
	before := c.Now()
	_, err = c.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment))
	require.NoError(t, err)
	assert.Equal(t, 200*time.Millisecond, c.Now().Sub(before))
	assert.True(t, traceHas(c, "(the write waited 200ms in etcd)"))
	c.SlowEtcd(0)
}

// A partitioned component's requests fail with a connection error, not an HTTP status; healing
// restores them.
func TestPartitionCutsOneComponentOnly(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Seed: 1})
	require.NoError(t, err)
	defer c.Close()
	c.Partition("kubectl")
	_, err = c.Kubectl.Get(ctx, "namespaces", "", "default")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection refused")
	other := c.Kubectl.As("someone-else", "system:masters")
	_, err = other.Get(ctx, "namespaces", "", "default")
	assert.Error(t, err, "kubectl's link is cut whoever uses it")
	c.Heal("kubectl")
	_, err = c.Kubectl.Get(ctx, "namespaces", "", "default")
	assert.NoError(t, err)
}
