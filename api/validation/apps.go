// apps.go: the workload kinds of apps/v1 (k8s.io/kubernetes pkg/apis/apps/validation): Deployment,
// ReplicaSet and DaemonSet, and what may change on update. Interface: ValidateDeployment,
// ValidateReplicaSet, ValidateDaemonSet and their ...Update functions.
//
// The rule they share: a workload finds its pods by its selector and makes new ones from its
// template, so the template's labels must match the selector (or the controller would create pods
// it cannot see, forever), the selector may not select everything, and it may not change after
// creation (or the workload would suddenly own, or orphan, other pods).
package validation

import (
	"fmt"
	"maps"
	"slices"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

// ValidateDeployment checks a Deployment on create.
func ValidateDeployment(d *api.Deployment) field.ErrorList {
	errs := ValidateObjectMeta(&d.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDeploymentSpec(&d.Spec, field.NewPath("spec"))...)
}

// ValidateDeploymentUpdate checks a Deployment update: a valid Deployment with the same selector.
func ValidateDeploymentUpdate(newD, oldD *api.Deployment) field.ErrorList {
	errs := ValidateDeployment(newD)
	return append(errs, validateSelectorUnchanged(newD.Spec.Selector, oldD.Spec.Selector)...)
}

func validateDeploymentSpec(spec *api.DeploymentSpec, path *field.Path) field.ErrorList {
	errs := validateReplicas(spec.Replicas, path.Child("replicas"))
	errs = append(errs, validateWorkloadSelector(spec.Selector, "empty selector is invalid for deployment", path.Child("selector"))...)
	errs = append(errs, validateWorkloadTemplate(&spec.Template, spec.Selector, path.Child("template"))...)
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, path.Child("strategy"))...)
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), path.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), path.Child("revisionHistoryLimit"))...)
	}
	// A rollout is declared stalled after progressDeadlineSeconds without progress; a pod only counts
	// as progress once it has been ready for minReadySeconds, so the deadline must be longer.
	if pds := spec.ProgressDeadlineSeconds; pds != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*pds), path.Child("progressDeadlineSeconds"))...)
		if *pds <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(path.Child("progressDeadlineSeconds"), pds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func validateDeploymentStrategy(s *api.DeploymentStrategy, path *field.Path) field.ErrorList {
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(path.Child("rollingUpdate"),
				fmt.Sprintf("may not be specified when strategy `type` is '%s'", api.RecreateDeploymentStrategyType))}
		}
	case api.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(path.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, path.Child("rollingUpdate"))
	default:
		return field.ErrorList{field.NotSupported(path.Child("type"), s.Type,
			[]api.DeploymentStrategyType{api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType})}
	}
	return nil
}

// validateRollingUpdateDeployment: with maxSurge 0 and maxUnavailable 0 the controller could neither
// add a new pod nor remove an old one, and the rollout would never move.
func validateRollingUpdateDeployment(ru *api.RollingUpdateDeployment, path *field.Path) field.ErrorList {
	unavailablePath := path.Child("maxUnavailable")
	errs := validatePositiveIntOrPercent(ru.MaxUnavailable, unavailablePath)
	errs = append(errs, validatePositiveIntOrPercent(ru.MaxSurge, path.Child("maxSurge"))...)
	if intOrPercentValue(ru.MaxUnavailable) == 0 && intOrPercentValue(ru.MaxSurge) == 0 {
		errs = append(errs, field.Invalid(unavailablePath, ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, validateNotMoreThan100Percent(ru.MaxUnavailable, unavailablePath)...)
}

// ValidateReplicaSet checks a ReplicaSet on create.
func ValidateReplicaSet(rs *api.ReplicaSet) field.ErrorList {
	errs := ValidateObjectMeta(&rs.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"))...)
}

// ValidateReplicaSetUpdate checks a ReplicaSet update: a valid ReplicaSet with the same selector.
func ValidateReplicaSetUpdate(newRS, oldRS *api.ReplicaSet) field.ErrorList {
	errs := ValidateReplicaSet(newRS)
	return append(errs, validateSelectorUnchanged(newRS.Spec.Selector, oldRS.Spec.Selector)...)
}

func validateReplicaSetSpec(spec *api.ReplicaSetSpec, path *field.Path) field.ErrorList {
	errs := validateReplicas(spec.Replicas, path.Child("replicas"))
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), path.Child("minReadySeconds"))...)
	// "for deployment" is what Kubernetes says for ReplicaSets too.
	errs = append(errs, validateWorkloadSelector(spec.Selector, "empty selector is invalid for deployment", path.Child("selector"))...)
	return append(errs, validateWorkloadTemplate(&spec.Template, spec.Selector, path.Child("template"))...)
}

