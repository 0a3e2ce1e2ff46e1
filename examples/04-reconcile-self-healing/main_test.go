package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. Desired: 3 replicas. Actual: 3 running pods. The loop has nothing to do.
	// 2. kubectl delete pod nginx-77bf8679f9-hdjsh: the ReplicaSet controller finds one too few and creates one.
	//   3.539s    replicaset-controller     reconcile default/nginx-77bf8679f9: wants 3, has 2 -> create 1 pods (expecting 1 adds)
	//   3.539s    kube-scheduler            bind default/nginx-77bf8679f9-b87wt -> node-1
	// 3. kubectl scale --replicas=1: the same comparison, now with two too many.
	//   33.539s   replicaset-controller     reconcile default/nginx-77bf8679f9: wants 1, has 3 -> delete 2 pods (expecting 2 deletes): nginx-77bf8679f9-b87wt (on node-1, Running, ready), nginx-77bf8679f9-r45th (on node-3, Running, ready)
}
