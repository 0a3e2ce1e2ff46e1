//go:build !solution

// score.go: the Score extension point of SpreadByApp. This is where you work.
package scoreplugin

import (
	"context"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/scheduler/framework"
)

// Score is the raw score of the node of ni for pod: how many pods of the pod's app (same "app" label)
// the node already runs. NormalizeScore turns it around, so that fewer is better.
func (SpreadByApp) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	// TODO(lab): count the pods in ni.Pods (each a *framework.PodInfo; its Pod field is the pod) whose
	// "app" label equals pod's, and return the count with a nil Status.
	return 0, framework.AsStatus(lab.TODO("write SpreadByApp.Score in examples/labs/score-plugin/score.go"))
}

// NormalizeScore rescales the raw scores of every feasible node into 0..framework.MaxNodeScore, the
// node with the fewest pods of the app getting the most.
func (SpreadByApp) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	// TODO(lab): find the highest raw score; give each node MaxNodeScore * (highest - its score) / highest
	// (every node MaxNodeScore when highest is 0). Change scores in place: scores[i].Score.
	return framework.AsStatus(lab.TODO("write SpreadByApp.NormalizeScore in examples/labs/score-plugin/score.go"))
}
