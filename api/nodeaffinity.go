// nodeaffinity.go: matching a node against a pod's node selection (Kubernetes'
// component-helpers/scheduling/corev1/nodeaffinity), shared by the three components that must agree
// on it: the scheduler (which nodes may run the pod), the DaemonSet controller (which nodes get a
// daemon pod) and the kubelet (node admission: NodeAffinity).
package api

import "strconv"

// Matches reports whether any term matches the node (terms are ORed); a selector with no terms
// matches nothing.
func (s *NodeSelector) Matches(nodeName string, nodeLabels map[string]string) bool {
	for i := range s.NodeSelectorTerms {
		if s.NodeSelectorTerms[i].Matches(nodeName, nodeLabels) {
			return true
		}
	}
	return false
}

// Matches reports whether every requirement of the term matches (requirements are ANDed); an empty
// term matches nothing. metadata.name is the only field a term may name.
func (t *NodeSelectorTerm) Matches(nodeName string, nodeLabels map[string]string) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for i := range t.MatchExpressions {
		r := &t.MatchExpressions[i]
		v, ok := nodeLabels[r.Key]
		if !r.Matches(v, ok) {
			return false
		}
	}
	for i := range t.MatchFields {
		r := &t.MatchFields[i]
		if r.Key != "metadata.name" || !r.Matches(nodeName, true) {
			return false
		}
	}
	return true
}

// Matches applies one requirement to a label's value (present false: the node has no such label).
// Gt and Lt compare integers.
func (r *NodeSelectorRequirement) Matches(value string, present bool) bool {
	switch r.Operator {
	case NodeSelectorOpIn:
		return present && containsString(r.Values, value)
	case NodeSelectorOpNotIn:
		return !present || !containsString(r.Values, value)
	case NodeSelectorOpExists:
		return present
	case NodeSelectorOpDoesNotExist:
		return !present
	case NodeSelectorOpGt, NodeSelectorOpLt:
		if !present || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(value, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == NodeSelectorOpGt {
			return have > want
		}
		return have < want
	}
	return false
}

// RequiredNodeSelectionMatches reports whether a node satisfies the pod's spec.nodeSelector and its
// required node affinity (requiredDuringSchedulingIgnoredDuringExecution): both must hold.
func RequiredNodeSelectionMatches(pod *Pod, nodeName string, nodeLabels map[string]string) bool {
	for k, v := range pod.Spec.NodeSelector {
		if got, ok := nodeLabels[k]; !ok || got != v {
			return false
		}
	}
	aff := pod.Spec.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	return aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.Matches(nodeName, nodeLabels)
}

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
