// component.go: how a component (a controller, the scheduler, a kubelet) joins a cluster. Every
// component has the same outside, client.Component: informers that feed it, one unit of work at a
// time (Step), and a real-time loop (Run). The cluster syncs its informers, then either hands it to
// the step driver or starts it on goroutines.
//
// Components may share informers (the controllers of one kube-controller-manager replica share one
// informer per resource): the cluster syncs, pumps or runs each informer once, the first time a
// component that reads it is added.
package sim

import (
	"context"
	"fmt"

	"kubesim/client"
)

// Component is the component contract, client.Component, under the name the cluster's callers
// know.
type Component = client.Component

// Add syncs a component's informers that no earlier component shares and starts it: in step mode the
// driver will pump those informers and ask the component for work in the order components were
// added; in real time the informers and the component run on goroutines of their own.
func (c *Cluster) Add(ctx context.Context, comp Component) error {
	if _, dup := c.components[comp.Name()]; dup {
		return fmt.Errorf("a component named %q was already added", comp.Name())
	}
	if c.informers == nil {
		c.informers = map[client.InformerHandle]bool{}
	}
	var fresh []client.InformerHandle
	for _, inf := range comp.Informers() {
		if c.informers[inf] {
			continue // shared with a component added before
		}
		if err := inf.Sync(ctx); err != nil {
			return fmt.Errorf("%s: syncing informer: %w", comp.Name(), err)
		}
		c.informers[inf] = true
		fresh = append(fresh, inf)
	}
	c.components[comp.Name()] = comp
	c.Trace.Record(traceJoin(comp.Name()))
	if c.Config.Mode == StepMode {
		for _, inf := range fresh {
			c.Driver.AddInformer(inf)
		}
		c.Driver.AddWorker(stoppableWorker{comp, c})
		return nil
	}
	for _, inf := range fresh {
		go inf.Run(c.ctx)
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
