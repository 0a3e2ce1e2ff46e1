// objectmeta.go: the metadata checks every kind shares (apimachinery's ValidateObjectMeta, plus the
// finalizer rule of k8s.io/kubernetes' core validation). Interface: ValidateObjectMeta.
package validation

import (
	"fmt"
	"slices"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
)

// The finalizers Kubernetes knows without a domain prefix. Any other finalizer must be qualified
// ("example.com/cleanup") so that two controllers cannot pick the same name by accident.
const (
	finalizerOrphanDependents = "orphan"
	finalizerDeleteDependents = "foregroundDeletion"
)

var standardFinalizers = []string{string(api.FinalizerKubernetes), finalizerOrphanDependents, finalizerDeleteDependents}

// ValidateObjectMeta checks metadata on create. The apiserver has already turned generateName into a
// name, so an empty name means neither was given. namespaced says whether the kind lives in a
// namespace (metadata.namespace required) or not (metadata.namespace forbidden); nameFn is the
// kind's name rule. path is normally metadata.
func ValidateObjectMeta(meta *api.ObjectMeta, namespaced bool, nameFn ValidateNameFunc, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if meta.GenerateName != "" {
		for _, msg := range nameFn(meta.GenerateName, true) {
			errs = append(errs, field.Invalid(path.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			errs = append(errs, field.Invalid(path.Child("name"), meta.Name, msg))
		}
	}
	switch {
	case namespaced && meta.Namespace == "":
		errs = append(errs, field.Required(path.Child("namespace"), ""))
	case namespaced:
		for _, msg := range NameIsDNSLabel(meta.Namespace, false) {
			errs = append(errs, field.Invalid(path.Child("namespace"), meta.Namespace, msg))
		}
	case meta.Namespace != "":
		errs = append(errs, field.Forbidden(path.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, ValidateNonnegativeField(meta.Generation, path.Child("generation"))...)
	errs = append(errs, ValidateLabels(meta.Labels, path.Child("labels"))...)
	errs = append(errs, ValidateAnnotations(meta.Annotations, path.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(meta.OwnerReferences, path.Child("ownerReferences"))...)
	errs = append(errs, validateFinalizers(meta.Finalizers, path.Child("finalizers"))...)
	// k8s.io/kubernetes' core validation adds its finalizer rule after apimachinery's checks, one
	// error per finalizer at its index.
	for i, f := range meta.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, path.Child("finalizers").Index(i))...)
	}
	return errs
}

// validateOwnerReferences checks each reference is complete, that Events own nothing, and that at
// most one reference is the controller: the garbage collector and every controller's adoption logic
// rely on an object having a single controller.
func validateOwnerReferences(refs []api.OwnerReference, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	firstController := ""
	for _, ref := range refs {
		group, version := splitAPIVersion(ref.APIVersion)
		if version == "" {
			errs = append(errs, field.Invalid(path.Child("apiVersion"), ref.APIVersion, "version must not be empty"))
		}
		if ref.Kind == "" {
			errs = append(errs, field.Invalid(path.Child("kind"), ref.Kind, "must not be empty"))
		}
		if ref.Name == "" {
			errs = append(errs, field.Invalid(path.Child("name"), ref.Name, "must not be empty"))
		}
		if ref.UID == "" {
			errs = append(errs, field.Invalid(path.Child("uid"), ref.UID, "must not be empty"))
		}
		if group == "" && version == "v1" && ref.Kind == "Event" {
			errs = append(errs, field.Invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"))
		}
		if ref.Controller == nil || !*ref.Controller {
			continue
		}
		this := ref.Kind + "/" + ref.Name
		if firstController != "" {
			errs = append(errs, field.Invalid(path, refs, fmt.Sprintf(
				"Only one reference can have Controller set to true. Found \"true\" in references for %v and %v",
				firstController, this)))
		} else {
			firstController = this
		}
	}
	return errs
}

// validateFinalizers is apimachinery's finalizer check: qualified names, and orphan and
// foregroundDeletion contradict each other.
func validateFinalizers(finalizers []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	var orphan, foreground bool
	for _, f := range finalizers {
		errs = append(errs, validateName(labels.IsQualifiedName, f, path)...)
		orphan = orphan || f == finalizerOrphanDependents
		foreground = foreground || f == finalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(path, finalizers, fmt.Sprintf("finalizer %s and %s cannot be both set",
			finalizerOrphanDependents, finalizerDeleteDependents)))
	}
	return errs
}

// validateFinalizerName checks one finalizer name, as a Namespace's spec.finalizers are checked: a
// qualified name, and either one of Kubernetes' own or domain-prefixed.
func validateFinalizerName(name string, path *field.Path) field.ErrorList {
	return append(validateName(labels.IsQualifiedName, name, path), validateKubeFinalizerName(name, path)...)
}

// validateKubeFinalizerName requires a finalizer without a domain to be one of Kubernetes' own.
func validateKubeFinalizerName(name string, path *field.Path) field.ErrorList {
	if !strings.Contains(name, "/") && !slices.Contains(standardFinalizers, name) {
		return field.ErrorList{field.Invalid(path, name, "name is neither a standard finalizer name nor is it fully qualified")}
	}
	return nil
}

// splitAPIVersion reads an apiVersion as Kubernetes' schema.ParseGroupVersion does: "v1" is the
// core group, "apps/v1" and "/v1" have a group part, and anything with more slashes has no version.
func splitAPIVersion(apiVersion string) (group, version string) {
	switch parts := strings.Split(apiVersion, "/"); len(parts) {
	case 1:
		return "", parts[0]
	case 2:
		return parts[0], parts[1]
	}
	return "", ""
}
