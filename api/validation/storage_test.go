package validation

import (
	"testing"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

// PersistentVolume, PersistentVolumeClaim and StorageClass rules, one behaviour per case.
func TestStorageValidation(t *testing.T) {
	rwo := []api.PersistentVolumeAccessMode{api.ReadWriteOnce}
	gi := resource.ResourceList{resource.ResourceStorage: resource.MustParse("1Gi")}
	pvc := func(change func(*api.PersistentVolumeClaim)) *api.PersistentVolumeClaim {
		c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"},
			Spec: api.PersistentVolumeClaimSpec{AccessModes: rwo, Resources: api.VolumeResourceRequirements{Requests: gi}}}
		if change != nil {
			change(c)
		}
		return c
	}
	pv := func(change func(*api.PersistentVolume)) *api.PersistentVolume {
		v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "data-pv"},
			Spec: api.PersistentVolumeSpec{Capacity: gi, AccessModes: rwo,
				PersistentVolumeSource: api.PersistentVolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/mnt/data"}}}}
		if change != nil {
			change(v)
		}
		return v
	}
	cases := []struct {
		name string
		errs field.ErrorList
		want []wantErr
	}{
		{"claim: valid", ValidatePersistentVolumeClaim(pvc(nil)), nil},
		{"claim: an access mode and a storage request are required", ValidatePersistentVolumeClaim(pvc(func(c *api.PersistentVolumeClaim) {
			c.Spec.AccessModes, c.Spec.Resources.Requests = nil, nil
		})), []wantErr{{"spec.accessModes", field.ErrorTypeRequired}, {"spec.resources[storage]", field.ErrorTypeRequired}}},
		{"claim: ReadWriteOncePod stands alone", ValidatePersistentVolumeClaim(pvc(func(c *api.PersistentVolumeClaim) {
			c.Spec.AccessModes = []api.PersistentVolumeAccessMode{api.ReadWriteOncePod, api.ReadWriteOnce}
		})), []wantErr{{"spec.accessModes", field.ErrorTypeForbidden}}},
		{"claim update: volumeName may be set once", ValidatePersistentVolumeClaimUpdate(
			pvc(func(c *api.PersistentVolumeClaim) { c.Spec.VolumeName = "data-pv" }), pvc(nil)), nil},
		{"claim update: a nil class may be given one", ValidatePersistentVolumeClaimUpdate(
			pvc(func(c *api.PersistentVolumeClaim) { c.Spec.StorageClassName = api.Ptr("standard") }), pvc(nil)), nil},
		{"claim update: the rest of the spec is fixed", ValidatePersistentVolumeClaimUpdate(
			pvc(func(c *api.PersistentVolumeClaim) {
				c.Spec.AccessModes = []api.PersistentVolumeAccessMode{api.ReadWriteMany}
			}), pvc(nil)),
			[]wantErr{{"spec", field.ErrorTypeForbidden}}},
		{"volume: valid", ValidatePersistentVolume(pv(nil)), nil},
		{"volume: a capacity is required", ValidatePersistentVolume(pv(func(v *api.PersistentVolume) { v.Spec.Capacity = nil })),
			[]wantErr{{"spec.capacity[storage]", field.ErrorTypeRequired}}},
		{"volume: a local volume needs node affinity", ValidatePersistentVolume(pv(func(v *api.PersistentVolume) {
			v.Spec.HostPath, v.Spec.Local = nil, &api.LocalVolumeSource{Path: "/mnt/disk"}
		})), []wantErr{{"spec.nodeAffinity", field.ErrorTypeRequired}}},
		{"volume: a known reclaim policy", ValidatePersistentVolume(pv(func(v *api.PersistentVolume) { v.Spec.PersistentVolumeReclaimPolicy = "Keep" })),
			[]wantErr{{"spec.persistentVolumeReclaimPolicy", field.ErrorTypeNotSupported}}},
		{"class: valid", ValidateStorageClass(&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard"}, Provisioner: "rancher.io/local-path"}), nil},
		{"class: a provisioner is required", ValidateStorageClass(&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard"}}),
			[]wantErr{{"provisioner", field.ErrorTypeRequired}}},
		{"class update: the provisioner is fixed", ValidateStorageClassUpdate(
			&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard"}, Provisioner: "b.io/x"},
			&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard"}, Provisioner: "a.io/x"}),
			[]wantErr{{"provisioner", field.ErrorTypeForbidden}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireErrors(t, tc.errs, tc.want...) })
	}
}
