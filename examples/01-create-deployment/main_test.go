package main

import "os"

// The story this example prints, checked by go test so that it never drifts from what the cluster does.
func Example_run() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// 1. kubectl writes the Deployment; the apiserver stores it in etcd.
	//   200ms     kubectl                   POST deployments.apps default/nginx (replicas 3, image nginx:1.25)
	//   200ms     etcd                      put /registry/deployments/default/nginx -> revision 78
	// 2. Two controllers turn desired state into objects: a ReplicaSet, then three Pods.
	//   200ms     deployment-controller     reconcile default/nginx: no ReplicaSet has the current pod template -> create ReplicaSet nginx-77bf8679f9 (pod-template-hash 77bf8679f9, revision 1, replicas 3)
	//   200ms     replicaset-controller     reconcile default/nginx-77bf8679f9: wants 3, has 0 -> create 3 pods (expecting 3 adds)
	// 3. The scheduler picks a node for each pod: filter, score, bind.
	//   200ms     kube-scheduler            bind default/nginx-77bf8679f9-r45th -> node-3
	//   200ms     kube-scheduler            bind default/nginx-77bf8679f9-hdjsh -> node-1
	//   200ms     kube-scheduler            bind default/nginx-77bf8679f9-q7xsn -> node-2
	// 4. Each kubelet starts its pod's sandbox and container, then reports the status.
	//   200ms     kubelet/node-1            RunPodSandbox for default/nginx-77bf8679f9-hdjsh: sandbox d45da81f4896b (pause), attempt 0, pod IP 10.244.0.2
	//   3.539s    kubelet/node-1            CreateContainer + StartContainer nginx (nginx:1.25, restart count 0): container 075b213b33847
	//   3.539s    kubelet/node-1            status of default/nginx-77bf8679f9-hdjsh: phase Running, Ready=True, IP 10.244.0.2, nginx running (restarts 0) -> pods/status
	// 5. The Deployment controller sees the ready pods: the Deployment is Available.
	//   3.539s    deployment-controller     status default/nginx: 3 replicas, 3 updated, 3 ready, 3 available, 0 unavailable; Available=True (MinimumReplicasAvailable), Progressing=True (NewReplicaSetAvailable)
}
