// testenv.go: a simulated cluster for one test, and a controller's dependencies in it.
package testenv

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/client"
	"kubesim/clock"
	"kubesim/controllers"
	"kubesim/sim"
	"kubesim/trace"
)

// Step is the cluster most component tests read: step mode, seed 1, every trace event kept, and
// nothing running but etcd, the apiserver and what the test adds.
var Step = sim.Config{Mode: sim.StepMode, Seed: 1, KeepTrace: true}

// RealTime is a real-time cluster running speed times faster than the wall clock (0: as fast as
// the wall clock), seed 1, with nothing running but etcd, the apiserver and what the test adds.
func RealTime(speed float64) sim.Config {
	return sim.Config{Mode: sim.RealTime, Speed: speed, Seed: 1}
}

// Full is a working cluster of n nodes (sim.FullCluster), seed 1, every trace event kept: the
// cluster end-to-end tests read.
func Full(nodes int) sim.Config {
	cfg := sim.FullCluster(nodes)
	cfg.Seed, cfg.KeepTrace = 1, true
	return cfg
}

// A Setup prepares a cluster before a test or an example reads it: it adds a component, or creates
// objects.
type Setup func(ctx context.Context, c *sim.Cluster) error

// Cluster starts cfg's cluster for t and runs each setup on it, failing t if any fails. When t ends
// the cluster closes and the returned context, which real-time components run under, is cancelled.
func Cluster(t testing.TB, cfg sim.Config, setups ...Setup) (*sim.Cluster, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c, err := start(ctx, cfg, setups)
	if c != nil {
		t.Cleanup(c.Close)
	}
	require.NoError(t, err)
	return c, ctx
}

// Start is Cluster for an Example, which has no t: it panics if the cluster cannot start or a setup
// fails, and the example closes the cluster.
func Start(cfg sim.Config, setups ...Setup) (*sim.Cluster, context.Context) {
	ctx := context.Background()
	c, err := start(ctx, cfg, setups)
	if err != nil {
		panic(err)
	}
	return c, ctx
}

func start(ctx context.Context, cfg sim.Config, setups []Setup) (*sim.Cluster, error) {
	c, err := sim.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	for _, setup := range setups {
		if err := setup(ctx, c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Controller is what a controller's New takes to run alone in a cluster, as
// kube-controller-manager would give it.
type Controller struct {
	// Client authenticates as kube-controller-manager's user and names itself after the controller.
	Client *client.Client
	// Informers is the controller's own informer factory (a manager shares one among all).
	Informers *client.InformerFactory
	Clock     clock.Clock
	Trace     *trace.Recorder
	// Events reports as the controller's name.
	Events *client.EventRecorder
}

// ForController makes the dependencies of the controller called name in c.
func ForController(c *sim.Cluster, name string) Controller {
	cl := c.Client(controllers.User, name)
	return Controller{Client: cl, Informers: client.NewInformerFactory(cl, c.Clock, c.Trace), Clock: c.Clock, Trace: c.Trace,
		Events: client.NewEventRecorder(cl, name, "", c.Clock, c.Trace)}
}
