package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. A plain pod: the tainted node is filtered out, the others are scored.
	//   200ms     kube-scheduler            schedule default/plain: 2 of 3 nodes pass Filter; Score node-1 485, node-2 485 -> node-1 (tie broken by seed)
	// 2. nodeSelector disktype=ssd: one node passes Filter.
	//   200ms     kube-scheduler            schedule default/fast: 1 of 3 nodes pass Filter -> node-1 (the only feasible node: Score skipped)
	// 3. 64 CPUs requested: no node fits; the pod stays Pending with the scheduler's reasons.
	//   200ms     default-scheduler         event Warning FailedScheduling: 0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
}
