// disruption.go: PodDisruptionBudget (k8s.io/kubernetes pkg/apis/policy/validation
// ValidatePodDisruptionBudget): minAvailable or maxUnavailable, not both, each a non-negative count or
// a percentage of at most 100%, and a valid selector. Interface: ValidatePodDisruptionBudget.
package validation

import (
	"kubesim/api"
	"kubesim/api/field"
)

// ValidatePodDisruptionBudget checks a PodDisruptionBudget's metadata and spec.
func ValidatePodDisruptionBudget(pdb *api.PodDisruptionBudget) field.ErrorList {
	errs := ValidateObjectMeta(&pdb.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	spec, path := &pdb.Spec, field.NewPath("spec")
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(path.Child("minAvailable"), spec.MinAvailable.String(), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, v := range []struct {
		name  string
		value *api.IntOrString
	}{{"minAvailable", spec.MinAvailable}, {"maxUnavailable", spec.MaxUnavailable}} {
		if v.value != nil {
			errs = append(errs, validatePositiveIntOrPercent(v.value, path.Child(v.name))...)
			errs = append(errs, validateNotMoreThan100Percent(v.value, path.Child(v.name))...)
		}
	}
	if spec.Selector != nil {
		errs = append(errs, ValidateLabelSelector(spec.Selector, path.Child("selector"))...)
	}
	return errs
}
