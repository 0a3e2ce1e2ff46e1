package kubectl

import (
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/resource"
)

// describe prints each env source as kubectl's describeContainerEnvVars does: a fieldRef with what it
// resolves to from the pod's metadata (empty for spec and status paths), a resourceFieldRef with the
// container's figure, or "node allocatable" for a limit it does not set.
func TestDescribeEnvShowsDownwardAPISources(t *testing.T) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web"}}}
	c := &api.Container{Name: "web", Resources: api.ResourceRequirements{
		Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse("250m")}}}
	ref := func(path string) *api.EnvVarSource {
		return &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}
	}
	c.Env = []api.EnvVar{
		{Name: "POD_NAME", ValueFrom: ref("metadata.name")},
		{Name: "APP", ValueFrom: ref("metadata.labels['app']")},
		{Name: "NODE", ValueFrom: ref("spec.nodeName")},
		{Name: "CPU", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "requests.cpu", Divisor: resource.MustParse("1m")}}},
		{Name: "MEM", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.memory"}}},
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	describeContainerConfig(w, p, c)
	w.Flush()
	for _, line := range []string{
		"POD_NAME:  web-1 (v1:metadata.name)",
		"APP:       web (v1:metadata.labels['app'])",
		"NODE:       (v1:spec.nodeName)",
		"CPU:       250 (requests.cpu)",
		"MEM:       node allocatable (limits.memory)",
	} {
		assert.Contains(t, b.String(), line)
	}
}
