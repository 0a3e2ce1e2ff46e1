package field

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Paths render exactly as Kubernetes writes StatusCause.field: dots between fields, [i] for list
// elements and [key] (unquoted) for map entries.
func TestPathStringMatchesKubernetesFieldSyntax(t *testing.T) {
	spec := NewPath("spec")
	cases := []struct {
		name string
		path *Path
		want string
	}{
		{"top-level field", NewPath("metadata"), "metadata"},
		{"nested fields in NewPath", NewPath("metadata", "labels"), "metadata.labels"},
		{"children", spec.Child("template").Child("spec"), "spec.template.spec"},
		{"list element then field",
			spec.Child("template").Child("spec").Child("containers").Index(0).Child("image"),
			"spec.template.spec.containers[0].image"},
		{"map key", spec.Child("containers").Index(1).Child("resources").Child("limits").Key("cpu"),
			"spec.containers[1].resources.limits[cpu]"},
		{"index directly after index", NewPath("a").Index(2).Index(3), "a[2][3]"},
		{"nil path", nil, "<nil>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.path.String())
		})
	}
}

// A validator hands one parent path to many children; deriving a child must not change the parent.
func TestPathChildDoesNotModifyParent(t *testing.T) {
	parent := NewPath("spec", "containers")
	a := parent.Index(0).Child("name")
	b := parent.Index(1).Child("image")
	assert.Equal(t, "spec.containers", parent.String())
	assert.Equal(t, "spec.containers[0].name", a.String())
	assert.Equal(t, "spec.containers[1].image", b.String())
}
