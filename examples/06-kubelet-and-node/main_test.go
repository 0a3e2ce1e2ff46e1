package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. Three nginx pods run, one per node; each kubelet renews its node's Lease.
	// 2. node-2's kubelet stops. After the 50s grace period the node is Unknown and tainted.
	//   3.539s    kubesim                   kubelet/node-2 stopped
	//   1m0s      node-lifecycle-controller node node-2: no Lease renewal or status for 55s (grace period 50s): set Ready and the other conditions to Unknown (Kubelet stopped posting node status.)
	//   1m0s      node-lifecycle-controller pod default/nginx-77bf8679f9-q7xsn runs on node node-2, which stopped reporting: set its Ready condition to False
	//   1m0s      node-lifecycle-controller zone "zone-b": Normal -> FullDisruption (1 of 1 nodes not Ready): NoExecute taints at 0.1 nodes/s
	// 3. 300s later the pod on node-2 is evicted; its replacement runs on a Ready node.
	//   1m0s      node-lifecycle-controller node node-2: NoSchedule taints follow its conditions: add node.kubernetes.io/unreachable:NoSchedule, remove none
	//   1m5s      node-lifecycle-controller node node-2 is not Ready: queue it for the taint node.kubernetes.io/unreachable:NoExecute (zone "zone-b", 0.1 nodes/s)
	//   1m5s      node-lifecycle-controller taint node node-2 with node.kubernetes.io/unreachable:NoExecute: Ready is Unknown (zone "zone-b", 0.1 nodes/s)
	//   1m5s      node-lifecycle-controller pod default/nginx-77bf8679f9-q7xsn tolerates node.kubernetes.io/unreachable:NoExecute of node node-2 for 5m0s: deletion scheduled in 5m0s
	//   6m5s      node-lifecycle-controller taint-based eviction of pod default/nginx-77bf8679f9-q7xsn from node node-2: condition DisruptionTarget (DeletionByTaintManager), then delete
	//   6m5s      replicaset-controller     reconcile default/nginx-77bf8679f9: wants 3, has 2 -> create 1 pods (expecting 1 adds)
	//   6m5s      kube-scheduler            bind default/nginx-77bf8679f9-jpg2p -> node-1
}
