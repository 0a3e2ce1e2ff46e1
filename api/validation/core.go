// core.go: the small core/v1 kinds (k8s.io/kubernetes pkg/apis/core/validation): Namespace,
// ServiceAccount and ResourceQuota. Interface: ValidateNamespace, ValidateServiceAccount,
// ValidateResourceQuota.
package validation

import (
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
	"kubesim/api/resource"
)

// ValidateNamespace checks a Namespace: a cluster-scoped DNS-1123 label name (it becomes part of
// DNS names such as nginx.default.svc), and valid spec finalizers.
func ValidateNamespace(ns *api.Namespace) field.ErrorList {
	errs := ValidateObjectMeta(&ns.ObjectMeta, false, NameIsDNSLabel, field.NewPath("metadata"))
	for _, f := range ns.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(string(f), field.NewPath("spec", "finalizers"))...)
	}
	return errs
}

// ValidateServiceAccount checks a ServiceAccount: a namespaced DNS-1123 subdomain name.
func ValidateServiceAccount(sa *api.ServiceAccount) field.ErrorList {
	return ValidateObjectMeta(&sa.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
}

// ValidateResourceQuota checks a ResourceQuota's hard limits: known resource names, no negative
// amounts, and whole numbers for resources that are counted (pods, services, count/...).
func ValidateResourceQuota(q *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMeta(&q.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	hardPath := field.NewPath("spec", "hard")
	for _, name := range sortedKeys(q.Spec.Hard) {
		path := hardPath.Key(string(name))
		errs = append(errs, validateQuotaResourceName(name, path)...)
		value := q.Spec.Hard[name]
		errs = append(errs, validateNonnegativeQuantity(value, path)...)
		if isCountedQuotaResource(name) && value.MilliValue()%1000 != 0 {
			errs = append(errs, field.Invalid(path, value.String(), isNotIntegerErrorMsg))
		}
	}
	return errs
}

// standardQuotaResources are the unqualified names a quota may limit.
var standardQuotaResources = []resource.ResourceName{
	resource.ResourceCPU, resource.ResourceMemory, resource.ResourceEphemeralStorage, resource.ResourcePods,
	api.ResourceRequestsCPU, api.ResourceRequestsMemory, api.ResourceLimitsCPU, api.ResourceLimitsMemory,
	api.ResourceServices, "requests.ephemeral-storage", "limits.ephemeral-storage", "requests.storage",
	"persistentvolumeclaims", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
	"services.nodeports", "services.loadbalancers",
}

func validateQuotaResourceName(name resource.ResourceName, path *field.Path) field.ErrorList {
	errs := validateName(labels.IsQualifiedName, string(name), path)
	if len(errs) == 0 && !strings.Contains(string(name), "/") && !slices.Contains(standardQuotaResources, name) {
		errs = append(errs, field.Invalid(path, name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// isCountedQuotaResource: object counts are whole numbers; cpu and memory are not.
func isCountedQuotaResource(name resource.ResourceName) bool {
	switch name {
	case resource.ResourceCPU, resource.ResourceMemory, resource.ResourceEphemeralStorage,
		api.ResourceRequestsCPU, api.ResourceRequestsMemory, api.ResourceLimitsCPU, api.ResourceLimitsMemory,
		"requests.ephemeral-storage", "limits.ephemeral-storage", "requests.storage":
		return false
	}
	return true
}
