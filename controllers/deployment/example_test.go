package deployment_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/controllers/deployment"
	"kubesim/controllers/replicaset"
	"kubesim/internal/testenv"
	"kubesim/scenarios/manifests"
)

// kubectl apply -f nginx-deployment.yaml, with the ReplicaSet and Deployment controllers running:
// the story the controllers tell in the trace (routine lines left out). There is no scheduler or
// kubelet here, so the pods stay Pending and the Deployment never becomes available.
func Example() {
	c, ctx := testenv.Start(testenv.Step, addControllers)
	defer c.Close()

	if _, err := c.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment)); err != nil {
		panic(err)
	}
	if err := c.Driver.Advance(ctx, 0); err != nil {
		panic(err)
	}
	for _, e := range testenv.StoryEvents(c, deployment.Name, replicaset.Name) {
		fmt.Printf("%s: %s\n", e.Component, e.Message)
	}
	// Output:
	// deployment-controller: watch ADDED deployments/default/nginx -> queue "default/nginx"
	// deployment-controller: reconcile default/nginx: no ReplicaSet has the current pod template -> create ReplicaSet nginx-77bf8679f9 (pod-template-hash 77bf8679f9, revision 1, replicas 3)
	// deployment-controller: event Normal ScalingReplicaSet: Scaled up replica set nginx-77bf8679f9 from 0 to 3
	// deployment-controller: status default/nginx: 0 replicas, 0 updated, 0 ready, 0 available, 0 unavailable; Progressing=True (NewReplicaSetCreated)
	// deployment-controller: status default/nginx: 0 replicas, 0 updated, 0 ready, 0 available, 3 unavailable; Progressing=True (NewReplicaSetCreated), Available=False (MinimumReplicasUnavailable)
	// replicaset-controller: watch ADDED replicasets/default/nginx-77bf8679f9 -> queue "default/nginx-77bf8679f9"
	// replicaset-controller: reconcile default/nginx-77bf8679f9: wants 3, has 0 -> create 3 pods (expecting 3 adds)
	// replicaset-controller: event Normal SuccessfulCreate: Created pod: nginx-77bf8679f9-tqvrk
	// replicaset-controller: event Normal SuccessfulCreate: Created pod: nginx-77bf8679f9-ncx8w
	// replicaset-controller: event Normal SuccessfulCreate: Created pod: nginx-77bf8679f9-v7hld
	// replicaset-controller: status default/nginx-77bf8679f9: replicas 0, fullyLabeledReplicas 0, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
	// replicaset-controller: status default/nginx-77bf8679f9: replicas 3, fullyLabeledReplicas 3, readyReplicas 0, availableReplicas 0 (observedGeneration 1)
	// deployment-controller: status default/nginx: 3 replicas, 3 updated, 0 ready, 0 available, 3 unavailable; Available=False (MinimumReplicasUnavailable), Progressing=True (ReplicaSetUpdated)
}

// The pod-template-hash of the nginx Deployment as the apiserver stores it (its defaults in place),
// the same as a Kubernetes 1.34 cluster gives it. A collisionCount gives the same template another
// name.
func ExampleComputeHash() {
	d := &api.Deployment{Spec: api.DeploymentSpec{Template: api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25", Ports: []api.ContainerPort{{ContainerPort: 80}}}}},
	}}}
	api.SetDefaults(d)
	fmt.Println(deployment.ComputeHash(&d.Spec.Template, nil))
	fmt.Println(deployment.ComputeHash(&d.Spec.Template, api.Ptr[int32](1)))
	fmt.Println(deployment.SafeEncodeString("2142116321"))
	// Output:
	// 77bf8679f9
	// 6489bc9494
	// 658655b765
}
