// rbac.go: RBAC validation (k8s.io/kubernetes pkg/apis/rbac/validation): Role, ClusterRole,
// RoleBinding, ClusterRoleBinding. Interface: ValidateRole, ValidateClusterRole, ValidateRoleBinding,
// ValidateClusterRoleBinding, ValidateRoleBindingUpdate, ValidateClusterRoleBindingUpdate.
//
// RBAC names are path segments rather than DNS names, so "system:kube-scheduler" is a valid name.
package validation

import (
	"slices"

	"kubesim/api"
	"kubesim/api/field"
)

// ValidateRole checks a Role: every rule needs verbs, and a namespaced rule cannot grant
// non-resource URLs such as /healthz (they belong to no namespace).
func ValidateRole(r *api.Role) field.ErrorList {
	errs := ValidateObjectMeta(&r.ObjectMeta, true, NameIsPathSegment, field.NewPath("metadata"))
	return append(errs, validatePolicyRules(r.Rules, true)...)
}

// ValidateClusterRole checks a ClusterRole.
func ValidateClusterRole(r *api.ClusterRole) field.ErrorList {
	errs := ValidateObjectMeta(&r.ObjectMeta, false, NameIsPathSegment, field.NewPath("metadata"))
	return append(errs, validatePolicyRules(r.Rules, false)...)
}

func validatePolicyRules(rules []api.PolicyRule, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	for i, rule := range rules {
		path := field.NewPath("rules").Index(i)
		if len(rule.Verbs) == 0 {
			errs = append(errs, field.Required(path.Child("verbs"), "verbs must contain at least one value"))
		}
		if len(rule.NonResourceURLs) > 0 {
			if namespaced {
				errs = append(errs, field.Invalid(path.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
			}
			if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
				errs = append(errs, field.Invalid(path.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
			}
			continue
		}
		if len(rule.APIGroups) == 0 {
			errs = append(errs, field.Required(path.Child("apiGroups"), "resource rules must supply at least one api group"))
		}
		if len(rule.Resources) == 0 {
			errs = append(errs, field.Required(path.Child("resources"), "resource rules must supply at least one resource"))
		}
	}
	return errs
}

// ValidateRoleBinding checks a RoleBinding, which may grant a Role or a ClusterRole (the latter only
// within the binding's namespace).
func ValidateRoleBinding(b *api.RoleBinding) field.ErrorList {
	errs := ValidateObjectMeta(&b.ObjectMeta, true, NameIsPathSegment, field.NewPath("metadata"))
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"Role", "ClusterRole"})...)
	return append(errs, validateSubjects(b.Subjects, true)...)
}

// ValidateClusterRoleBinding checks a ClusterRoleBinding, which can only grant a ClusterRole.
func ValidateClusterRoleBinding(b *api.ClusterRoleBinding) field.ErrorList {
	errs := ValidateObjectMeta(&b.ObjectMeta, false, NameIsPathSegment, field.NewPath("metadata"))
	errs = append(errs, validateRoleRef(b.RoleRef, []string{"ClusterRole"})...)
	return append(errs, validateSubjects(b.Subjects, false)...)
}

// ValidateRoleBindingUpdate checks a RoleBinding update. roleRef is fixed: changing what a binding
// grants would silently change every subject's permissions, so Kubernetes makes you delete and
// recreate the binding instead.
func ValidateRoleBindingUpdate(newB, oldB *api.RoleBinding) field.ErrorList {
	return append(ValidateRoleBinding(newB), validateRoleRefUnchanged(newB.RoleRef, oldB.RoleRef)...)
}

// ValidateClusterRoleBindingUpdate checks a ClusterRoleBinding update; roleRef is fixed.
func ValidateClusterRoleBindingUpdate(newB, oldB *api.ClusterRoleBinding) field.ErrorList {
	return append(ValidateClusterRoleBinding(newB), validateRoleRefUnchanged(newB.RoleRef, oldB.RoleRef)...)
}

func validateRoleRefUnchanged(newRef, oldRef api.RoleRef) field.ErrorList {
	if newRef != oldRef {
		return field.ErrorList{field.Invalid(field.NewPath("roleRef"), newRef, "cannot change roleRef")}
	}
	return nil
}

func validateRoleRef(ref api.RoleRef, kinds []string) field.ErrorList {
	var errs field.ErrorList
	path := field.NewPath("roleRef")
	if ref.APIGroup != api.RBACGroupName {
		errs = append(errs, field.NotSupported(path.Child("apiGroup"), ref.APIGroup, []string{api.RBACGroupName}))
	}
	if !slices.Contains(kinds, ref.Kind) {
		errs = append(errs, field.NotSupported(path.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), ""))
	} else {
		errs = append(errs, validateName(func(n string) []string { return NameIsPathSegment(n, false) }, ref.Name, path.Child("name"))...)
	}
	return errs
}

// validateSubjects: a ServiceAccount subject is a namespaced object in the core group; Users and
// Groups are plain strings from the authenticator, in the RBAC group.
func validateSubjects(subjects []api.Subject, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	for i, s := range subjects {
		path := field.NewPath("subjects").Index(i)
		if s.Name == "" {
			errs = append(errs, field.Required(path.Child("name"), ""))
		}
		switch s.Kind {
		case api.ServiceAccountKind:
			if s.Name != "" {
				errs = append(errs, validateName(IsDNS1123Subdomain, s.Name, path.Child("name"))...)
			}
			if s.APIGroup != "" {
				errs = append(errs, field.NotSupported(path.Child("apiGroup"), s.APIGroup, []string{""}))
			}
			if !namespaced && s.Namespace == "" {
				errs = append(errs, field.Required(path.Child("namespace"), ""))
			}
		case api.UserKind, api.GroupKind:
			if s.APIGroup != api.RBACGroupName {
				errs = append(errs, field.NotSupported(path.Child("apiGroup"), s.APIGroup, []string{api.RBACGroupName}))
			}
		default:
			errs = append(errs, field.NotSupported(path.Child("kind"), s.Kind,
				[]string{api.ServiceAccountKind, api.UserKind, api.GroupKind}))
		}
	}
	return errs
}
