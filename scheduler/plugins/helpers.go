// helpers.go: small helpers several plugins share: DefaultNormalizeScore (pluginhelper in
// Kubernetes), node selector matching (component-helpers' nodeaffinity) and untolerated-taint
// lookup (v1helper.FindMatchingUntoleratedTaint), and the key under which a selector's pod counts are
// remembered.
package plugins

import (
	"kubesim/api"
	"kubesim/api/labels"
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

// findUntoleratedTaint returns the first taint that no toleration tolerates (the caller passes only
// the taints in scope, e.g. a NodeInfo's NoScheduleTaints).
func findUntoleratedTaint(taints []api.Taint, tolerations []api.Toleration) (*api.Taint, bool) {
	for i := range taints {
		t := &taints[i]
		if !api.TolerationsTolerateTaint(tolerations, t) {
			return t, true
		}
	}
	return nil, false
}

// podMatchesNodeSelectorAndAffinity is the required part of node affinity: spec.nodeSelector and
// requiredDuringSchedulingIgnoredDuringExecution must both match. PodTopologySpread uses it too, to
// count only the nodes the pod could land on.
func podMatchesNodeSelectorAndAffinity(pod *api.Pod, node *api.Node) bool {
	return api.RequiredNodeSelectionMatches(pod, node.Name, node.Labels)
}

// selectsEveryNode reports whether podMatchesNodeSelectorAndAffinity holds on every node: the pod
// has no nodeSelector and no required node affinity.
func selectsEveryNode(pod *api.Pod) bool {
	aff := pod.Spec.Affinity
	return len(pod.Spec.NodeSelector) == 0 &&
		(aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil)
}

// selectorKey names a selector in the key of a question to a NodeInfo's pod counts: its printed form,
// which reads back as a selector that picks the same pods. Everything and Nothing both print as "";
// what they make of no labels at all tells them apart ('<' is not selector syntax).
func selectorKey(sel labels.Selector) string {
	if s := sel.String(); s != "" {
		return s
	}
	if sel.Matches(labels.Set(nil)) {
		return "<everything>"
	}
	return "<nothing>"
}
