package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

// The downward API's env sources, each rejected with Kubernetes 1.34's words (validateEnvVarValueFrom
// and the selectors it calls), and the paths it accepts.
func TestDownwardAPIEnvValidation(t *testing.T) {
	fieldRef := func(version, path string) *api.EnvVarSource {
		return &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: version, FieldPath: path}}
	}
	resourceRef := func(res, divisor string) *api.EnvVarSource {
		ref := &api.ResourceFieldSelector{Resource: res}
		if divisor != "" {
			ref.Divisor = resource.MustParse(divisor)
		}
		return &api.EnvVarSource{ResourceFieldRef: ref}
	}
	const at = "spec.containers[0].env[0].valueFrom"
	for _, tc := range []struct {
		name string
		from *api.EnvVarSource
		want string // "" when valid
	}{
		{"the pod's name", fieldRef("v1", "metadata.name"), ""},
		{"a label by key", fieldRef("v1", "metadata.labels['app']"), ""},
		{"an annotation by key", fieldRef("v1", "metadata.annotations['example.com/Team']"), ""},
		{"the pod IP", fieldRef("v1", "status.podIP"), ""},
		{"a memory limit in Mi", resourceRef("limits.memory", "1Mi"), ""},
		{"a cpu request in millicores", resourceRef("requests.cpu", "1m"), ""},
		{"huge pages by size", resourceRef("limits.hugepages-2Mi", "1Mi"), ""},
		{"huge pages in a divisor that is not a unit", resourceRef("requests.hugepages-1Gi", "3"),
			at + `.resourceFieldRef.divisor: Invalid value: "requests.hugepages-1Gi": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource`},
		{"all the labels is a volume's, not env's", fieldRef("v1", "metadata.labels"),
			at + `.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`},
		{"a field the pod has no label for", fieldRef("v1", "spec.containers"),
			at + `.fieldRef.fieldPath: Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers`},
		{"a subscript on a plain field", fieldRef("v1", "metadata.name['x']"),
			at + `.fieldRef.fieldPath: Invalid value: "metadata.name['x']": error converting fieldPath: field label does not support subscript: metadata.name['x']`},
		{"another version", fieldRef("v2", "metadata.name"),
			at + `.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`},
		{"a label key that is not a qualified name", fieldRef("v1", "metadata.labels['a b']"),
			at + `.fieldRef: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"a resource env cannot name", resourceRef("limits.pods", ""),
			at + `.resourceFieldRef.resource: Unsupported value: "limits.pods": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`},
		{"a cpu divisor other than 1m or 1", resourceRef("limits.cpu", "100m"),
			at + `.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`},
		{"a memory divisor that is not a unit", resourceRef("requests.memory", "2Mi"),
			at + `.resourceFieldRef.divisor: Invalid value: "requests.memory": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource`},
		{"no source at all", &api.EnvVarSource{},
			at + ": Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"},
		{"two sources", &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"},
			ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu"}},
			at + ": Invalid value: \"\": may not have more than one field specified at a time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := validPodSpec()
			spec.Containers[0].Env = []api.EnvVar{{Name: "X", ValueFrom: tc.from}}
			errs := ValidatePodSpec(&spec, field.NewPath("spec"))
			if tc.want == "" {
				assert.Empty(t, errs)
				return
			}
			if assert.Len(t, errs, 1, "%v", errs) {
				assert.Equal(t, tc.want, errs[0].Error())
			}
		})
	}
}
