// Example 01: `kubectl create deployment nginx --image=nginx`, from the keystroke to three running
// containers. This is the end-to-end timeline both articles walk through ("一个 Deployment 的完整旅程"):
// no component talks to another; each watches the apiserver and writes back what it decided.
//
//	go run ./examples/01-create-deployment
package main

import (
	"io"
	"kubesim/examples/internal/story"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error {
	// A whole cluster in one process: etcd, kube-apiserver, kube-controller-manager, kube-scheduler and
	// three nodes, on a virtual clock so that the story is the same on every run.
	return story.Run(w, sim.FullCluster(3), tell)
}

func tell(s *story.Story) error {

	// kubectl apply sends the manifest to the apiserver, which checks it and stores it in etcd. That
	// is all kubectl does: nothing runs yet.
	s.Say("1. kubectl writes the Deployment; the apiserver stores it in etcd.")
	if err := s.Apply(manifests.NginxDeployment); err != nil {
		return err
	}
	s.Tell("kubectl: POST", "etcd: deployments/default/nginx")

	// The Deployment controller watches Deployments. It sees one with no ReplicaSet and creates one;
	// the ReplicaSet controller sees a ReplicaSet that wants 3 pods and has none, and creates them.
	if err := s.Until("pods -l app=nginx count 3"); err != nil {
		return err
	}
	s.Say("2. Two controllers turn desired state into objects: a ReplicaSet, then three Pods.")
	s.Tell("deployment-controller: create ReplicaSet", "replicaset-controller: wants 3")

	// The pods have no node yet (spec.nodeName is empty). The scheduler filters the nodes that can
	// run each pod, scores the rest, and binds the pod to the best one.
	if err := s.Until("pods -l app=nginx bound"); err != nil {
		return err
	}
	s.Say("3. The scheduler picks a node for each pod: filter, score, bind.")
	s.Tell("kube-scheduler: bind")

	// Each kubelet watches the pods bound to its node: it starts the pause sandbox, pulls the image,
	// starts the container and reports the pod's status back to the apiserver.
	if err := s.Until("pods -l app=nginx running"); err != nil {
		return err
	}
	s.Say("4. Each kubelet starts its pod's sandbox and container, then reports the status.")
	s.Tell("kubelet/node-1: RunPodSandbox", "kubelet/node-1: CreateContainer", "kubelet/node-1: phase Running")

	// The controllers see the pods become ready and update their own status: the Deployment is
	// Available, which is what `kubectl rollout status` waits for.
	if err := s.Until("deployment nginx available"); err != nil {
		return err
	}
	s.Say("5. The Deployment controller sees the ready pods: the Deployment is Available.")
	s.Tell("deployment-controller: status default/nginx: 3 replicas, 3 updated, 3 ready")
	return nil
}
