// prefilterresult.go: PreFilterResult, a PreFilter plugin's way of saying "only these nodes can
// work" before any Filter runs (framework.PreFilterResult in Kubernetes). NodeAffinity returns one
// for a pod whose required affinity names nodes by metadata.name, as every DaemonSet pod's does: the
// cycle then filters only those nodes, and counts each of the others as
// `node(s) didn't satisfy plugin(s) [NodeAffinity]`. Interface: PreFilterResult, AllNodes, Merge.
package framework

// PreFilterResult names the only nodes worth filtering. A nil result, or nil NodeNames, means every
// node.
type PreFilterResult struct {
	NodeNames map[string]bool
}

// AllNodes reports whether the result leaves every node in.
func (r *PreFilterResult) AllNodes() bool { return r == nil || r.NodeNames == nil }

// Merge intersects two results: a node must be left in by both.
func (r *PreFilterResult) Merge(in *PreFilterResult) *PreFilterResult {
	switch {
	case r.AllNodes() && in.AllNodes():
		return nil
	case r.AllNodes():
		return &PreFilterResult{NodeNames: clone(in.NodeNames)}
	case in.AllNodes():
		return &PreFilterResult{NodeNames: clone(r.NodeNames)}
	}
	out := &PreFilterResult{NodeNames: map[string]bool{}}
	for name := range r.NodeNames {
		if in.NodeNames[name] {
			out.NodeNames[name] = true
		}
	}
	return out
}

func clone(s map[string]bool) map[string]bool {
	out := make(map[string]bool, len(s))
	for k := range s {
		out[k] = true
	}
	return out
}
