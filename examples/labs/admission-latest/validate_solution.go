//go:build solution

// validate_solution.go: the reference solution, built with -tags solution.
package admissionlatest

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/apiserver"
)

// Validate refuses a pod with a container image that has no tag or the tag latest. An image pinned
// by digest (name@sha256:...) is as fixed as can be.
func (DisallowLatest) Validate(_ context.Context, r apiserver.AdmissionRequest) error {
	pod, ok := r.Object.(*api.Pod)
	if r.Resource != "pods" || !ok {
		return nil
	}
	for _, c := range pod.Spec.Containers {
		if tag := imageTag(c.Image); tag == "" || tag == "latest" {
			return fmt.Errorf("container %s: image %q has no pinned tag (latest); use a version, such as nginx:1.25", c.Name, c.Image)
		}
	}
	return nil
}

// imageTag is the tag of an image reference: after the last colon of the last path element, so that a
// registry's port ("registry:5000/app") is not taken for one. A digest counts as a tag.
func imageTag(image string) string {
	if _, digest, ok := strings.Cut(image, "@"); ok {
		return digest
	}
	last := image[strings.LastIndex(image, "/")+1:]
	_, tag, _ := strings.Cut(last, ":")
	return tag
}