// ValidateDaemonSet checks a DaemonSet on create.
func ValidateDaemonSet(ds *api.DaemonSet) field.ErrorList {
	errs := ValidateObjectMeta(&ds.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"))...)
}

// ValidateDaemonSetUpdate checks a DaemonSet update: a valid DaemonSet with the same selector.
func ValidateDaemonSetUpdate(newDS, oldDS *api.DaemonSet) field.ErrorList {
	errs := ValidateDaemonSet(newDS)
	return append(errs, validateSelectorUnchanged(newDS.Spec.Selector, oldDS.Spec.Selector)...)
}

func validateDaemonSetSpec(spec *api.DaemonSetSpec, path *field.Path) field.ErrorList {
	errs := validateWorkloadSelector(spec.Selector, "empty selector is invalid for daemonset", path.Child("selector"))
	errs = append(errs, validateWorkloadTemplate(&spec.Template, spec.Selector, path.Child("template"))...)
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), path.Child("minReadySeconds"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, path.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), path.Child("revisionHistoryLimit"))...)
	}
	return errs
}

func validateDaemonSetUpdateStrategy(s *api.DaemonSetUpdateStrategy, path *field.Path) field.ErrorList {
	switch s.Type {
	case api.OnDeleteDaemonSetStrategyType:
		return nil
	case api.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(path.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, path.Child("rollingUpdate"))
	}
	return field.ErrorList{field.NotSupported(path, s,
		[]api.DaemonSetUpdateStrategyType{api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType})}
}

// validateRollingUpdateDaemonSet: a DaemonSet rolls a node at a time either by taking the old pod
// down first (maxUnavailable) or by starting the new one next to it (maxSurge), never both.
func validateRollingUpdateDaemonSet(ru *api.RollingUpdateDaemonSet, path *field.Path) field.ErrorList {
	unavailablePath, surgePath := path.Child("maxUnavailable"), path.Child("maxSurge")
	errs := validatePositiveIntOrPercent(ru.MaxUnavailable, unavailablePath)
	errs = append(errs, validatePositiveIntOrPercent(ru.MaxSurge, surgePath)...)
	errs = append(errs, validateNotMoreThan100Percent(ru.MaxUnavailable, unavailablePath)...)
	errs = append(errs, validateNotMoreThan100Percent(ru.MaxSurge, surgePath)...)
	hasUnavailable, hasSurge := intOrPercentValue(ru.MaxUnavailable) != 0, intOrPercentValue(ru.MaxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		errs = append(errs, field.Invalid(surgePath, ru.MaxSurge, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		errs = append(errs, field.Required(unavailablePath, "cannot be 0 when maxSurge is 0"))
	}
	return errs
}

// validateReplicas checks spec.replicas; nil means defaulting has not run and is left to it.
func validateReplicas(replicas *int32, path *field.Path) field.ErrorList {
	if replicas == nil {
		return nil
	}
	return ValidateNonnegativeField(int64(*replicas), path)
}

// validateWorkloadSelector: a workload needs a selector, and one that selects everything would make
// it fight every other workload in the namespace over their pods.
func validateWorkloadSelector(sel *api.LabelSelector, emptyMsg string, path *field.Path) field.ErrorList {
	if sel == nil {
		return field.ErrorList{field.Required(path, "")}
	}
	errs := ValidateLabelSelector(sel, path)
	if selectorIsEmpty(sel) {
		errs = append(errs, field.Invalid(path, sel, emptyMsg))
	}
	return errs
}

// validateWorkloadTemplate checks a workload's pod template: it must carry labels its selector
// matches, it must be a valid pod template, and its pods must restart forever (a workload keeps pods
// running; a pod that may finish belongs to a Job).
func validateWorkloadTemplate(template *api.PodTemplateSpec, sel *api.LabelSelector, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s, ok := asSelector(sel); ok && !s.Empty() && !s.Matches(labels.Set(template.Labels)) {
		errs = append(errs, field.Invalid(path.Child("metadata").Child("labels"), template.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, ValidatePodTemplateSpec(template, path)...)
	if rp := template.Spec.RestartPolicy; rp != "" && rp != api.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(path.Child("spec").Child("restartPolicy"), rp, []api.RestartPolicy{api.RestartPolicyAlways}))
	}
	return errs
}

// validateSelectorUnchanged is the apps/v1 rule that spec.selector is immutable.
func validateSelectorUnchanged(newSel, oldSel *api.LabelSelector) field.ErrorList {
	return ValidateImmutableField(newSel, oldSel, selectorsEqual, field.NewPath("spec", "selector"))
}

func selectorsEqual(a, b *api.LabelSelector) bool {
	if a == nil || b == nil {
		return a == b
	}
	return maps.Equal(a.MatchLabels, b.MatchLabels) &&
		slices.EqualFunc(a.MatchExpressions, b.MatchExpressions, func(x, y api.LabelSelectorRequirement) bool {
			return x.Key == y.Key && x.Operator == y.Operator && slices.Equal(x.Values, y.Values)
		})
}
