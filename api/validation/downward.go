// downward.go: validation of the downward API's env sources (env[*].valueFrom.fieldRef and
// resourceFieldRef): which pod fields and container resources a variable may name, and which
// divisors, as Kubernetes 1.34 allows them (pkg/apis/core/validation: validateObjectFieldSelector,
// validateContainerResourceFieldSelector, validateContainerResourceDivisor).
package validation

import (
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

// envFieldPaths are the pod fields an environment variable may name, besides a label or an
// annotation by key.
var envFieldPaths = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
	"spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}

// podFieldLabels are the paths the v1 Pod's field labels know at all; a path outside them fails
// before the env list is consulted, with the conversion's own words.
var podFieldLabels = append([]string{"metadata.annotations", "metadata.labels", "spec.restartPolicy",
	"spec.schedulerName", "status.phase"}, envFieldPaths...)

// containerResources are the requests and limits a variable may name.
var containerResources = []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory",
	"requests.cpu", "requests.ephemeral-storage", "requests.memory"}

var (
	cpuDivisors  = []string{"1m", "1"}
	byteDivisors = []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}
)

// volumeFieldPaths are the pod fields a downward API volume file may hold, besides a label or an
// annotation by key.
var volumeFieldPaths = []string{"metadata.annotations", "metadata.labels", "metadata.name",
	"metadata.namespace", "metadata.uid"}

// validateFieldRef checks a fieldRef against the paths its use allows (envFieldPaths,
// volumeFieldPaths).
func validateFieldRef(fs *api.ObjectFieldSelector, allowed []string, path *field.Path) field.ErrorList {
	switch {
	case fs.APIVersion == "":
		return field.ErrorList{field.Required(path.Child("apiVersion"), "")}
	case fs.FieldPath == "":
		return field.ErrorList{field.Required(path.Child("fieldPath"), "")}
	}
	if err := convertPodFieldLabel(fs.APIVersion, fs.FieldPath); err != nil {
		return field.ErrorList{field.Invalid(path.Child("fieldPath"), fs.FieldPath, "error converting fieldPath: "+err.Error())}
	}
	if p, key, ok := api.SplitSubscriptedPath(fs.FieldPath); ok {
		var errs field.ErrorList
		if p == "metadata.annotations" {
			key = strings.ToLower(key)
		}
		for _, msg := range labels.IsQualifiedName(key) {
			errs = append(errs, field.Invalid(path, key, msg))
		}
		return errs
	}
	if !slices.Contains(allowed, fs.FieldPath) {
		return field.ErrorList{field.NotSupported(path.Child("fieldPath"), fs.FieldPath, slices.Sorted(slices.Values(allowed)))}
	}
	return nil
}

// convertPodFieldLabel is the check Kubernetes makes when it converts a v1 field label to its
// internal name: the version, and whether the Pod has such a field label.
func convertPodFieldLabel(version, fieldPath string) error {
	if version != "v1" {
		return fmt.Errorf("unsupported pod version: %s", version)
	}
	if p, _, ok := api.SplitSubscriptedPath(fieldPath); ok {
		if p != "metadata.annotations" && p != "metadata.labels" {
			return fmt.Errorf("field label does not support subscript: %s", fieldPath)
		}
		return nil
	}
	if !slices.Contains(podFieldLabels, fieldPath) && fieldPath != "spec.host" {
		return fmt.Errorf("field label not supported: %s", fieldPath)
	}
	return nil
}

func validateResourceFieldRef(fs *api.ResourceFieldSelector, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case fs.Resource == "":
		errs = append(errs, field.Required(path.Child("resource"), ""))
	case !slices.Contains(containerResources, fs.Resource) && !isHugePagesResource(fs.Resource):
		errs = append(errs, field.NotSupported(path.Child("resource"), fs.Resource, containerResources))
	}
	if fs.Divisor.IsZero() {
		return errs
	}
	divisor := fs.Divisor.String()
	switch fs.Resource {
	case "limits.cpu", "requests.cpu":
		if !slices.Contains(cpuDivisors, divisor) {
			errs = append(errs, field.Invalid(path.Child("divisor"), fs.Resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !slices.Contains(byteDivisors, divisor) {
			errs = append(errs, field.Invalid(path.Child("divisor"), fs.Resource, "only divisor's values "+strings.Join(byteDivisors, ", ")+" are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !slices.Contains(byteDivisors, divisor) {
			errs = append(errs, field.Invalid(path.Child("divisor"), fs.Resource, "only divisor's values "+strings.Join(byteDivisors, ", ")+" are supported with the local ephemeral storage resource"))
		}
	}
	if isHugePagesResource(fs.Resource) && !slices.Contains(byteDivisors, divisor) {
		errs = append(errs, field.Invalid(path.Child("divisor"), fs.Resource, "only divisor's values "+strings.Join(byteDivisors, ", ")+" are supported with the hugepages resource"))
	}
	return errs
}

// isHugePagesResource: requests.hugepages-<size> and limits.hugepages-<size> may be named too.
func isHugePagesResource(name string) bool {
	return strings.HasPrefix(name, "requests.hugepages-") || strings.HasPrefix(name, "limits.hugepages-")
}
