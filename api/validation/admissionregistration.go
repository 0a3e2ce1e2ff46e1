// admissionregistration.go: MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// (k8s.io/kubernetes pkg/apis/admissionregistration/validation). A configuration that passes here
// can still point at a webhook that is down: that failure only shows at request time, which is why
// failurePolicy and timeoutSeconds matter. Interface: ValidateWebhookConfiguration.
package validation

import (
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

var (
	supportedFailurePolicies = []api.FailurePolicyType{api.FailurePolicyFail, api.FailurePolicyIgnore}
	supportedSideEffects     = []api.SideEffectClass{api.SideEffectClassNone, api.SideEffectClassNoneOnDryRun}
	supportedOperations      = []api.OperationType{api.OperationAll, api.OperationCreate, api.OperationUpdate, api.OperationDelete, api.OperationConnect}
	supportedReviewVersions  = []string{"v1", "v1beta1"}
	supportedMatchPolicies   = []api.MatchPolicyType{api.MatchPolicyExact, api.MatchPolicyEquivalent}
	supportedReinvocations   = []api.ReinvocationPolicyType{api.ReinvocationNever, api.ReinvocationIfNeeded}
)

// ValidateWebhookConfiguration checks either kind of webhook configuration (any other object is
// reported as not one).
func ValidateWebhookConfiguration(obj api.Object) field.ErrorList {
	hooks, ok := api.WebhooksOf(obj)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), obj.GetTypeMeta().Kind, "not a webhook configuration")}
	}
	errs := ValidateObjectMeta(obj.GetObjectMeta(), false, NameIsDNSSubdomain, field.NewPath("metadata"))
	seen := map[string]bool{}
	for i := range hooks {
		path := field.NewPath("webhooks").Index(i)
		if seen[hooks[i].Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), hooks[i].Name))
		}
		seen[hooks[i].Name] = true
		errs = append(errs, validateWebhook(&hooks[i], path)...)
	}
	return errs
}

func validateWebhook(h *api.Webhook, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	// Webhook names are fully qualified so that two vendors' webhooks cannot collide.
	errs = append(errs, validateName(IsDNS1123Subdomain, h.Name, path.Child("name"))...)
	if h.Name != "" && strings.Count(h.Name, ".") < 2 {
		errs = append(errs, field.Invalid(path.Child("name"), h.Name, "should be a domain with at least three segments separated by dots"))
	}
	if svc := h.ClientConfig.Service; svc == nil {
		errs = append(errs, field.Required(path.Child("clientConfig").Child("service"), "kubesim supports only in-cluster services"))
	} else {
		svcPath := path.Child("clientConfig").Child("service")
		if svc.Namespace == "" {
			errs = append(errs, field.Required(svcPath.Child("namespace"), "service namespace is required"))
		}
		if svc.Name == "" {
			errs = append(errs, field.Required(svcPath.Child("name"), "service name is required"))
		}
		if svc.Path != nil && !strings.HasPrefix(*svc.Path, "/") {
			errs = append(errs, field.Invalid(svcPath.Child("path"), *svc.Path, "must start with a '/'"))
		}
	}
	if len(h.Rules) == 0 {
		errs = append(errs, field.Required(path.Child("rules"), "a webhook without rules is never called"))
	}
	for i, r := range h.Rules {
		errs = append(errs, validateRule(r, path.Child("rules").Index(i))...)
	}
	if h.FailurePolicy != nil && !slices.Contains(supportedFailurePolicies, *h.FailurePolicy) {
		errs = append(errs, field.NotSupported(path.Child("failurePolicy"), *h.FailurePolicy, supportedFailurePolicies))
	}
	if h.TimeoutSeconds != nil && (*h.TimeoutSeconds < 1 || *h.TimeoutSeconds > 30) {
		errs = append(errs, field.Invalid(path.Child("timeoutSeconds"), *h.TimeoutSeconds, "the timeout value must be between 1 and 30 seconds"))
	}
	if h.SideEffects == nil {
		errs = append(errs, field.Required(path.Child("sideEffects"), "must specify one of None, NoneOnDryRun"))
	} else if !slices.Contains(supportedSideEffects, *h.SideEffects) {
		errs = append(errs, field.NotSupported(path.Child("sideEffects"), *h.SideEffects, supportedSideEffects))
	}
	if len(h.AdmissionReviewVersions) == 0 {
		errs = append(errs, field.Required(path.Child("admissionReviewVersions"), "must specify one of v1, v1beta1"))
	}
	for i, v := range h.AdmissionReviewVersions {
		if !slices.Contains(supportedReviewVersions, v) {
			errs = append(errs, field.NotSupported(path.Child("admissionReviewVersions").Index(i), v, supportedReviewVersions))
		}
	}
	if h.NamespaceSelector != nil {
		errs = append(errs, ValidateLabelSelector(h.NamespaceSelector, path.Child("namespaceSelector"))...)
	}
	if h.ObjectSelector != nil {
		errs = append(errs, ValidateLabelSelector(h.ObjectSelector, path.Child("objectSelector"))...)
	}
	if h.MatchPolicy != nil && !slices.Contains(supportedMatchPolicies, *h.MatchPolicy) {
		errs = append(errs, field.NotSupported(path.Child("matchPolicy"), *h.MatchPolicy, supportedMatchPolicies))
	}
	if h.ReinvocationPolicy != nil && !slices.Contains(supportedReinvocations, *h.ReinvocationPolicy) {
		errs = append(errs, field.NotSupported(path.Child("reinvocationPolicy"), *h.ReinvocationPolicy, supportedReinvocations))
	}
	return errs
}

// validateRule checks one rule: every list must say something, even if only "*".
func validateRule(r api.RuleWithOperations, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Operations) == 0 {
		errs = append(errs, field.Required(path.Child("operations"), ""))
	}
	for i, op := range r.Operations {
		if !slices.Contains(supportedOperations, op) {
			errs = append(errs, field.NotSupported(path.Child("operations").Index(i), op, supportedOperations))
		}
	}
	if len(r.APIVersions) == 0 {
		errs = append(errs, field.Required(path.Child("apiVersions"), ""))
	}
	if len(r.Resources) == 0 {
		errs = append(errs, field.Required(path.Child("resources"), ""))
	}
	return errs
}
