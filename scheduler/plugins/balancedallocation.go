// balancedallocation.go: the NodeResourcesBalancedAllocation plugin. It prefers the node where, after
// placing the pod, cpu and memory would be used in the most similar proportions, so that no node runs
// out of one while the other sits idle: score = (1 - |cpu fraction - memory fraction| / 2) * 100. It
// counts actual requests, and skips pods that request nothing (BestEffort), which would otherwise all
// be drawn to the same node.
package plugins

import (
	"context"
	"math"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// BalancedAllocationName is the plugin's name.
const BalancedAllocationName = "NodeResourcesBalancedAllocation"

const balancedPreScoreKey framework.StateKey = "PreScore" + BalancedAllocationName

// BalancedAllocation scores by the balance of cpu and memory use.
type BalancedAllocation struct{}

var (
	_ framework.PreScorePlugin = BalancedAllocation{}
	_ framework.ScorePlugin    = BalancedAllocation{}
)

// NewBalancedAllocation is the plugin's factory.
func NewBalancedAllocation(framework.Handle) (framework.Plugin, error) {
	return BalancedAllocation{}, nil
}

// Name returns BalancedAllocationName.
func (BalancedAllocation) Name() string { return BalancedAllocationName }

// PreScore stores the pod's requests, or skips a pod without cpu and memory requests.
func (BalancedAllocation) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	req, _, _ := framework.PodRequests(pod)
	if req.MilliCPU == 0 && req.Memory == 0 {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(balancedPreScoreKey, &podRequest{req})
	return nil
}

// Score is 100 for perfect balance, less the further apart the two fractions are.
func (BalancedAllocation) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	data, err := state.Read(balancedPreScoreKey)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	req := &data.(*podRequest).Resource
	var fractions [2]float64
	n := 0
	for _, r := range [...][2]int64{
		{ni.Requested.MilliCPU + req.MilliCPU, ni.Allocatable.MilliCPU},
		{ni.Requested.Memory + req.Memory, ni.Allocatable.Memory},
	} {
		if r[1] == 0 {
			continue
		}
		fractions[n] = min(float64(r[0])/float64(r[1]), 1)
		n++
	}
	std := 0.0
	if n == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return int64((1 - std) * float64(framework.MaxNodeScore)), nil
}

// ScoreExtensions is nil: scores are already 0..100.
func (BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }
