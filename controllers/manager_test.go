package controllers_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers"
	"kubesim/sim"
)

// watches counts the watch requests the apiserver has served for a resource
// (apiserver_request_total{verb="watch"}).
func watches(c *sim.Cluster, resource string) int64 {
	var n int64
	for _, r := range c.APIServer.Requests() {
		if r.Verb == "watch" && r.Resource == resource {
			n += r.Count
		}
	}
	return n
}

// A replica shares one informer per resource among its controllers (SharedInformerFactory), so the
// apiserver serves it one pod watch, not one per controller that reads pods.
func TestAReplicaOpensOnePodWatchHoweverManyControllersReadPods(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	m, err := controllers.NewManager(c.Client(controllers.User, controllers.Name), c.Clock, c.Trace, controllers.Name)
	require.NoError(t, err)

	podInformer := client.InformerFor[api.Pod](m.Informers, client.FactoryOptions{})
	readers := 0
	for _, ctrl := range m.Controllers {
		for _, inf := range ctrl.Informers() {
			if inf == client.InformerHandle(podInformer) {
				readers++
			}
		}
	}
	require.GreaterOrEqual(t, readers, 5, "deployment, replicaset, daemonset, garbage-collector, node-lifecycle and pod-gc controllers read pods")

	before := watches(c, "pods")
	for _, comp := range m.Components() {
		require.NoError(t, c.Add(ctx, comp))
	}
	assert.Equal(t, int64(1), watches(c, "pods")-before, "one pod watch for the whole replica")
	assert.Equal(t, int64(1), watches(c, "nodes"), "one node watch for the whole replica")
}

// Two replicas are two processes: each has its own factory, so each opens its own watches.
func TestEachReplicaHasItsOwnFactory(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	for _, name := range []string{controllers.Name, controllers.Name + "-2"} {
		m, err := controllers.NewManager(c.Client(controllers.User, name), c.Clock, c.Trace, name)
		require.NoError(t, err)
		for i, comp := range m.Components() {
			if i > 0 {
				comp = prefixed{comp, name}
			}
			require.NoError(t, c.Add(ctx, comp))
		}
	}
	assert.Equal(t, int64(2), watches(c, "pods"))
}

// prefixed names a second replica's controllers apart in the cluster's registry.
type prefixed struct {
	client.Component
	replica string
}

func (p prefixed) Name() string { return p.replica + "/" + p.Component.Name() }
