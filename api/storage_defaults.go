// storage_defaults.go: the defaults of the storage kinds (SetDefaults_PersistentVolume,
// SetDefaults_PersistentVolumeClaim in core/v1 and SetDefaults_StorageClass in storage/v1): a volume
// is kept when its claim goes (Retain) unless its class says Delete, a class binds at once
// (Immediate), and a new volume or claim starts Pending.
package api

// storage fills in a PersistentVolume's, PersistentVolumeClaim's or StorageClass's defaults.
func (d *defaulter) storage(obj Object) {
	switch o := obj.(type) {
	case *PersistentVolume:
		defaultValue(d, "spec.persistentVolumeReclaimPolicy", &o.Spec.PersistentVolumeReclaimPolicy, PersistentVolumeReclaimRetain)
		d.volumeMode("spec.volumeMode", &o.Spec.VolumeMode)
		defaultValue(d, "status.phase", &o.Status.Phase, VolumePending)
	case *PersistentVolumeClaim:
		d.volumeMode("spec.volumeMode", &o.Spec.VolumeMode)
		defaultValue(d, "status.phase", &o.Status.Phase, ClaimPending)
	case *StorageClass:
		defaultPointer(d, "reclaimPolicy", &o.ReclaimPolicy, PersistentVolumeReclaimDelete)
		defaultPointer(d, "volumeBindingMode", &o.VolumeBindingMode, VolumeBindingImmediate)
	}
}

func (d *defaulter) volumeMode(path string, mode **PersistentVolumeMode) {
	defaultPointer(d, path, mode, PersistentVolumeFilesystem)
}
