// storage.go: PersistentVolume, PersistentVolumeClaim (core/v1) and StorageClass (storage.k8s.io/v1)
// validation, as pkg/apis/core/validation and pkg/apis/storage/validation word it. Interface:
// ValidatePersistentVolume, ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimUpdate,
// ValidateStorageClass, ValidateStorageClassUpdate.
package validation

import (
	"reflect"
	"strings"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/labels"
	"kubesim/api/resource"
)

var (
	supportedAccessModes     = []api.PersistentVolumeAccessMode{api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOnce, api.ReadWriteOncePod}
	supportedReclaimPolicies = []api.PersistentVolumeReclaimPolicy{api.PersistentVolumeReclaimDelete,
		api.PersistentVolumeReclaimRecycle, api.PersistentVolumeReclaimRetain}
	supportedVolumeModes   = []api.PersistentVolumeMode{api.PersistentVolumeBlock, api.PersistentVolumeFilesystem}
	supportedBindingModes  = []api.VolumeBindingMode{api.VolumeBindingImmediate, api.VolumeBindingWaitForFirstConsumer}
	storageClassReclaimers = []api.PersistentVolumeReclaimPolicy{api.PersistentVolumeReclaimDelete, api.PersistentVolumeReclaimRetain}
)

// ValidatePersistentVolume checks a volume: a size, at least one access mode, a known reclaim policy.
// Kubernetes also requires exactly one volume source; kubesim models only hostPath and local, so a
// volume of another source (nfs, csi, ...) loads with a warning instead of failing that check.
func ValidatePersistentVolume(pv *api.PersistentVolume) field.ErrorList {
	errs := ValidateObjectMeta(&pv.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	errs = append(errs, validateAccessModes(pv.Spec.AccessModes, spec.Child("accessModes"))...)
	if q, ok := pv.Spec.Capacity[resource.ResourceStorage]; !ok {
		errs = append(errs, field.Required(spec.Child("capacity").Key(string(resource.ResourceStorage)), ""))
	} else {
		errs = append(errs, validatePositiveQuantity(q, spec.Child("capacity").Key(string(resource.ResourceStorage)))...)
	}
	if pv.Spec.PersistentVolumeReclaimPolicy != "" {
		errs = append(errs, validateEnum(pv.Spec.PersistentVolumeReclaimPolicy, supportedReclaimPolicies, spec.Child("persistentVolumeReclaimPolicy"))...)
	}
	if pv.Spec.VolumeMode != nil {
		errs = append(errs, validateEnum(*pv.Spec.VolumeMode, supportedVolumeModes, spec.Child("volumeMode"))...)
	}
	if pv.Spec.StorageClassName != "" {
		for _, msg := range NameIsDNSSubdomain(pv.Spec.StorageClassName, false) {
			errs = append(errs, field.Invalid(spec.Child("storageClassName"), pv.Spec.StorageClassName, msg))
		}
	}
	if pv.Spec.Local != nil && (pv.Spec.NodeAffinity == nil || pv.Spec.NodeAffinity.Required == nil) {
		errs = append(errs, field.Required(spec.Child("nodeAffinity"), "Local volume requires node affinity"))
	}
	if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
		errs = append(errs, validateNodeSelector(na.Required, spec.Child("nodeAffinity").Child("required"))...)
	}
	return errs
}

// ValidatePersistentVolumeClaim checks a claim: at least one access mode and a storage request.
func ValidatePersistentVolumeClaim(pvc *api.PersistentVolumeClaim) field.ErrorList {
	errs := ValidateObjectMeta(&pvc.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	errs = append(errs, validateAccessModes(pvc.Spec.AccessModes, spec.Child("accessModes"))...)
	if pvc.Spec.Selector != nil {
		errs = append(errs, ValidateLabelSelector(pvc.Spec.Selector, spec.Child("selector"))...)
	}
	storage := spec.Child("resources").Key(string(resource.ResourceStorage))
	if q, ok := pvc.Spec.Resources.Requests[resource.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storage, ""))
	} else {
		errs = append(errs, validatePositiveQuantity(q, storage)...)
	}
	if pvc.Spec.StorageClassName != nil && *pvc.Spec.StorageClassName != "" {
		for _, msg := range NameIsDNSSubdomain(*pvc.Spec.StorageClassName, false) {
			errs = append(errs, field.Invalid(spec.Child("storageClassName"), *pvc.Spec.StorageClassName, msg))
		}
	}
	if pvc.Spec.VolumeMode != nil {
		errs = append(errs, validateEnum(*pvc.Spec.VolumeMode, supportedVolumeModes, spec.Child("volumeMode"))...)
	}
	return errs
}

