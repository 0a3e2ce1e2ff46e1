// labels.go: labels, annotations and label selectors, wherever they appear (metadata, a template, a
// nodeSelector, an affinity term). Interface: ValidateLabels, ValidateLabelName, ValidateAnnotations,
// ValidateLabelSelector.
package validation

import (
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

// TotalAnnotationSizeLimitB is the most bytes all of an object's annotation keys and values may take
// together: annotations are for tools, not for bulk data.
const TotalAnnotationSizeLimitB = 256 * (1 << 10)

// ValidateLabelName checks one label key: `metadata.labels: Invalid value: "-x": name part must ...`.
func ValidateLabelName(key string, path *field.Path) field.ErrorList {
	return validateName(labels.IsQualifiedName, key, path)
}

// ValidateLabels checks every key and value of a label map. As in Kubernetes the errors point at the
// map itself (metadata.labels), not at the key.
func ValidateLabels(ls map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedKeys(ls) {
		errs = append(errs, ValidateLabelName(k, path)...)
		errs = append(errs, validateName(labels.IsValidLabelValue, ls[k], path)...)
	}
	return errs
}

// ValidateAnnotations checks annotation keys (qualified names, compared in lower case) and their
// total size.
func ValidateAnnotations(annotations map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for _, k := range sortedKeys(annotations) {
		for _, msg := range labels.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(path, k, msg))
		}
		size += len(k) + len(annotations[k])
	}
	if size > TotalAnnotationSizeLimitB {
		errs = append(errs, field.TooLong(path, TotalAnnotationSizeLimitB))
	}
	return errs
}

// ValidateLabelSelector checks a metav1.LabelSelector: its matchLabels as labels, and each
// matchExpression's key, operator and number of values. A nil selector is valid here; kinds that
// need one say so themselves.
func ValidateLabelSelector(sel *api.LabelSelector, path *field.Path) field.ErrorList {
	if sel == nil {
		return nil
	}
	errs := ValidateLabels(sel.MatchLabels, path.Child("matchLabels"))
	for i, expr := range sel.MatchExpressions {
		errs = append(errs, validateLabelSelectorRequirement(expr, path.Child("matchExpressions").Index(i))...)
	}
	return errs
}

func validateLabelSelectorRequirement(req api.LabelSelectorRequirement, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch req.Operator {
	case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
		if len(req.Values) == 0 {
			errs = append(errs, field.Required(path.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
		if len(req.Values) > 0 {
			errs = append(errs, field.Forbidden(path.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	default:
		errs = append(errs, field.Invalid(path.Child("operator"), req.Operator, "not a valid selector operator"))
	}
	errs = append(errs, ValidateLabelName(req.Key, path.Child("key"))...)
	for i, v := range req.Values {
		errs = append(errs, validateName(labels.IsValidLabelValue, v, path.Child("values").Index(i))...)
	}
	return errs
}

// asSelector converts a label selector for matching, as metav1.LabelSelectorAsSelector does. ok is
// false when the selector is nil or malformed; ValidateLabelSelector has then already said why.
func asSelector(sel *api.LabelSelector) (s labels.Selector, ok bool) {
	if sel == nil {
		return nil, false
	}
	exprs := make([]labels.Expression, len(sel.MatchExpressions))
	for i, e := range sel.MatchExpressions {
		exprs[i] = labels.Expression{Key: e.Key, Operator: e.Operator, Values: e.Values}
	}
	s, err := labels.SelectorFromLabelSelector(sel.MatchLabels, exprs)
	return s, err == nil
}

// selectorIsEmpty reports a selector that selects everything: no matchLabels, no matchExpressions.
func selectorIsEmpty(sel *api.LabelSelector) bool {
	return len(sel.MatchLabels)+len(sel.MatchExpressions) == 0
}
