// table_storage.go: the Table columns of persistentvolumes, persistentvolumeclaims and storageclasses,
// with the cell wording of Kubernetes' printers (printPersistentVolume, printPersistentVolumeClaim,
// printStorageClass): what a learner reads when a pod waits for its storage (a claim Pending with
// no VOLUME, a volume Available with no CLAIM).
package httpfront

import (
	"kubesim/api"
	"kubesim/api/resource"
)

// unset is what a cell shows for a field kubesim does not model or that is not set.
const unset = "<unset>"

var persistentVolumeColumns = []column{nameColumn,
	{name: "Capacity", typ: "string", describe: "capacity is the description of the persistent volume's resources and capacity.",
		cell: func(_ *Handler, o api.Object) any {
			q := o.(*api.PersistentVolume).Spec.Capacity[resource.ResourceStorage]
			return q.String()
		}},
	{name: "Access Modes", typ: "string", describe: "accessModes contains all ways the volume can be mounted.",
		cell: func(_ *Handler, o api.Object) any {
			return api.AccessModesString(o.(*api.PersistentVolume).Spec.AccessModes)
		}},
	{name: "Reclaim Policy", typ: "string", describe: "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.",
		cell: func(_ *Handler, o api.Object) any {
			return string(o.(*api.PersistentVolume).Spec.PersistentVolumeReclaimPolicy)
		}},
	{name: "Status", typ: "string", describe: "phase indicates if a volume is available, bound to a claim, or released by a claim.",
		cell: func(_ *Handler, o api.Object) any {
			pv := o.(*api.PersistentVolume)
			if pv.DeletionTimestamp != nil {
				return "Terminating"
			}
			return string(pv.Status.Phase)
		}},
	{name: "Claim", typ: "string", describe: "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.",
		cell: func(_ *Handler, o api.Object) any {
			if ref := o.(*api.PersistentVolume).Spec.ClaimRef; ref != nil {
				return ref.Namespace + "/" + ref.Name
			}
			return ""
		}},
	{name: "StorageClass", typ: "string", describe: "StorageClass of the pv",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.PersistentVolume).Spec.StorageClassName }},
	{name: "VolumeAttributesClass", typ: "string", describe: "VolumeAttributesClass of the pv",
		cell: func(_ *Handler, o api.Object) any { return unset }},
	{name: "Reason", typ: "string", describe: "reason is a brief CamelCase string that describes any failure.",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.PersistentVolume).Status.Reason }},
	ageColumn,
	{name: "VolumeMode", typ: "string", wide: true, describe: "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.",
		cell: func(_ *Handler, o api.Object) any { return volumeModeCell(o.(*api.PersistentVolume).Spec.VolumeMode) }},
}

var persistentVolumeClaimColumns = []column{nameColumn,
	{name: "Status", typ: "string", describe: "phase represents the current phase of PersistentVolumeClaim.",
		cell: func(_ *Handler, o api.Object) any {
			c := o.(*api.PersistentVolumeClaim)
			if c.DeletionTimestamp != nil {
				return "Terminating"
			}
			return string(c.Status.Phase)
		}},
	{name: "Volume", typ: "string", describe: "volumeName is the binding reference to the PersistentVolume backing this claim.",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.PersistentVolumeClaim).Spec.VolumeName }},
	{name: "Capacity", typ: "string", describe: "capacity represents the actual resources of the underlying volume.",
		cell: func(_ *Handler, o api.Object) any {
			c := o.(*api.PersistentVolumeClaim)
			if c.Spec.VolumeName == "" {
				return ""
			}
			q := c.Status.Capacity[resource.ResourceStorage]
			return q.String()
		}},
	{name: "Access Modes", typ: "string", describe: "accessModes contains the actual access modes the volume backing the PVC has.",
		cell: func(_ *Handler, o api.Object) any {
			c := o.(*api.PersistentVolumeClaim)
			if c.Spec.VolumeName == "" {
				return ""
			}
			return api.AccessModesString(c.Status.AccessModes)
		}},
	{name: "StorageClass", typ: "string", describe: "StorageClass of the pvc",
		cell: func(_ *Handler, o api.Object) any { return api.ClaimClass(o.(*api.PersistentVolumeClaim)) }},
	{name: "VolumeAttributesClass", typ: "string", describe: "VolumeAttributesClass of the pvc",
		cell: func(_ *Handler, o api.Object) any { return unset }},
	ageColumn,
	{name: "VolumeMode", typ: "string", wide: true, describe: "volumeMode defines what type of volume is required by the claim.",
		cell: func(_ *Handler, o api.Object) any {
			return volumeModeCell(o.(*api.PersistentVolumeClaim).Spec.VolumeMode)
		}},
}

var storageClassColumns = []column{
	{name: "Name", typ: "string", describe: nameColumn.describe,
		cell: func(_ *Handler, o api.Object) any {
			sc := o.(*api.StorageClass)
			if api.IsDefaultClass(sc) {
				return sc.Name + " (default)"
			}
			return sc.Name
		}},
	{name: "Provisioner", typ: "string", describe: "provisioner indicates the type of the provisioner.",
		cell: func(_ *Handler, o api.Object) any { return o.(*api.StorageClass).Provisioner }},
	{name: "ReclaimPolicy", typ: "string", describe: "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.",
		cell: func(_ *Handler, o api.Object) any {
			if p := o.(*api.StorageClass).ReclaimPolicy; p != nil {
				return string(*p)
			}
			return string(api.PersistentVolumeReclaimDelete)
		}},
	{name: "VolumeBindingMode", typ: "string", describe: "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.",
		cell: func(_ *Handler, o api.Object) any { return string(o.(*api.StorageClass).BindingMode()) }},
	{name: "AllowVolumeExpansion", typ: "string", describe: "allowVolumeExpansion shows whether the storage class allow volume expand.",
		cell: func(_ *Handler, o api.Object) any {
			e := o.(*api.StorageClass).AllowVolumeExpansion
			return e != nil && *e
		}},
	ageColumn,
}

func volumeModeCell(m *api.PersistentVolumeMode) string {
	if m == nil {
		return unset
	}
	return string(*m)
}
