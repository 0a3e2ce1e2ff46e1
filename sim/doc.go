// Package sim is the cluster itself: it assembles etcd, the apiserver and the components into one
// cluster (cluster.go reads as the boot sequence), owns the clock and the step-mode driver
// (driver.go), builds the admin's kubectl (package kubectl), the faults (faults.go), the way to look at a
// cluster and wait for it (observe.go), playing a scenario (scenario.go, play.go), what a paused run
// offers: breakpoints before actions (breakpoint.go) and a look at the cluster (inspect.go). It is the
// only package besides cmd that wires components together; nothing imports it except cmd, scenarios,
// script, lab, examples, the chaos soak (package chaos), the benchmarks (package bench) and tests.
// Play tells the trace through package narrate.
//
// Read next: driver.go for how step mode makes every run identical, component.go for what a component
// must provide, observe.go for how stories and tests watch the cluster, and package scenarios for the
// catalogue of stories played on it.
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
// The catalogue of scenarios lives in package scenarios; the scenario-file and condition languages,
// which let a learner write scenarios without Go, live in package script. sim needs neither.
package sim
