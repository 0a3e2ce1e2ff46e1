package api_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/scenarios/manifests"
)

// The articles' manifest (nginx-deployment.yaml) goes through what the apiserver does before
// validation: decode strictly, then default.
func Example() {
	objs, err := api.Decode([]byte(manifests.NginxDeployment))
	if err != nil {
		fmt.Println(err)
		return
	}
	deploy := objs[0].(*api.Deployment)
	fmt.Printf("%s %s/%s\n", deploy.Kind, api.NamespaceDefault, deploy.Name)
	for _, line := range api.SetDefaults(deploy) {
		fmt.Println("defaulted", line)
	}

	surge, _ := deploy.Spec.Strategy.RollingUpdate.MaxSurge.ScaledValue(3, true)
	unavailable, _ := deploy.Spec.Strategy.RollingUpdate.MaxUnavailable.ScaledValue(3, false)
	fmt.Printf("rolling update of 3 replicas: up to %d extra, up to %d unavailable\n", surge, unavailable)

	_, err = api.Decode([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    imagePullPolcy: Always\n"))
	fmt.Println(err)
	// Output:
	// Deployment default/nginx
	// defaulted spec.strategy: RollingUpdate (maxSurge 25%, maxUnavailable 25%)
	// defaulted spec.revisionHistoryLimit: 10
	// defaulted spec.progressDeadlineSeconds: 600
	// defaulted spec.template.spec.dnsPolicy: ClusterFirst
	// defaulted spec.template.spec.restartPolicy: Always
	// defaulted spec.template.spec.terminationGracePeriodSeconds: 30
	// defaulted spec.template.spec.schedulerName: default-scheduler
	// defaulted spec.template.spec.containers[0].imagePullPolicy: IfNotPresent (image tag "1.25")
	// defaulted spec.template.spec.containers[0].ports[0].protocol: TCP
	// rolling update of 3 replicas: up to 1 extra, up to 0 unavailable
	// strict decoding error: unknown field "spec.containers[0].imagePullPolcy"
}

// DeepCopy before changing an object that came from a shared cache.
func ExampleDeepCopy() {
	cached := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Labels: map[string]string{"tier": "front"}}}
	mine := api.DeepCopy(cached)
	mine.Labels["tier"] = "back"
	fmt.Println(cached.Labels["tier"], mine.Labels["tier"])
	// Output: front back
}

// kubectl get pods' STATUS for a pod whose first init container exited 1 and waits to be restarted.
func ExampleInitStatus() {
	p := &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "wait-for-db"}}}}
	p.Status.InitContainerStatuses = []api.ContainerStatus{{Name: "wait-for-db", State: api.ContainerState{
		Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
	fmt.Println(api.InitStatus(p))
	p.Status.InitContainerStatuses[0].State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}}
	fmt.Println(api.InitStatus(p))
	// Output:
	// Init:CrashLoopBackOff true
	//  false
}