// ValidatePersistentVolumeClaimUpdate keeps a claim's spec fixed, with the changes the binding
// itself makes: volumeName may be set once (the PV controller binding it), a nil storageClassName
// may be set (the default class assigned after the fact), and a bound claim may ask for more storage.
func ValidatePersistentVolumeClaimUpdate(newPVC, oldPVC *api.PersistentVolumeClaim) field.ErrorList {
	errs := ValidatePersistentVolumeClaim(newPVC)
	oldSpec, newSpec := oldPVC.Spec, newPVC.Spec
	if oldSpec.VolumeName == "" {
		oldSpec.VolumeName = newSpec.VolumeName
	}
	if oldSpec.StorageClassName == nil {
		oldSpec.StorageClassName = newSpec.StorageClassName
	}
	if newPVC.Status.Phase == api.ClaimBound {
		oldSpec.Resources.Requests, newSpec.Resources.Requests = nil, nil
	}
	if !reflect.DeepEqual(oldSpec, newSpec) {
		errs = append(errs, field.Forbidden(field.NewPath("spec"),
			"spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"))
	}
	return errs
}

// ValidateStorageClass checks a class: a provisioner, and known reclaim policy and binding mode.
func ValidateStorageClass(sc *api.StorageClass) field.ErrorList {
	errs := ValidateObjectMeta(&sc.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	if sc.Provisioner == "" {
		errs = append(errs, field.Required(field.NewPath("provisioner"), ""))
	} else {
		errs = append(errs, validateName(labels.IsQualifiedName, strings.ToLower(sc.Provisioner), field.NewPath("provisioner"))...)
	}
	if sc.ReclaimPolicy != nil {
		errs = append(errs, validateEnum(*sc.ReclaimPolicy, storageClassReclaimers, field.NewPath("reclaimPolicy"))...)
	}
	if sc.VolumeBindingMode != nil {
		errs = append(errs, validateEnum(*sc.VolumeBindingMode, supportedBindingModes, field.NewPath("volumeBindingMode"))...)
	}
	return errs
}

// ValidateStorageClassUpdate: what a class promises its volumes cannot change under them.
func ValidateStorageClassUpdate(newSC, oldSC *api.StorageClass) field.ErrorList {
	errs := ValidateStorageClass(newSC)
	if !reflect.DeepEqual(newSC.Parameters, oldSC.Parameters) {
		errs = append(errs, field.Forbidden(field.NewPath("parameters"), "updates to parameters are forbidden."))
	}
	if newSC.Provisioner != oldSC.Provisioner {
		errs = append(errs, field.Forbidden(field.NewPath("provisioner"), "updates to provisioner are forbidden."))
	}
	if !reflect.DeepEqual(newSC.ReclaimPolicy, oldSC.ReclaimPolicy) {
		errs = append(errs, field.Forbidden(field.NewPath("reclaimPolicy"), "updates to reclaimPolicy are forbidden."))
	}
	if !reflect.DeepEqual(newSC.VolumeBindingMode, oldSC.VolumeBindingMode) {
		errs = append(errs, field.Forbidden(field.NewPath("volumeBindingMode"), "field is immutable"))
	}
	return errs
}

func validateAccessModes(modes []api.PersistentVolumeAccessMode, path *field.Path) field.ErrorList {
	if len(modes) == 0 {
		return field.ErrorList{field.Required(path, "at least 1 access mode is required")}
	}
	var errs field.ErrorList
	once, other := false, false
	for _, m := range modes {
		errs = append(errs, validateEnum(m, supportedAccessModes, path)...)
		once = once || m == api.ReadWriteOncePod
		other = other || m != api.ReadWriteOncePod
	}
	if once && other {
		errs = append(errs, field.Forbidden(path, "may not use ReadWriteOncePod with other access modes"))
	}
	return errs
}

func validatePositiveQuantity(q resource.Quantity, path *field.Path) field.ErrorList {
	if q.Sign() <= 0 {
		return field.ErrorList{field.Invalid(path, q.String(), isNotPositiveErrorMsg)}
	}
	return nil
}
