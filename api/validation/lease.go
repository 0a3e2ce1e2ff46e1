// lease.go: Lease (coordination.k8s.io/v1) and PriorityClass (scheduling.k8s.io/v1) validation.
// Interface: ValidateLease, ValidatePriorityClass, ValidatePriorityClassUpdate.
package validation

import (
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

// ValidateLease checks a Lease: a lease that lasts no time could never be held.
func ValidateLease(l *api.Lease) field.ErrorList {
	errs := ValidateObjectMeta(&l.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, field.Invalid(spec.Child("leaseDurationSeconds"), d, "must be greater than 0"))
	}
	if t := l.Spec.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, field.Invalid(spec.Child("leaseTransitions"), t, isNegativeErrorMsg))
	}
	return errs
}

// systemPriorityClasses are the built-in classes and their fixed values; the "system-" prefix is
// reserved for them.
var systemPriorityClasses = map[string]int32{
	api.SystemClusterCritical: api.SystemCriticalPriority,
	api.SystemNodeCritical:    api.SystemCriticalPriority + 1000,
}

// ValidatePriorityClass checks a PriorityClass: user classes stay at or below one billion, so that
// the system classes always outrank them.
func ValidatePriorityClass(pc *api.PriorityClass) field.ErrorList {
	errs := ValidateObjectMeta(&pc.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	if strings.HasPrefix(pc.Name, "system-") {
		if reason := systemPriorityClassMismatch(pc); reason != "" {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"),
				"priority class names with 'system-' prefix are reserved for system use only. error: "+reason))
		}
	} else if pc.Value > api.HighestUserDefinablePriority {
		errs = append(errs, field.Forbidden(field.NewPath("value"),
			fmt.Sprintf("maximum allowed value of a user defined priority is %v", api.HighestUserDefinablePriority)))
	}
	if pc.PreemptionPolicy != nil {
		errs = append(errs, validateEnum(*pc.PreemptionPolicy, supportedPreemption, field.NewPath("preemptionPolicy"))...)
	}
	return errs
}

func systemPriorityClassMismatch(pc *api.PriorityClass) string {
	value, known := systemPriorityClasses[pc.Name]
	switch {
	case !known:
		return fmt.Sprintf("%v is not a known system priority class", pc.Name)
	case pc.Value != value:
		return fmt.Sprintf("value of %v PriorityClass must be %v", pc.Name, value)
	case pc.GlobalDefault:
		return fmt.Sprintf("globalDefault of %v PriorityClass must be false", pc.Name)
	}
	return ""
}

// ValidatePriorityClassUpdate checks a PriorityClass update: pods already carry the old value in
// spec.priority, so the value (and preemption policy) cannot change.
func ValidatePriorityClassUpdate(newPC, oldPC *api.PriorityClass) field.ErrorList {
	errs := ValidatePriorityClass(newPC)
	if newPC.Value != oldPC.Value {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
	}
	oldPolicy, newPolicy := oldPC.PreemptionPolicy, newPC.PreemptionPolicy
	if (oldPolicy == nil) != (newPolicy == nil) || oldPolicy != nil && *oldPolicy != *newPolicy {
		errs = append(errs, field.Invalid(field.NewPath("preemptionPolicy"), newPolicy, fieldImmutableErrorMsg))
	}
	return errs
}
