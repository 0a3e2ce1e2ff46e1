// node.go: Node validation (k8s.io/kubernetes pkg/apis/core/validation ValidateNode and
// ValidateNodeUpdate). Interface: ValidateNode, ValidateNodeUpdate.
package validation

import (
	"net/netip"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

// ValidateNode checks a Node on create: a cluster-scoped DNS-1123 subdomain name, taints, and the
// pod network ranges.
func ValidateNode(node *api.Node) field.ErrorList {
	errs := ValidateObjectMeta(&node.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateNodeSpec(&node.Spec, field.NewPath("spec"))...)
}

// ValidateNodeUpdate checks a Node update. The pod CIDR may be assigned once (the node IPAM
// controller does it) but never changed: pods on the node already have addresses from it.
func ValidateNodeUpdate(newNode, oldNode *api.Node) field.ErrorList {
	errs := ValidateNode(newNode)
	if old := podCIDRs(&oldNode.Spec); len(old) > 0 && !slices.Equal(old, podCIDRs(&newNode.Spec)) {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "podCIDRs"), "node updates may not change podCIDR except from \"\" to valid"))
	}
	return errs
}

// podCIDRs is the node's ranges as Kubernetes stores them: podCIDRs, or the older single podCIDR.
func podCIDRs(spec *api.NodeSpec) []string {
	if len(spec.PodCIDRs) == 0 && spec.PodCIDR != "" {
		return []string{spec.PodCIDR}
	}
	return spec.PodCIDRs
}

func validateNodeSpec(spec *api.NodeSpec, path *field.Path) field.ErrorList {
	errs := validateNodeTaints(spec.Taints, path.Child("taints"))
	if spec.PodCIDR != "" {
		errs = append(errs, validateCIDR(spec.PodCIDR, path.Child("podCIDR"))...)
	}
	cidrsPath := path.Child("podCIDRs")
	families := map[bool]bool{} // is4 -> seen
	for i, cidr := range spec.PodCIDRs {
		cidrErrs := validateCIDR(cidr, cidrsPath.Index(i))
		errs = append(errs, cidrErrs...)
		if slices.Contains(spec.PodCIDRs[:i], cidr) {
			errs = append(errs, field.Duplicate(cidrsPath.Index(i), cidr))
		}
		if len(cidrErrs) == 0 {
			families[netip.MustParsePrefix(cidr).Addr().Is4()] = true
		}
	}
	// A node has at most one range per IP family: one IPv4, one IPv6 (dual stack).
	if len(spec.PodCIDRs) > 2 || (len(spec.PodCIDRs) == 2 && len(families) == 1) {
		errs = append(errs, field.Invalid(cidrsPath, spec.PodCIDRs, "may specify no more than one CIDR for each IP family"))
	}
	return errs
}

// validateNodeTaints: a taint is unique by key and effect; the same key may carry different effects
// (NoSchedule and NoExecute for not-ready, for instance).
func validateNodeTaints(taints []api.Taint, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[api.TaintEffect]map[string]bool{}
	for i, t := range taints {
		idx := path.Index(i)
		errs = append(errs, ValidateLabelName(t.Key, idx.Child("key"))...)
		if msgs := labels.IsValidLabelValue(t.Value); len(msgs) > 0 {
			errs = append(errs, field.Invalid(idx.Child("value"), t.Value, strings.Join(msgs, ";")))
		}
		errs = append(errs, validateTaintEffect(t.Effect, false, idx.Child("effect"))...)
		if seen[t.Effect][t.Key] {
			dup := field.Duplicate(idx, t)
			dup.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, dup)
			continue
		}
		if seen[t.Effect] == nil {
			seen[t.Effect] = map[string]bool{}
		}
		seen[t.Effect][t.Key] = true
	}
	return errs
}
