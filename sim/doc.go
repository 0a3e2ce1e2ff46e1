// Package sim is the cluster itself: it assembles etcd, the apiserver and the components into one
// cluster (cluster.go reads as the boot sequence), owns the clock and the step-mode driver
// (driver.go), builds the admin's kubectl (package kubectl), and holds the scenario catalogue
// (scenario.go and one scenario_*.go file per scenario). It is the only package besides cmd that
// wires components together; nothing imports it except cmd, examples and tests.
//
// Read next: driver.go for how step mode makes every run identical, component.go for what a component
// must provide, and scenario_api_gates.go for a scenario from start to end.
//
// # Two modes
//
// Step mode runs on a virtual clock: the driver lets every informer catch up with etcd, runs exactly
// one unit of work (one reconcile, one scheduling cycle, one pod sync), and when nothing is left
// jumps the clock to the next timer. Real-time mode runs every component on goroutines against the
// wall clock, optionally sped up; the same Driver methods then wait instead of step, so a scenario
// plays in either mode unless it is marked StepOnly.
//
// # What it simplifies
//
// A scenario names the cluster it needs (Scenario.Cluster): etcd and the apiserver always, and, as
// asked, kube-controller-manager behind leader election, kube-scheduler and a kubelet per node.
// Scenario files (scenariofile.go, examples/scenarios) and the condition language (conditions.go) let
// a learner write scenarios without Go. Faults that belong to components still being built (a hung
// runtime, a failing webhook, a skewed node clock) are not in faults.go yet.
package sim
