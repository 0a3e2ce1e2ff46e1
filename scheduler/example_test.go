package scheduler_test

import (
	"fmt"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/scheduler"
)

// ExampleScheduler_Explain asks the scheduler where a pod would go and why, on a cluster whose
// control-plane node is tainted.
func ExampleScheduler_Explain() {
	c, ctx := testenv.Start(testenv.Step)
	defer c.Close()
	s, _ := scheduler.New(scheduler.Options{Client: c.Client(scheduler.Identity, "kube-scheduler"), Clock: c.Clock, Seed: 1})
	_ = c.Add(ctx, s)
	for i, name := range []string{"control-plane", "node-1", "node-2"} {
		alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse(fmt.Sprint(2 * (i + 1))),
			resource.ResourceMemory: resource.MustParse("8Gi"), resource.ResourcePods: resource.MustParse("110")}
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Allocatable: alloc}}
		if name == "control-plane" {
			n.Spec.Taints = []api.Taint{{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}}
		}
		_, _ = client.For[api.Node](c.Kubectl.Client()).Create(ctx, n)
	}
	_ = c.Driver.Settle(ctx)

	web := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25", Resources: api.ResourceRequirements{
			Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("500m"), resource.ResourceMemory: resource.MustParse("512Mi")}}}}}}
	ex, _ := s.Explain(web)
	fmt.Print(ex)
	// Output:
	// Pod default/web (schedulerName default-scheduler): 2 of 3 nodes pass Filter; winner node-2
	//
	// Filter
	//   PLUGIN              control-plane  node-1  node-2
	//   NodeUnschedulable   pass           pass    pass
	//   NodeName            pass           pass    pass
	//   TaintToleration     FAIL           pass    pass
	//   NodeAffinity        skip           skip    skip
	//   NodePorts           skip           skip    skip
	//   NodeResourcesFit    pass           pass    pass
	//   VolumeRestrictions  skip           skip    skip
	//   NodeVolumeLimits    skip           skip    skip
	//   VolumeBinding       skip           skip    skip
	//   VolumeZone          skip           skip    skip
	//   PodTopologySpread   skip           skip    skip
	//   InterPodAffinity    skip           skip    skip
	//   control-plane, TaintToleration: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }
	//
	// Score (raw→normalised, weight; total = Σ normalised × weight)
	//   PLUGIN                           WEIGHT  node-1  node-2
	//   TaintToleration                  3       0→100   0→100
	//   NodeResourcesFit                 1       90→90   92→92
	//   NodeResourcesBalancedAllocation  1       96→96   98→98
	//   ImageLocality                    1       0→0     0→0
	//   TOTAL                                    486     490
	//
	// Notes
	//   - TaintToleration: v1.34 names the taint; 1.35+ says only node(s) had untolerated taint(s)
	//   - NodeResourcesBalancedAllocation: v1.34's formula; 1.35+ scores the improvement a placement brings
}
