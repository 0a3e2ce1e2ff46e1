//go:build solution

// score_solution.go: the reference solution, built with -tags solution.
package scoreplugin

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// Score counts the node's pods of the same app.
func (SpreadByApp) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	var n int64
	for _, pi := range ni.Pods {
		if app := pod.Labels["app"]; app != "" && pi.Pod.Labels["app"] == app && pi.Pod.Namespace == pod.Namespace {
			n++
		}
	}
	return n, nil
}

// NormalizeScore reverses the counts into 0..MaxNodeScore: the emptiest node gets the most.
func (SpreadByApp) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	var highest int64
	for _, s := range scores {
		highest = max(highest, s.Score)
	}
	for i := range scores {
		if highest == 0 {
			scores[i].Score = framework.MaxNodeScore
		} else {
			scores[i].Score = framework.MaxNodeScore * (highest - scores[i].Score) / highest
		}
	}
	return nil
}
