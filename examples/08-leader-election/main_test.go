package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. A second kube-controller-manager starts; the Lease is held, so it stands by.
	//   200ms     kube-controller-manager-2 new leader: control-plane_1b666357-df6d-48b9-80d2-9b9b7a425d43
	// 2. The leader is killed. Once the Lease expires the standby takes it and catches up:
	//   10.2s     kubesim                   kube-controller-manager was killed: its controllers stop, its Lease is left to expire
	//   26.2s     kube-controller-manager-2 successfully acquired lease kube-system/kube-controller-manager as control-plane-2_89ae71dc-fadd-45f3-baf9-d6722a521748 (previous holder "control-plane_1b666357-df6d-48b9-80d2-9b9b7a425d43", leaseTransitions 1)
	//   26.2s     deployment-controller     reconcile default/nginx: no ReplicaSet has the current pod template -> create ReplicaSet nginx-77bf8679f9 (pod-template-hash 77bf8679f9, revision 1, replicas 3)
	//   26.2s     replicaset-controller     reconcile default/nginx-77bf8679f9: wants 3, has 0 -> create 3 pods (expecting 3 adds)
}
