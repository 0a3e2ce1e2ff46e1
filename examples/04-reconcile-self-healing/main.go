// Example 04: the reconcile loop and self-healing. A controller compares what is wanted with what is
// and acts on the difference; it never asks what happened. Delete a pod and the ReplicaSet controller
// simply finds one too few. Article 1, section 3 ("控制循环：期望状态与实际状态"); article 2, "the
// controller pattern".
//
//	go run ./examples/04-reconcile-self-healing
package main

import (
	"io"
	"time"

	"kubesim/api"
	"kubesim/client"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.FullCluster(3), tell) }

func tell(s *story.Story) error {
	k := s.Cluster.Kubectl
	if err := s.StartNginx(); err != nil {
		return err
	}
	s.Say("1. Desired: 3 replicas. Actual: 3 running pods. The loop has nothing to do.")
	s.Tell()

	// Someone deletes a pod. No controller is told "a pod was deleted" as an order: the watch wakes
	// the ReplicaSet controller, which counts again: it wants 3 and has 2, so it creates one.
	pods, err := sim.List[api.Pod](s.Ctx, s.Cluster, "default", "app=nginx", "")
	if err != nil {
		return err
	}
	if err := k.Delete(s.Ctx, "pods", "default", pods[0].Name, client.DeleteOptions{}); err != nil {
		return err
	}
	if err := s.Advance(30 * time.Second); err != nil {
		return err
	}
	s.Say("2. kubectl delete pod %s: the ReplicaSet controller finds one too few and creates one.", pods[0].Name)
	s.Tell("replicaset-controller: reconcile", "kube-scheduler: bind")

	// Scaling is the same loop seen from the other side: change the desired state and let the
	// controllers close the gap, down as well as up.
	if err := k.Scale(s.Ctx, "deployments", "default", "nginx", 1); err != nil {
		return err
	}
	if err := s.Advance(30 * time.Second); err != nil {
		return err
	}
	s.Say("3. kubectl scale --replicas=1: the same comparison, now with two too many.")
	s.Tell("deployment-controller: reconcile", "replicaset-controller: reconcile")
	return nil
}
