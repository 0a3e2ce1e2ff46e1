// component.go: the component contract, declared once. Every kubesim component (a controller, the
// scheduler, a kubelet, a leader elector) has the same outside, and whatever runs components (the
// simulator, a test, a learner's main) needs nothing else:
//
//	Name()       how the trace names it
//	Informers()  the informers that feed it, synced before it starts
//	Step(ctx)    one unit of work, in step mode
//	Run(ctx)     its workers, in real time
//
// Informers are run by whoever runs the component, not by the component: several components may
// share one informer (every controller of one kube-controller-manager shares one pod informer, see
// InformerFactory), and an informer is synced, pumped or run exactly once however many components
// read it. client-go splits the work the same way: factory.Start(stopCh), then controller.Run.
package client

import "context"

// Component is what every kubesim component implements.
type Component interface {
	// Name is how the trace names it: "replicaset-controller", "kube-scheduler", "kubelet/node-2".
	Name() string
	// Informers are the informers the component reads. Whoever runs the component syncs each of
	// them once before it starts, then pumps them (step mode) or runs them (real time).
	Informers() []InformerHandle
	// Step does one unit of work (one reconcile, one scheduling cycle, one pod sync) if the component
	// has any, and reports whether it did.
	Step(ctx context.Context) (bool, error)
	// Run runs the component's workers in real time until ctx ends. Its informers are already
	// running.
	Run(ctx context.Context)
}
