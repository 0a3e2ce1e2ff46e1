// noderesourcesfit.go: the NodeResourcesFit plugin. Filter: the pod's requests must fit in the node's
// allocatable minus what the pods already there request; each shortfall is one reason ("Insufficient
// cpu", "Insufficient memory", "Too many pods"), so a node short of both counts twice in the
// FitError. A pod bigger than the whole node is UnschedulableAndUnresolvable: no preemption helps.
// Score (the default LeastAllocated strategy): the more cpu and memory left free after placing the
// pod, the better, counting pods without requests at 100m cpu / 200Mi memory.
//
// Requests only: what containers really use never enters here, which is why pods without requests
// crowd onto nodes regardless of real load.
package plugins

import (
	"context"
	"maps"
	"slices"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/scheduler/framework"
)

// NodeResourcesFitName is the plugin's name.
const NodeResourcesFitName = "NodeResourcesFit"

const (
	fitPreFilterKey framework.StateKey = "PreFilter" + NodeResourcesFitName
	fitPreScoreKey  framework.StateKey = "PreScore" + NodeResourcesFitName
)

// NodeResourcesFit filters and scores by requested resources.
type NodeResourcesFit struct{}

var (
	_ framework.PreFilterPlugin   = NodeResourcesFit{}
	_ framework.FilterPlugin      = NodeResourcesFit{}
	_ framework.PreScorePlugin    = NodeResourcesFit{}
	_ framework.ScorePlugin       = NodeResourcesFit{}
	_ framework.EnqueueExtensions = NodeResourcesFit{}
)

// NewNodeResourcesFit is the plugin's factory.
func NewNodeResourcesFit(framework.Handle) (framework.Plugin, error) { return NodeResourcesFit{}, nil }

// Name returns NodeResourcesFitName.
func (NodeResourcesFit) Name() string { return NodeResourcesFitName }

// EventsToRegister: a pod deleted frees room; a new node, or more allocatable, adds room.
func (NodeResourcesFit) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.AssignedPod, ActionType: framework.Delete | framework.UpdatePodScaleDown},
		{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeAllocatable},
	}
}

// podRequest is the state: the pod's requests (PreFilter) or non-zero requests (PreScore).
type podRequest struct {
	framework.Resource
}

func (r *podRequest) Clone() framework.StateData { return r }

// PreFilter computes the pod's requests once.
func (NodeResourcesFit) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	req, _, _ := framework.PodRequests(pod)
	state.Write(fitPreFilterKey, &podRequest{req})
	return nil, nil
}

// PreFilterExtensions is nil: the pod's requests do not depend on other pods.
func (NodeResourcesFit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter lists every resource the node is short of.
func (NodeResourcesFit) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	data, err := state.Read(fitPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	reasons, unresolvable := insufficientResources(&data.(*podRequest).Resource, ni)
	if len(reasons) == 0 {
		return nil
	}
	code := framework.Unschedulable
	if unresolvable {
		code = framework.UnschedulableAndUnresolvable
	}
	return framework.NewStatus(code, reasons...)
}

// insufficientResources compares the request with what is left on the node (fitsRequest in
// Kubernetes). unresolvable says some request exceeds the node's whole allocatable.
func insufficientResources(req *framework.Resource, ni *framework.NodeInfo) (reasons []string, unresolvable bool) {
	alloc, used := &ni.Allocatable, &ni.Requested
	if len(ni.Pods)+1 > alloc.AllowedPodNumber {
		// Never unresolvable, even on a node that allows no pods at all: preemption looks at it.
		reasons = append(reasons, "Too many pods")
	}
	check := func(name string, want, have, inUse int64) {
		if want > 0 && want > have-inUse {
			reasons = append(reasons, "Insufficient "+name)
			unresolvable = unresolvable || want > have
		}
	}
	check(string(resource.ResourceCPU), req.MilliCPU, alloc.MilliCPU, used.MilliCPU)
	check(string(resource.ResourceMemory), req.Memory, alloc.Memory, used.Memory)
	check(string(resource.ResourceEphemeralStorage), req.EphemeralStorage, alloc.EphemeralStorage, used.EphemeralStorage)
	if len(req.Scalar) > 0 {
		for _, name := range slices.Sorted(maps.Keys(req.Scalar)) {
			check(string(name), req.Scalar[name], alloc.Scalar[name], used.Scalar[name])
		}
	}
	return reasons, unresolvable
}

// PreScore computes the pod's non-zero requests once.
func (NodeResourcesFit) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	_, cpu, mem := framework.PodRequests(pod)
	state.Write(fitPreScoreKey, &podRequest{framework.Resource{MilliCPU: cpu, Memory: mem}})
	return nil
}

// Score is LeastAllocated: for cpu and memory (weight 1 each), (allocatable - requested) * 100 /
// allocatable, averaged; requested includes this pod.
func (NodeResourcesFit) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	data, err := state.Read(fitPreScoreKey)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	req := &data.(*podRequest).Resource
	var sum, weights int64
	for _, r := range [...][2]int64{
		{ni.NonZeroRequested.MilliCPU + req.MilliCPU, ni.Allocatable.MilliCPU},
		{ni.NonZeroRequested.Memory + req.Memory, ni.Allocatable.Memory},
	} {
		if r[1] == 0 {
			continue
		}
		sum += leastRequestedScore(r[0], r[1])
		weights++
	}
	if weights == 0 {
		return 0, nil
	}
	return sum / weights, nil
}

func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}

// ScoreExtensions is nil: scores are already 0..100.
func (NodeResourcesFit) ScoreExtensions() framework.ScoreExtensions { return nil }
