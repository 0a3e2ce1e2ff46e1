// pod.go: Pod and PodSpec validation (k8s.io/kubernetes pkg/apis/core/validation: ValidatePodCreate,
// ValidatePodSpec, ValidatePodTemplateSpec). Interface: ValidatePod, ValidatePodSpec,
// ValidatePodTemplateSpec. Containers live in container.go, scheduling constraints in scheduling.go,
// update rules in podupdate.go.
package validation

import (
	"kubesim/api"
	"kubesim/api/field"
)

var (
	supportedRestartPolicies = []api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}
	supportedDNSPolicies     = []api.DNSPolicy{api.DNSClusterFirstWithHostNet, api.DNSClusterFirst, api.DNSDefault, api.DNSNone}
	supportedPreemption      = []api.PreemptionPolicy{api.PreemptLowerPriority, api.PreemptNever}
)

// ValidatePod checks a pod on create: metadata (a namespaced DNS-1123 subdomain name) and spec.
func ValidatePod(pod *api.Pod) field.ErrorList {
	errs := ValidateObjectMeta(&pod.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, ValidatePodSpec(&pod.Spec, field.NewPath("spec"))...)
}

// ValidatePodTemplateSpec checks the pod template of a workload. As in Kubernetes, template label
// and annotation errors are reported at <path>.labels and <path>.annotations (no "metadata").
func ValidatePodTemplateSpec(template *api.PodTemplateSpec, path *field.Path) field.ErrorList {
	errs := ValidateLabels(template.Labels, path.Child("labels"))
	errs = append(errs, ValidateAnnotations(template.Annotations, path.Child("annotations"))...)
	return append(errs, validatePodSpec(&template.Spec, path.Child("spec"), false)...)
}

// ValidatePodSpec checks a Pod's spec. It expects a defaulted spec, as Kubernetes does:
// restartPolicy, dnsPolicy, each container's imagePullPolicy and each port's protocol are required
// here because defaulting fills them in before validation runs.
func ValidatePodSpec(spec *api.PodSpec, path *field.Path) field.ErrorList {
	return validatePodSpec(spec, path, true)
}

// validatePodSpec checks a pod spec, in a Pod (pod) or in a template.
func validatePodSpec(spec *api.PodSpec, path *field.Path, pod bool) field.ErrorList {
	volumes, errs := validateVolumes(spec.Volumes, path.Child("volumes"))
	errs = append(errs, validateContainers(spec.Containers, path.Child("containers"))...)
	for i := range spec.Containers {
		errs = append(errs, validateVolumeMounts(spec.Containers[i].VolumeMounts, volumes, path.Child("containers").Index(i).Child("volumeMounts"))...)
	}
	errs = append(errs, validateInitContainers(spec, volumes, path.Child("initContainers"))...)
	errs = append(errs, validateEnum(spec.RestartPolicy, supportedRestartPolicies, path.Child("restartPolicy"))...)
	errs = append(errs, validateEnum(spec.DNSPolicy, supportedDNSPolicies, path.Child("dnsPolicy"))...)
	errs = append(errs, ValidateLabels(spec.NodeSelector, path.Child("nodeSelector"))...)
	errs = append(errs, validateHostNetwork(spec, path.Child("containers"), pod)...)
	errs = append(errs, validateOptionalLabel(spec.Hostname, path.Child("hostname"))...)
	errs = append(errs, validateOptionalLabel(spec.Subdomain, path.Child("subdomain"))...)
	errs = append(errs, validateAffinity(spec.Affinity, path.Child("affinity"))...)
	errs = append(errs, ValidateTolerations(spec.Tolerations, path.Child("tolerations"))...)
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, path.Child("topologySpreadConstraints"))...)
	errs = append(errs, validateOptionalName(spec.ServiceAccountName, path.Child("serviceAccountName"))...)
	errs = append(errs, validateOptionalName(spec.NodeName, path.Child("nodeName"))...)
	errs = append(errs, validateOptionalName(spec.PriorityClassName, path.Child("priorityClassName"))...)
	errs = append(errs, validateOptionalName(spec.SchedulerName, path.Child("schedulerName"))...)
	if spec.PreemptionPolicy != nil {
		errs = append(errs, validateEnum(*spec.PreemptionPolicy, supportedPreemption, path.Child("preemptionPolicy"))...)
	}
	return errs
}

// validateHostNetwork (validatePodHostNetworkDeps in Kubernetes): a pod on the host network listens
// on the node's own ports, so a container port cannot be remapped; a Pod's hostPort (defaulted from
// containerPort) must equal it. A template may leave hostPort 0: the Pod made from it gets the
// default.
func validateHostNetwork(spec *api.PodSpec, containersPath *field.Path, pod bool) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range spec.Containers {
		for j, port := range c.Ports {
			if (pod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				errs = append(errs, field.Invalid(containersPath.Index(i).Child("ports").Index(j).Child("hostPort"),
					port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}
