// scheduling.go: the parts of a pod spec that constrain where it may run (k8s.io/kubernetes
// pkg/apis/core/validation): tolerations, node and pod (anti-)affinity, topology spread constraints,
// and the taint effects that nodes and tolerations share. Interface: ValidateTolerations.
package validation

import (
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

var (
	supportedTaintEffects = []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
	supportedTolerationOp = []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}
	supportedSpreadAction = []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}
)

// validateTaintEffect checks a taint's or toleration's effect; a toleration may leave it empty to
// tolerate every effect.
func validateTaintEffect(effect api.TaintEffect, allowEmpty bool, path *field.Path) field.ErrorList {
	if effect == "" && allowEmpty {
		return nil
	}
	return validateEnum(effect, supportedTaintEffects, path)
}

// ValidateTolerations checks a pod's tolerations. An empty key with operator Exists tolerates every
// taint; any other empty key is a mistake. tolerationSeconds only means something for NoExecute,
// the effect that evicts running pods.
func ValidateTolerations(tolerations []api.Toleration, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tolerations {
		idx := path.Index(i)
		if t.Key != "" {
			errs = append(errs, ValidateLabelName(t.Key, idx.Child("key"))...)
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, field.Invalid(idx.Child("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(idx.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := labels.IsValidLabelValue(t.Value); len(msgs) > 0 {
				errs = append(errs, field.Invalid(idx.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(idx.Child("operator"), t, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, field.NotSupported(idx.Child("operator"), t.Operator, supportedTolerationOp))
		}
		errs = append(errs, validateTaintEffect(t.Effect, true, idx.Child("effect"))...)
	}
	return errs
}

func validateAffinity(a *api.Affinity, path *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		naPath := path.Child("nodeAffinity")
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			errs = append(errs, validateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution,
				naPath.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		preferred := naPath.Child("preferredDuringSchedulingIgnoredDuringExecution")
		for i, term := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			errs = append(errs, validateWeight(term.Weight, preferred.Index(i).Child("weight"))...)
			errs = append(errs, validateNodeSelectorTerm(term.Preference, preferred.Index(i).Child("preference"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution,
			pa.PreferredDuringSchedulingIgnoredDuringExecution, path.Child("podAffinity"))...)
	}
	if paa := a.PodAntiAffinity; paa != nil {
		errs = append(errs, validatePodAffinityTerms(paa.RequiredDuringSchedulingIgnoredDuringExecution,
			paa.PreferredDuringSchedulingIgnoredDuringExecution, path.Child("podAntiAffinity"))...)
	}
	return errs
}

func validateWeight(weight int32, path *field.Path) field.ErrorList {
	if weight <= 0 || weight > 100 {
		return field.ErrorList{field.Invalid(path, weight, "must be in the range 1-100")}
	}
	return nil
}

// validateNodeSelector checks required node affinity: terms are ORed, so an empty list would match
// no node at all.
func validateNodeSelector(sel *api.NodeSelector, path *field.Path) field.ErrorList {
	termsPath := path.Child("nodeSelectorTerms")
	if len(sel.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(termsPath, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, term := range sel.NodeSelectorTerms {
		errs = append(errs, validateNodeSelectorTerm(term, termsPath.Index(i))...)
	}
	return errs
}

func validateNodeSelectorTerm(term api.NodeSelectorTerm, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, req := range term.MatchExpressions {
		errs = append(errs, validateNodeSelectorRequirement(req, path.Child("matchExpressions").Index(i))...)
	}
	for i, req := range term.MatchFields {
		errs = append(errs, validateNodeFieldSelectorRequirement(req, path.Child("matchFields").Index(i))...)
	}
	return errs
}

// validateNodeSelectorRequirement: In/NotIn need values, Exists/DoesNotExist take none, and the
// numeric Gt/Lt take exactly one.
func validateNodeSelectorRequirement(req api.NodeSelectorRequirement, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	values := path.Child("values")
	switch req.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(req.Values) == 0 {
			errs = append(errs, field.Required(values, "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
		if len(req.Values) > 0 {
			errs = append(errs, field.Forbidden(values, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(req.Values) != 1 {
			errs = append(errs, field.Required(values, "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		errs = append(errs, field.Invalid(path.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	errs = append(errs, ValidateLabelName(req.Key, path.Child("key"))...)
	for i, v := range req.Values {
		errs = append(errs, validateName(labels.IsValidLabelValue, v, values.Index(i))...)
	}
	return errs
}

// validateNodeFieldSelectorRequirement: matchFields can only name metadata.name, with In or NotIn
// and exactly one value (it is how a DaemonSet pins its pod to one node).
func validateNodeFieldSelectorRequirement(req api.NodeSelectorRequirement, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch req.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(req.Values) != 1 {
			errs = append(errs, field.Required(path.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		errs = append(errs, field.Invalid(path.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	if req.Key != "metadata.name" {
		return append(errs, field.Invalid(path.Child("key"), req.Key, "not a valid field selector key"))
	}
	for i, v := range req.Values {
		errs = append(errs, validateName(IsDNS1123Subdomain, v, path.Child("values").Index(i))...)
	}
	return errs
}

func validatePodAffinityTerms(required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	reqPath := path.Child("requiredDuringSchedulingIgnoredDuringExecution")
	for i, term := range required {
		errs = append(errs, validatePodAffinityTerm(term, reqPath.Index(i))...)
	}
	prefPath := path.Child("preferredDuringSchedulingIgnoredDuringExecution")
	for i, wt := range preferred {
		errs = append(errs, validateWeight(wt.Weight, prefPath.Index(i).Child("weight"))...)
		errs = append(errs, validatePodAffinityTerm(wt.PodAffinityTerm, prefPath.Index(i).Child("podAffinityTerm"))...)
	}
	return errs
}

// validatePodAffinityTerm: the topology key is what turns "near these pods" into a domain (a node, a
// zone), so it cannot be empty. Kubernetes reports an empty key twice, as required and as an invalid
// label key; so does kubesim.
func validatePodAffinityTerm(term api.PodAffinityTerm, path *field.Path) field.ErrorList {
	errs := ValidateLabelSelector(term.LabelSelector, path.Child("labelSelector"))
	for _, ns := range term.Namespaces {
		for _, msg := range NameIsDNSLabel(ns, false) {
			errs = append(errs, field.Invalid(path.Child("namespace"), ns, msg))
		}
	}
	if term.TopologyKey == "" {
		errs = append(errs, field.Required(path.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, ValidateLabelName(term.TopologyKey, path.Child("topologyKey"))...)
}

// validateTopologySpreadConstraints: maxSkew is the largest allowed difference in matching pods
// between two domains, so it must be positive; each {topologyKey, whenUnsatisfiable} pair may appear
// once; minDomains only makes sense for the DoNotSchedule filter.
func validateTopologySpreadConstraints(constraints []api.TopologySpreadConstraint, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range constraints {
		idx := path.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(idx.Child("maxSkew"), c.MaxSkew, isNotPositiveErrorMsg))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(idx.Child("topologyKey"), "can not be empty"))
		}
		if !slices.Contains(supportedSpreadAction, c.WhenUnsatisfiable) {
			errs = append(errs, field.NotSupported(idx.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, supportedSpreadAction))
		}
		for _, later := range constraints[i+1:] {
			if c.TopologyKey == later.TopologyKey && c.WhenUnsatisfiable == later.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(idx.Child("{topologyKey, whenUnsatisfiable}"),
					fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, field.Invalid(idx.Child("minDomains"), c.MinDomains, isNotPositiveErrorMsg))
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				errs = append(errs, field.Invalid(idx.Child("minDomains"), c.MinDomains,
					fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		errs = append(errs, ValidateLabelSelector(c.LabelSelector, idx.Child("labelSelector"))...)
	}
	return errs
}
