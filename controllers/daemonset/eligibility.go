// eligibility.go: which nodes should run a DaemonSet's pod (nodeShouldRunDaemonPod), judged the way
// the scheduler will judge the pod the controller creates:
//
//	node name     the pod's required node affinity names this node (it always does: see pod.go)
//	node labels   spec.nodeSelector and the required nodeAffinity terms match
//	taints        every NoSchedule and NoExecute taint is tolerated
//
// shouldRun means "create a pod here if there is none"; shouldContinueRunning means "keep the pod
// that is here". They differ for a node that gained an untolerated NoSchedule taint: no new pod,
// but the running one stays, as NoSchedule does for any pod.
package daemonset

import (
	"strconv"

	"kubesim/api"
)

// nodeShouldRunDaemonPod decides for one node.
func nodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	pod := newPod(ds, node.Name)
	if !matchesNodeSelector(pod, node) {
		return false, false
	}
	untoleratedNoSchedule := false
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if t.Effect == api.TaintEffectPreferNoSchedule || tolerated(pod.Spec.Tolerations, t) {
			continue
		}
		if t.Effect == api.TaintEffectNoExecute {
			return false, false
		}
		untoleratedNoSchedule = true
	}
	if untoleratedNoSchedule {
		return false, true
	}
	return true, true
}

func tolerated(ts []api.Toleration, taint *api.Taint) bool {
	for i := range ts {
		if ts[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// matchesNodeSelector checks spec.nodeSelector and the required node affinity against the node's
// labels and name.
func matchesNodeSelector(pod *api.Pod, node *api.Node) bool {
	for k, v := range pod.Spec.NodeSelector {
		if node.Labels[k] != v {
			return false
		}
	}
	aff := pod.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	// Terms are ORed; the requirements inside one term are ANDed.
	for _, term := range aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if termMatches(term, node) {
			return true
		}
	}
	return false
}

func termMatches(term api.NodeSelectorTerm, node *api.Node) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false // an empty term matches nothing
	}
	for _, r := range term.MatchExpressions {
		v, ok := node.Labels[r.Key]
		if !requirementMatches(r, v, ok) {
			return false
		}
	}
	for _, r := range term.MatchFields {
		if r.Key != "metadata.name" || !requirementMatches(r, node.Name, true) {
			return false
		}
	}
	return true
}

func requirementMatches(r api.NodeSelectorRequirement, value string, present bool) bool {
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
