package nodelifecycle_test

import (
	"context"
	"fmt"
	"time"

	"kubesim/controllers/nodelifecycle"
	"kubesim/internal/testenv"
)

// node-2's kubelet goes silent. After the grace period its conditions become Unknown; at the next
// pass it is tainted unreachable:NoExecute; five minutes later (the pod's default tolerationSeconds)
// the taint manager deletes its pod.
func Example() {
	ctx := context.Background()
	f, err := setup(ctx, "node-1", "node-2")
	if err != nil {
		panic(err)
	}
	defer f.c.Close()
	if err := f.bindPod("web", "node-2"); err != nil {
		panic(err)
	}
	f.beats.setDead("node-2", true)
	if err := f.c.Driver.Advance(ctx, 7*time.Minute); err != nil {
		panic(err)
	}
	for _, e := range testenv.StoryEvents(f.c, nodelifecycle.Name, nodelifecycle.EventSource) {
		fmt.Printf("%-5s %s\n", e.Time, e.Message)
	}
	// Output:
	// 0s    event Normal RegisteredNode: Registered Node node-1 in Controller
	// 0s    event Normal RegisteredNode: Registered Node node-2 in Controller
	// 55s   node node-2: no Lease renewal or status for 55s (grace period 50s): set Ready and the other conditions to Unknown (Kubelet stopped posting node status.)
	// 55s   event Normal NodeNotReady: Node node-2 status is now: NodeNotReady
	// 55s   node node-2: NoSchedule taints follow its conditions: add node.kubernetes.io/unreachable:NoSchedule, remove none
	// 1m0s  node node-2 is not Ready: queue it for the taint node.kubernetes.io/unreachable:NoExecute (zone "zone-a", 0.1 nodes/s)
	// 1m0s  taint node node-2 with node.kubernetes.io/unreachable:NoExecute: Ready is Unknown (zone "zone-a", 0.1 nodes/s)
	// 1m0s  pod default/web tolerates node.kubernetes.io/unreachable:NoExecute of node node-2 for 5m0s: deletion scheduled in 5m0s
	// 6m0s  event Normal TaintManagerEviction: Marking for deletion Pod default/web
	// 6m0s  taint-based eviction of pod default/web from node node-2: condition DisruptionTarget (DeletionByTaintManager), then delete
}
