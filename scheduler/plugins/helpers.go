// helpers.go: small helpers several plugins share: DefaultNormalizeScore (pluginhelper in
// Kubernetes), node selector matching (component-helpers' nodeaffinity) and untolerated-taint
// lookup (v1helper.FindMatchingUntoleratedTaint).
package plugins

import (
	"strconv"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// DefaultNormalizeScore rescales scores so the highest becomes maxPriority (and, with reverse, the
// highest becomes 0 and zero becomes maxPriority). All zero stays all zero, or all maxPriority when
// reversed: nobody is worse than anybody else.
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores framework.NodeScoreList) *framework.Status {
	var maxCount int64
	for i := range scores {
		maxCount = max(maxCount, scores[i].Score)
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		s := maxPriority * scores[i].Score / maxCount
		if reverse {
			s = maxPriority - s
		}
		scores[i].Score = s
	}
	return nil
}

// nodeSelectorMatches reports whether any term of sel matches node (terms are ORed). A selector with
// no terms matches nothing.
func nodeSelectorMatches(sel *api.NodeSelector, node *api.Node) bool {
	for i := range sel.NodeSelectorTerms {
		if nodeSelectorTermMatches(&sel.NodeSelectorTerms[i], node) {
			return true
		}
	}
	return false
}

// nodeSelectorTermMatches reports whether every requirement of the term matches (requirements are
// ANDed). An empty term matches nothing.
func nodeSelectorTermMatches(term *api.NodeSelectorTerm, node *api.Node) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false
	}
	for i := range term.MatchExpressions {
		r := &term.MatchExpressions[i]
		v, ok := node.Labels[r.Key]
		if !requirementMatches(r, v, ok) {
			return false
		}
	}
	for i := range term.MatchFields {
		r := &term.MatchFields[i]
		// metadata.name is the only field a node selector may name.
		if r.Key != "metadata.name" || !requirementMatches(r, node.Name, true) {
			return false
		}
	}
	return true
}

func requirementMatches(r *api.NodeSelectorRequirement, value string, present bool) bool {
	switch r.Operator {
	case api.NodeSelectorOpIn:
		return present && contains(r.Values, value)
	case api.NodeSelectorOpNotIn:
		return !present || !contains(r.Values, value)
	case api.NodeSelectorOpExists:
		return present
	case api.NodeSelectorOpDoesNotExist:
		return !present
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if !present || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(value, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == api.NodeSelectorOpGt {
			return have > want
		}
		return have < want
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// findUntoleratedTaint returns the first taint accepted by inScope that no toleration tolerates.
func findUntoleratedTaint(taints []api.Taint, tolerations []api.Toleration, inScope func(*api.Taint) bool) (*api.Taint, bool) {
	for i := range taints {
		t := &taints[i]
		if !inScope(t) {
			continue
		}
		if !tolerationsTolerate(tolerations, t) {
			return t, true
		}
	}
	return nil, false
}

func tolerationsTolerate(tolerations []api.Toleration, taint *api.Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// podMatchesNodeSelectorAndAffinity is the required part of node affinity: spec.nodeSelector and
// requiredDuringSchedulingIgnoredDuringExecution must both match. PodTopologySpread uses it too, to
// count only the nodes the pod could land on.
func podMatchesNodeSelectorAndAffinity(pod *api.Pod, node *api.Node) bool {
	for k, v := range pod.Spec.NodeSelector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		return nodeSelectorMatches(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution, node)
	}
	return true
}
