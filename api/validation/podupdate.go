// podupdate.go: what may change in a pod after it is created (k8s.io/kubernetes
// pkg/apis/core/validation ValidatePodUpdate), and what a write of its status may say
// (ValidatePodStatusUpdate). Interface: ValidatePodUpdate, ValidatePodStatusUpdate.
//
// A pod is a running thing, not a template: the kubelet has already created containers from its
// spec, so almost nothing in the spec may change. Only a container's image may be replaced (the
// kubelet restarts that container), tolerations may be added (the node lifecycle controller and
// taint-based eviction rely on that), and a negative terminationGracePeriodSeconds may be fixed to 1.
// Everything else needs a new pod, which is why workloads roll out by replacing pods.
package validation

import (
	"net/netip"
	"slices"
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

// ValidatePodStatusUpdate checks a write of a pod's status subresource, as Kubernetes'
// ValidatePodStatusUpdate does for the fields kubesim's pods have: condition types, the nominated
// node's name, the QoS class (fixed at creation), containers that may not restart leaving the
// terminated state, and the pod's IPs. The spec and metadata are the old pod's: a status write keeps
// them (the apiserver copies the new status onto the stored pod), so they are not checked again.
func ValidatePodStatusUpdate(newPod, oldPod *api.Pod) field.ErrorList {
	var errs field.ErrorList
	status := field.NewPath("status")
	for i, c := range newPod.Status.Conditions {
		switch c.Type {
		case api.PodScheduled, api.PodReady, api.PodInitialized:
		default:
			errs = append(errs, ValidateLabelName(string(c.Type), status.Child("conditions").Index(i).Child("Type"))...)
		}
	}
	if newPod.Spec.NodeName != oldPod.Spec.NodeName {
		errs = append(errs, field.Forbidden(status.Child("nodeName"), "may not be changed directly"))
	}
	if n := newPod.Status.NominatedNodeName; n != oldPod.Status.NominatedNodeName && n != "" {
		for _, msg := range IsDNS1123Subdomain(n) {
			errs = append(errs, field.Invalid(status.Child("nominatedNodeName"), n, msg))
		}
	}
	if newPod.Status.QOSClass != oldPod.Status.QOSClass {
		errs = append(errs, field.Invalid(status.Child("qosClass"), newPod.Status.QOSClass, "field is immutable"))
	}
	errs = append(errs, validateContainerStateTransition(newPod.Status.ContainerStatuses, oldPod.Status.ContainerStatuses,
		oldPod.Spec.RestartPolicy, status.Child("containerStatuses"))...)
	errs = append(errs, validateContainerStateTransition(newPod.Status.InitContainerStatuses, oldPod.Status.InitContainerStatuses,
		oldPod.Spec.RestartPolicy, status.Child("initContainerStatuses"))...)
	return append(errs, validatePodIPs(newPod, oldPod, status.Child("podIPs"))...)
}

// validateContainerStateTransition: unless the pod restarts its containers (restartPolicy Always,
// or OnFailure after a failure), a terminated container stays terminated.
func validateContainerStateTransition(newStatuses, oldStatuses []api.ContainerStatus, policy api.RestartPolicy, path *field.Path) field.ErrorList {
	if policy == api.RestartPolicyAlways {
		return nil
	}
	var errs field.ErrorList
	for i, old := range oldStatuses {
		if old.State.Terminated == nil || old.State.Terminated.ExitCode != 0 && policy == api.RestartPolicyOnFailure {
			continue
		}
		for _, cur := range newStatuses {
			if cur.Name == old.Name && cur.State.Terminated == nil {
				errs = append(errs, field.Forbidden(path.Index(i).Child("state"), "may not be transitioned to non-terminated state"))
			}
		}
	}
	return errs
}

// validatePodIPs: every new pod IP is an IP address (one the pod already had may stay as it was),
// and two are one of each family.
func validatePodIPs(newPod, oldPod *api.Pod, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	families := map[bool]int{}
	for i, ip := range newPod.Status.PodIPs {
		if addr, err := netip.ParseAddr(ip.IP); err == nil {
			families[addr.Is4()]++
		}
		if !slices.ContainsFunc(oldPod.Status.PodIPs, func(o api.PodIP) bool { return o.IP == ip.IP }) {
			errs = append(errs, validateIP(ip.IP, path.Index(i))...)
		}
	}
	if n := len(newPod.Status.PodIPs); n > 2 || n == 2 && (families[true] > 1 || families[false] > 1) {
		errs = append(errs, field.Invalid(path, newPod.Status.PodIPs, "may specify no more than one IP for each IP family"))
	}
	return errs
}
