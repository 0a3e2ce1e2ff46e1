// tainttoleration.go: the TaintToleration plugin. Filter: a node with a NoSchedule or NoExecute
// taint the pod does not tolerate is out, and the message names the taint as
// "{key: value}" (an empty value prints as "{node-role.kubernetes.io/control-plane: }"). Score: the
// fewer PreferNoSchedule taints the pod does not tolerate, the better (weight 3 by default).
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// TaintTolerationName is the plugin's name.
const TaintTolerationName = "TaintToleration"

// TaintToleration filters and scores by taints.
type TaintToleration struct{}

var (
	_ framework.FilterPlugin      = TaintToleration{}
	_ framework.ScorePlugin       = TaintToleration{}
	_ framework.EnqueueExtensions = TaintToleration{}
)

// NewTaintToleration is the plugin's factory.
func NewTaintToleration(framework.Handle) (framework.Plugin, error) { return TaintToleration{}, nil }

// Name returns TaintTolerationName.
func (TaintToleration) Name() string { return TaintTolerationName }

// EventsToRegister: a taint removed, or a new node.
func (TaintToleration) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}}
}

// Filter rejects a node with an untolerated NoSchedule or NoExecute taint. Removing pods cannot
// remove a taint, hence UnschedulableAndUnresolvable. The node's taints of those two effects come
// pre-split in its NodeInfo, in the node's order, so the first untolerated one is the one
// Kubernetes names.
func (TaintToleration) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	taint, found := findUntoleratedTaint(ni.NoScheduleTaints(), pod.Spec.Tolerations)
	if !found {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable,
		"node(s) had untolerated taint {"+taint.Key+": "+taint.Value+"}")
}

// Score counts the PreferNoSchedule taints the pod does not tolerate (lower is better; see
// NormalizeScore).
func (TaintToleration) Score(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	var n int64
	taints := ni.PreferNoScheduleTaints()
	for i := range taints {
		if !api.TolerationsTolerateTaint(pod.Spec.Tolerations, &taints[i]) {
			n++
		}
	}
	return n, nil
}

// ScoreExtensions returns the plugin itself.
func (pl TaintToleration) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore reverses the counts: no untolerated taint gets 100.
func (TaintToleration) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}
