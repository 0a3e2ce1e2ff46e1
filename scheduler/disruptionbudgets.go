// disruptionbudgets.go: the scheduler's cache of PodDisruptionBudgets. kube-scheduler watches them
// for one reason: when DefaultPreemption must choose victims, it prefers those whose deletion keeps
// every budget's status.disruptionsAllowed at 0 or above. A budget changing never makes a pending
// pod schedulable, so the informer has no handlers. Interface: disruptionBudgetLister, which
// implements framework.DisruptionBudgetLister over the informer.
package scheduler

import (
	"kubesim/api"
	"kubesim/client"
	"kubesim/scheduler/framework"
)

// disruptionBudgetLister reads the scheduler's PodDisruptionBudget informer, or a fixed cluster's
// budgets; without either (the algorithm benchmarks build none) it finds nothing.
type disruptionBudgetLister struct{ s *Scheduler }

var _ framework.DisruptionBudgetLister = disruptionBudgetLister{}

// newDisruptionBudgetInformer builds the PodDisruptionBudget informer.
func (s *Scheduler) newDisruptionBudgetInformer(c *client.Client, o Options) {
	s.pdbInformer = client.NewInformer[api.PodDisruptionBudget](c,
		client.InformerOptions{Clock: o.Clock, Trace: o.Trace, Name: s.name + " poddisruptionbudgets"})
}

// PodDisruptionBudgets lists every budget in the cache.
func (d disruptionBudgetLister) PodDisruptionBudgets() []*api.PodDisruptionBudget {
	if d.s.fixed != nil {
		return d.s.fixed.DisruptionBudgets
	}
	if d.s.pdbInformer == nil {
		return nil
	}
	return d.s.pdbInformer.List()
}
