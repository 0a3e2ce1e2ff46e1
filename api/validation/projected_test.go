package validation

import (
	"testing"

	"kubesim/api"
	"kubesim/api/field"
)

// Projected volumes (validateProjectionSources): one kind of source per entry, no file path twice,
// a token of 10 minutes to 2^32 seconds at a local path, downward API files naming one pod field a
// volume may hold.
func TestProjectedVolumeValidation(t *testing.T) {
	cm := func(name, path string) api.VolumeProjection {
		return api.VolumeProjection{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: name},
			Items: []api.KeyToPath{{Key: "k", Path: path}}}}
	}
	token := func(secs int64, path string) api.VolumeProjection {
		return api.VolumeProjection{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: path, ExpirationSeconds: &secs}}
	}
	file := func(path, fieldPath string) api.VolumeProjection {
		return api.VolumeProjection{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: path,
			FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: fieldPath}}}}}
	}
	cases := []struct {
		name    string
		sources []api.VolumeProjection
		want    []wantErr
	}{
		{"the kube-api-access volume", []api.VolumeProjection{token(3607, "token"), cm("kube-root-ca.crt", "ca.crt"), file("namespace", "metadata.namespace")}, nil},
		{"a token of 100 seconds", []api.VolumeProjection{token(100, "token")},
			[]wantErr{{"spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds", field.ErrorTypeInvalid}}},
		{"a token beyond 2^32 seconds", []api.VolumeProjection{token(1<<33, "token")},
			[]wantErr{{"spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds", field.ErrorTypeInvalid}}},
		{"a token path is local, reported at the volume", []api.VolumeProjection{token(3600, "../token")},
			[]wantErr{{"spec.volumes[0].projected.path", field.ErrorTypeInvalid}}},
		{"two sources write the same file", []api.VolumeProjection{cm("a", "ca.crt"), cm("b", "ca.crt")},
			[]wantErr{{"spec.volumes[0].projected", field.ErrorTypeInvalid}}},
		{"one entry, two kinds of source", []api.VolumeProjection{{ConfigMap: cm("a", "x").ConfigMap, DownwardAPI: file("y", "metadata.name").DownwardAPI}},
			[]wantErr{{"spec.volumes[0].projected.sources[0]", field.ErrorTypeForbidden}}},
		{"a downward API file names a field a volume may not hold", []api.VolumeProjection{file("node", "spec.nodeName")},
			[]wantErr{{"spec.volumes[0].projected.sources[0].downwardAPI.fieldRef.fieldPath", field.ErrorTypeNotSupported}}},
		{"a downward API file names no field", []api.VolumeProjection{{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "x"}}}}},
			[]wantErr{{"spec.volumes[0].projected.sources[0].downwardAPI", field.ErrorTypeRequired}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := validPodSpec()
			spec.Volumes = []api.Volume{{Name: "v", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
				Sources: tc.sources, DefaultMode: api.Ptr[int32](0o644)}}}}
			requireErrors(t, ValidatePodSpec(&spec, field.NewPath("spec")), tc.want...)
		})
	}
}
