//go:build !solution

// validate.go: the plugin's one decision. This is where you work.
package admissionlatest

import (
	"context"

	"kubesim/apiserver"
	"kubesim/lab"
)

// Validate refuses a pod (r.Resource "pods", r.Object a *api.Pod) one of whose containers has an image
// without a tag or with the tag latest; it answers every other request nil. The error's text is what
// kubectl prints after `pods "web" is forbidden: `.
func (DisallowLatest) Validate(_ context.Context, r apiserver.AdmissionRequest) error {
	// TODO(lab): for a pod, look at each container's Image and return an error such as
	// fmt.Errorf("container %s: image %q has no pinned tag (latest); use a version, such as nginx:1.25", ...)
	// when it has no tag or the tag latest. Careful: in "registry:5000/app" the colon is not a tag.
	return lab.TODO("write DisallowLatest.Validate in examples/labs/admission-latest/validate.go")
}
