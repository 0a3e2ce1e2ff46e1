// component.go: how a component (a controller, the scheduler, a kubelet) joins a cluster. Every
// component has the same outside: informers that feed it, one unit of work at a time (Step), and a
// real-time loop (Run). The cluster syncs its informers, then either hands it to the step driver or
// starts it on goroutines.
package sim

import (
	"context"
	"fmt"

	"kubesim/client"
)

// Component is what every kubesim component implements.
type Component interface {
	// Name is how the trace names it: "replicaset-controller", "kube-scheduler", "kubelet/node-2".
	Name() string
	// Informers are the component's informers; the cluster syncs them before the component starts.
	Informers() []client.InformerHandle
	// Step does one unit of work (one reconcile, one scheduling cycle, one pod sync) if the component
	// has any, and reports whether it did.
	Step(ctx context.Context) (bool, error)
	// Run works in real time until ctx ends: informers and workers on goroutines.
	Run(ctx context.Context)
}

// Add syncs a component's informers and starts it: in step mode the driver will pump its informers and
// ask it for work in the order components were added; in real time it runs on its own goroutines.
func (c *Cluster) Add(ctx context.Context, comp Component) error {
	for _, inf := range comp.Informers() {
		if err := inf.Sync(ctx); err != nil {
			return fmt.Errorf("%s: syncing informer: %w", comp.Name(), err)
		}
	}
	if _, dup := c.components[comp.Name()]; dup {
		return fmt.Errorf("a component named %q was already added", comp.Name())
	}
	c.components[comp.Name()] = comp
	c.Trace.Record(traceJoin(comp.Name()))
	if c.Config.Mode == StepMode {
		for _, inf := range comp.Informers() {
			c.Driver.AddInformer(inf)
		}
		c.Driver.AddWorker(stoppableWorker{comp, c})
		return nil
	}
	go comp.Run(c.ctx)
	return nil
}

// stoppableWorker is a component as the driver sees it: it has no work while stopped.
type stoppableWorker struct {
	Component
	c *Cluster
}

func (w stoppableWorker) Step(ctx context.Context) (bool, error) {
	if w.c.stopped[w.Name()] {
		return false, nil
	}
	return w.Component.Step(ctx)
}
