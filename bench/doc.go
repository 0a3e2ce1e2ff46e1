// Package bench measures kubesim: the benchmarks that `kubesim bench` runs and that `go test -bench`
// runs as Go benchmarks. It mirrors, in small, Kubernetes' own scalability tooling: scheduler_perf
// (SchedulingBasic), the density tests of the scalability SIG (a cluster of many nodes filled with pods
// in Deployments of mixed sizes), and etcd's benchmark tool (raw puts as the floor).
//
// Read next: bench.go for the list and how a figure is reported, then one file per benchmark;
// BENCHMARKS.md holds the last figures, the machine they came from and the commands that measure them
// again.
//
// What it promises:
//
//  1. Every figure that has a baseline is measured beside it in the same run, on the same etcd and the
//     same machine (raw etcd puts of the same JSON, the floor implied by etcd's write rate): absolute
//     numbers move by tens of percent between runs on a shared machine, ratios much less.
//  2. The clusters are built by package sim, in real-time mode, as `kubesim serve` builds them: what is
//     measured is the code a learner runs. The create path alone starts a bare apiserver on its own
//     store, so that the pipeline and raw etcd puts share one etcd and nothing else runs beside them.
//  3. Each benchmark is named (Benchmarks), scales with Options, and reports Figures that
//     `kubesim bench --json` prints one per line.
//
// What it simplifies: there is no network between the components (they share one process), so the
// figures measure the control plane's work, not serialisation over TCP; the nodes' pods are the fake
// runtime's, which cost nothing to start.
//
// Only cmd and tests import bench.
package bench
