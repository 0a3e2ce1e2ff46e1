// Package sim is the cluster itself: it assembles etcd, the apiserver and the components into one
// cluster (cluster.go reads as the boot sequence), owns the clock and the step-mode driver
// (driver.go), the learner's kubectl (kubectl.go), and the scenario catalogue (scenario.go and one
// scenario_*.go file per scenario). It is the only package besides cmd that wires components
// together; nothing imports it except cmd, examples and tests.
//
// Read next: driver.go for how step mode makes every run identical, component.go for what a component
// must provide, and scenario_api_gates.go for a scenario from start to end.
//
// # Two modes
//
// Step mode runs on a virtual clock: the driver lets every informer catch up with etcd, runs exactly
// one unit of work (one reconcile, one scheduling cycle, one pod sync), and when nothing is left
// jumps the clock to the next timer. Real-time mode runs every component on goroutines against the
// wall clock, optionally sped up.
//
// # What it simplifies
//
// Components join the cluster as they are built: today the cluster has etcd and the apiserver, and
// the controller manager, scheduler and kubelets are added by scenarios through Add. The fault API and
// scenario files are not built yet.
package sim
