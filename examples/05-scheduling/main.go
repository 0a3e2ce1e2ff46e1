// Example 05: scheduling. For each pod without a node, kube-scheduler runs the Filter plugins (can this
// node run the pod at all? resources, nodeSelector, taints, ports), scores the nodes that pass, and
// binds the pod to the best. A pod no node passes stays Pending, and the FailedScheduling event says
// why, node by node. Article 1, section 5 ("kube-scheduler：过滤、打分、绑定"); article 2, "filter and
// score, requests and Allocatable, taints and tolerations".
//
//	go run ./examples/05-scheduling
package main

import (
	"io"
	"time"

	"kubesim/api"
	"kubesim/api/resource"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

// pod is a one-container pod with a CPU request and, optionally, a nodeSelector.
func pod(name, cpu string, selector map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{NodeSelector: selector, Containers: []api.Container{{Name: "app", Image: "nginx:1.25",
			Resources: api.ResourceRequirements{Requests: resource.ResourceList{"cpu": resource.MustParse(cpu)}}}}}}
}

func run(w io.Writer) error {
	// Three different nodes: node-1 has an SSD (a label), node-3 is reserved for GPU work (a taint
	// that pods must tolerate), node-2 is plain.
	cfg := sim.FullCluster(0)
	cfg.NodeSpecs = []sim.NodeSpec{
		{Name: "node-1", CPU: "4", Memory: "8Gi", Pods: 110, Labels: map[string]string{"disktype": "ssd"}},
		{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110},
		{Name: "node-3", CPU: "4", Memory: "8Gi", Pods: 110, Taints: []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}},
	}
	return story.Run(w, cfg, tell)
}

func tell(s *story.Story) error {
	k := s.Cluster.Kubectl

	// A plain pod: the taint filters node-3 out, node-1 and node-2 are scored, the best one wins.
	if _, err := k.Create(s.Ctx, pod("plain", "500m", nil)); err != nil {
		return err
	}
	if err := s.Until("pod plain bound"); err != nil {
		return err
	}
	s.Say("1. A plain pod: the tainted node is filtered out, the others are scored.")
	s.Tell("kube-scheduler: schedule")

	// A nodeSelector is a hard requirement: only node-1 carries disktype=ssd.
	if _, err := k.Create(s.Ctx, pod("fast", "500m", map[string]string{"disktype": "ssd"})); err != nil {
		return err
	}
	if err := s.Until("pod fast bound"); err != nil {
		return err
	}
	s.Say("2. nodeSelector disktype=ssd: one node passes Filter.")
	s.Tell("kube-scheduler: schedule")

	// A request no node can meet: every node fails some filter, and the event counts the reasons.
	if _, err := k.Create(s.Ctx, pod("huge", "64", nil)); err != nil {
		return err
	}
	if err := s.Advance(10 * time.Second); err != nil {
		return err
	}
	s.Say("3. 64 CPUs requested: no node fits; the pod stays Pending with the scheduler's reasons.")
	s.Tell("default-scheduler: FailedScheduling")
	return nil
}
