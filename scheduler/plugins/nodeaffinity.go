// nodeaffinity.go: the NodeAffinity plugin. PreFilter: skip the filter for a pod with neither
// nodeSelector nor required node affinity, and narrow the nodes to those the required terms name by
// metadata.name (a PreFilterResult), as DaemonSet pods' affinity does. Filter: spec.nodeSelector and
// the required node affinity must both match the node's labels. Score: the sum of the weights of the
// preferred terms the node matches, rescaled so the best node gets 100 (weight 2 by default).
package plugins

import (
	"context"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// NodeAffinityName is the plugin's name.
const NodeAffinityName = "NodeAffinity"

// The plugin's rejections: a node that does not match, and required terms that name nodes by
// metadata.name with no node in common.
const (
	ErrReasonPod      = "node(s) didn't match Pod's node affinity/selector"
	ErrReasonConflict = "pod affinity terms conflict"
)

const nodeAffinityPreScoreKey framework.StateKey = "PreScore" + NodeAffinityName

// NodeAffinity filters and scores by node labels.
type NodeAffinity struct{}

var (
	_ framework.PreFilterPlugin   = NodeAffinity{}
	_ framework.FilterPlugin      = NodeAffinity{}
	_ framework.PreScorePlugin    = NodeAffinity{}
	_ framework.ScorePlugin       = NodeAffinity{}
	_ framework.EnqueueExtensions = NodeAffinity{}
)

// NewNodeAffinity is the plugin's factory.
func NewNodeAffinity(framework.Handle) (framework.Plugin, error) { return NodeAffinity{}, nil }

// Name returns NodeAffinityName.
func (NodeAffinity) Name() string { return NodeAffinityName }

// EventsToRegister: a node gaining a label, or a new node.
func (NodeAffinity) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}}
}

// PreFilter skips the filter when there is nothing to check, and returns the nodes the required
// terms name, when every term names some: the terms are ORed, the metadata.name In requirements of
// one term ANDed.
func (NodeAffinity) PreFilter(_ context.Context, _ *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	a := pod.Spec.Affinity
	noAffinity := a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil
	if noAffinity && pod.Spec.NodeSelector == nil {
		return nil, framework.NewStatus(framework.Skip)
	}
	if noAffinity {
		return nil, nil
	}
	var names map[string]bool
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		var termNames map[string]bool
		for _, r := range t.MatchFields {
			if r.Key != "metadata.name" || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			values := map[string]bool{}
			for _, v := range r.Values {
				if termNames == nil || termNames[v] {
					values[v] = true
				}
			}
			termNames = values
		}
		if termNames == nil {
			return nil, nil // this term may match any node
		}
		if names == nil {
			names = map[string]bool{}
		}
		for n := range termNames {
			names[n] = true
		}
	}
	switch {
	case names != nil && len(names) == 0:
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonConflict)
	case len(names) > 0:
		return &framework.PreFilterResult{NodeNames: names}, nil
	}
	return nil, nil
}

// PreFilterExtensions is nil: the result does not depend on other pods.
func (NodeAffinity) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks nodeSelector and required node affinity.
func (NodeAffinity) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	if podMatchesNodeSelectorAndAffinity(pod, ni.Node()) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
}

// preferredTerms is the PreScore state: the pod's preferred terms.
type preferredTerms []api.PreferredSchedulingTerm

func (p preferredTerms) Clone() framework.StateData { return p }

// PreScore skips scoring for a pod without preferences.
func (NodeAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(nodeAffinityPreScoreKey, preferredTerms(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution))
	return nil
}

// Score sums the weights of the matching preferred terms.
func (NodeAffinity) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	data, err := state.Read(nodeAffinityPreScoreKey)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	var score int64
	for _, t := range data.(preferredTerms) {
		if t.Preference.Matches(ni.Node().Name, ni.Node().Labels) {
			score += int64(t.Weight)
		}
	}
	return score, nil
}

// ScoreExtensions returns the plugin itself.
func (pl NodeAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore gives the best-matching node 100.
func (NodeAffinity) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}
