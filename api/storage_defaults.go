// storage_defaults.go: the defaults of the storage kinds (SetDefaults_PersistentVolume,
// SetDefaults_PersistentVolumeClaim in core/v1 and SetDefaults_StorageClass in storage/v1): a volume
// is kept when its claim goes (Retain) unless its class says Delete, a class binds at once
// (Immediate), and a new volume or claim starts Pending.
package api

// storage fills in a PersistentVolume's, PersistentVolumeClaim's or StorageClass's defaults.
func (d *defaulter) storage(obj Object) {
	switch o := obj.(type) {
	case *PersistentVolume:
		if o.Spec.PersistentVolumeReclaimPolicy == "" {
			o.Spec.PersistentVolumeReclaimPolicy = PersistentVolumeReclaimRetain
			d.note("spec.persistentVolumeReclaimPolicy", string(PersistentVolumeReclaimRetain))
		}
		d.volumeMode("spec.volumeMode", &o.Spec.VolumeMode)
		if o.Status.Phase == "" {
			o.Status.Phase = VolumePending
			d.note("status.phase", string(VolumePending))
		}
	case *PersistentVolumeClaim:
		d.volumeMode("spec.volumeMode", &o.Spec.VolumeMode)
		if o.Status.Phase == "" {
			o.Status.Phase = ClaimPending
			d.note("status.phase", string(ClaimPending))
		}
	case *StorageClass:
		if o.ReclaimPolicy == nil {
			o.ReclaimPolicy = Ptr(PersistentVolumeReclaimDelete)
			d.note("reclaimPolicy", string(PersistentVolumeReclaimDelete))
		}
		if o.VolumeBindingMode == nil {
			o.VolumeBindingMode = Ptr(VolumeBindingImmediate)
			d.note("volumeBindingMode", string(VolumeBindingImmediate))
		}
	}
}

func (d *defaulter) volumeMode(path string, mode **PersistentVolumeMode) {
	if *mode == nil {
		*mode = Ptr(PersistentVolumeFilesystem)
		d.note(path, string(PersistentVolumeFilesystem))
	}
}
