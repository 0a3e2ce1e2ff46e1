// podupdate.go: what may change in a pod after it is created (k8s.io/kubernetes
// pkg/apis/core/validation ValidatePodUpdate). Interface: ValidatePodUpdate.
//
// A pod is a running thing, not a template: the kubelet has already created containers from its
// spec, so almost nothing in the spec may change. Only a container's image may be replaced (the
// kubelet restarts that container), tolerations may be added (the node lifecycle controller and
// taint-based eviction rely on that), and a negative terminationGracePeriodSeconds may be fixed to 1.
// Everything else needs a new pod, which is why workloads roll out by replacing pods.
package validation

import (
	"strings"

	"kubesim/api"
	"kubesim/api/field"
)

// podUpdateForbiddenMsg is Kubernetes' message, word for word. Kubernetes appends a diff of the
// spec; kubesim does not.
const podUpdateForbiddenMsg = "pod updates may not change fields other than " +
	"`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// ValidatePodUpdate checks a pod update: the new pod must be valid, and its spec may differ from
// the old one only in the ways listed above.
func ValidatePodUpdate(newPod, oldPod *api.Pod) field.ErrorList {
	errs := ValidatePod(newPod)
	specPath := field.NewPath("spec")
	containersPath := specPath.Child("containers")
	if len(newPod.Spec.Containers) != len(oldPod.Spec.Containers) {
		return append(errs, field.Forbidden(containersPath, "pod updates may not add or remove containers"))
	}
	for i, c := range newPod.Spec.Containers {
		if strings.TrimSpace(c.Image) != c.Image {
			errs = append(errs, field.Invalid(containersPath.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
	}
	errs = append(errs, validateOnlyAddedTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations, specPath.Child("tolerations"))...)

	// Copy the fields that may change from the old pod into a copy of the new one; whatever still
	// differs is a forbidden change.
	munged := api.DeepCopy(newPod)
	for i := range munged.Spec.Containers {
		munged.Spec.Containers[i].Image = oldPod.Spec.Containers[i].Image
	}
	munged.Spec.Tolerations = oldPod.Spec.Tolerations
	if old, cur := oldPod.Spec.TerminationGracePeriodSeconds, munged.Spec.TerminationGracePeriodSeconds; old != nil && *old < 0 && cur != nil && *cur == 1 {
		munged.Spec.TerminationGracePeriodSeconds = old
	}
	if !api.SpecEqual(munged, oldPod) {
		errs = append(errs, field.Forbidden(specPath, podUpdateForbiddenMsg))
	}
	return errs
}

// validateOnlyAddedTolerations: every old toleration must still be there, except that its
// tolerationSeconds may change.
func validateOnlyAddedTolerations(newTolerations, oldTolerations []api.Toleration, path *field.Path) field.ErrorList {
	for _, old := range oldTolerations {
		found := false
		for _, cur := range newTolerations {
			if old.Key == cur.Key && old.Operator == cur.Operator && old.Value == cur.Value && old.Effect == cur.Effect {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(path, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return nil
}
