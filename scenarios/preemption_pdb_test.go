package scenarios_test

import "testing"

// Preemption and PodDisruptionBudgets:
// https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/#poddisruptionbudget-is-supported-but-not-guaranteed
func TestPreemptionSparesTheBudgetWhenItCanAndPreemptsAnywayWhenItCannot(t *testing.T) {
	expectSigns(t, "preemption-pdb",
		"✓ kubectl get pdb db-pdb: MIN AVAILABLE 1, ALLOWED DISRUPTIONS 0",
		"preempt for default/urgent: 2 candidate nodes; PodDisruptionBudget violations node-1 1, node-2 0 -> node-2 (the fewest)",
		"✓ event Normal Preempted on both reports pods (2), none on db",
		"✓ pod urgent is bound to node-2; db still runs on node-1",
		"preempt for default/urgent-2: no candidate node keeps every PodDisruptionBudget; preempting anyway default/db-",
		"DisruptionTarget=True (PreemptionByScheduler): default-scheduler: preempting to accommodate a higher priority pod",
		"✓ pod urgent-2 is bound to node-1, db's node")
	expectHeadingsInChinese(t, "preemption-pdb")
}
