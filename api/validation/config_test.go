package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
)

// ConfigMap and Secret rules (ValidateConfigMap, ValidateSecret and their updates), one behaviour per case.
func TestConfigMapAndSecretValidation(t *testing.T) {
	meta := api.ObjectMeta{Name: "app-config", Namespace: "default"}
	immutable := api.Ptr(true)
	cases := []struct {
		name string
		errs field.ErrorList
		want []wantErr
	}{
		{"configmap: valid", ValidateConfigMap(&api.ConfigMap{ObjectMeta: meta, Data: map[string]string{"app.properties": "a=b", "LOG_LEVEL": "debug"}}), nil},
		{"configmap: a key is a file name", ValidateConfigMap(&api.ConfigMap{ObjectMeta: meta, Data: map[string]string{"conf/app": "x", "..data": "y"}}),
			[]wantErr{{"data[conf/app]", field.ErrorTypeInvalid}, {"data[..data]", field.ErrorTypeInvalid}}},
		{"configmap: a key in data and binaryData", ValidateConfigMap(&api.ConfigMap{ObjectMeta: meta,
			Data: map[string]string{"k": "x"}, BinaryData: map[string][]byte{"k": {1}}}),
			[]wantErr{{"binaryData[k]", field.ErrorTypeInvalid}}},
		{"configmap: immutable keeps its data", ValidateConfigMapUpdate(
			&api.ConfigMap{ObjectMeta: meta, Immutable: immutable, Data: map[string]string{"k": "new"}},
			&api.ConfigMap{ObjectMeta: meta, Immutable: immutable, Data: map[string]string{"k": "old"}}),
			[]wantErr{{"data", field.ErrorTypeForbidden}}},
		{"configmap: immutable stays immutable", ValidateConfigMapUpdate(
			&api.ConfigMap{ObjectMeta: meta}, &api.ConfigMap{ObjectMeta: meta, Immutable: immutable}),
			[]wantErr{{"immutable", field.ErrorTypeForbidden}}},
		{"configmap: a mutable one changes freely", ValidateConfigMapUpdate(
			&api.ConfigMap{ObjectMeta: meta, Data: map[string]string{"k": "new"}}, &api.ConfigMap{ObjectMeta: meta}), nil},
		{"secret: valid", ValidateSecret(&api.Secret{ObjectMeta: meta, Type: api.SecretTypeOpaque, Data: map[string][]byte{"password": []byte("s3cr3t")}}), nil},
		{"secret: keys as configmap keys", ValidateSecret(&api.Secret{ObjectMeta: meta, Data: map[string][]byte{"a b": nil}}),
			[]wantErr{{"data[a b]", field.ErrorTypeInvalid}}},
		{"secret: the type never changes", ValidateSecretUpdate(&api.Secret{ObjectMeta: meta, Type: api.SecretTypeTLS},
			&api.Secret{ObjectMeta: meta, Type: api.SecretTypeOpaque}),
			[]wantErr{{"type", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { requireErrors(t, tc.errs, tc.want...) })
	}
}

// Volumes, volumeMounts, env valueFrom and envFrom in a pod spec.
func TestPodConfigReferenceValidation(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(s *api.PodSpec)
		want   []wantErr
	}{
		{"a configMap volume mounted, env from a key and from a whole Secret", func(s *api.PodSpec) {
			s.Volumes = []api.Volume{{Name: "config", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{
				LocalObjectReference: api.LocalObjectReference{Name: "app-config"}}}}}
			c := &s.Containers[0]
			c.VolumeMounts = []api.VolumeMount{{Name: "config", MountPath: "/etc/app"}}
			c.Env = append(c.Env, api.EnvVar{Name: "LOG_LEVEL", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{
				LocalObjectReference: api.LocalObjectReference{Name: "app-config"}, Key: "log.level"}}})
			c.EnvFrom = []api.EnvFromSource{{Prefix: "DB_", SecretRef: &api.SecretEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "db"}}}}
		}, nil},
		{"a mount names a volume of the pod", func(s *api.PodSpec) {
			s.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "data", MountPath: "/data"}}
		}, []wantErr{{"spec.containers[0].volumeMounts[0].name", field.ErrorTypeNotFound}}},
		{"volume names are unique, and a volume has one source", func(s *api.PodSpec) {
			s.Volumes = []api.Volume{{Name: "v", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}},
				{Name: "v", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}, Secret: &api.SecretVolumeSource{SecretName: "s"}}}}
		}, []wantErr{{"spec.volumes[1].name", field.ErrorTypeDuplicate}, {"spec.volumes[1]", field.ErrorTypeForbidden}}},
		{"a secret volume needs secretName, a claim its claimName", func(s *api.PodSpec) {
			s.Volumes = []api.Volume{{Name: "a", VolumeSource: api.VolumeSource{Secret: &api.SecretVolumeSource{}}},
				{Name: "b", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{}}}}
		}, []wantErr{{"spec.volumes[0].secret.secretName", field.ErrorTypeRequired}, {"spec.volumes[1].persistentVolumeClaim.claimName", field.ErrorTypeRequired}}},
		{"value and valueFrom together", func(s *api.PodSpec) {
			s.Containers[0].Env = []api.EnvVar{{Name: "A", Value: "x", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{
				LocalObjectReference: api.LocalObjectReference{Name: "db"}, Key: "password"}}}}
		}, []wantErr{{"spec.containers[0].env[0].valueFrom", field.ErrorTypeInvalid}}},
		{"a key reference needs its key", func(s *api.PodSpec) {
			s.Containers[0].Env = []api.EnvVar{{Name: "A", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{
				LocalObjectReference: api.LocalObjectReference{Name: "app-config"}}}}}
		}, []wantErr{{"spec.containers[0].env[0].valueFrom.configMapKeyRef.key", field.ErrorTypeRequired}}},
		{"init containers: names unique with the app containers, no probes", func(s *api.PodSpec) {
			init := s.Containers[0]
			init.Ports = nil
			s.InitContainers = []api.Container{init}
			s.InitContainers[0].ReadinessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}},
				TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
		}, []wantErr{{"spec.initContainers[0].name", field.ErrorTypeDuplicate}, {"spec.initContainers[0].readinessProbe", field.ErrorTypeForbidden}}},
		{"envFrom names one source", func(s *api.PodSpec) {
			s.Containers[0].EnvFrom = []api.EnvFromSource{{Prefix: "X"}}
		}, []wantErr{{"spec.containers[0].envFrom", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := validPodSpec()
			tc.mutate(&spec)
			requireErrors(t, ValidatePodSpec(&spec, field.NewPath("spec")), tc.want...)
		})
	}
}

// The key rule is worded as Kubernetes words it.
func TestConfigKeyMessage(t *testing.T) {
	assert.Equal(t, []string{"a valid config key must consist of alphanumeric characters, '-', '_' or '.' " +
		"(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"}, IsConfigMapKey("a/b"))
}

// A PodDisruptionBudget sets minAvailable or maxUnavailable, not both, each at most 100%.
func TestPodDisruptionBudgetValidation(t *testing.T) {
	meta := api.ObjectMeta{Name: "web", Namespace: "default"}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	three, half, tooMuch := api.FromInt32(3), api.FromString("50%"), api.FromString("120%")
	requireErrors(t, ValidatePodDisruptionBudget(&api.PodDisruptionBudget{ObjectMeta: meta,
		Spec: api.PodDisruptionBudgetSpec{MinAvailable: &three, Selector: sel}}))
	requireErrors(t, ValidatePodDisruptionBudget(&api.PodDisruptionBudget{ObjectMeta: meta,
		Spec: api.PodDisruptionBudgetSpec{MinAvailable: &three, MaxUnavailable: &half, Selector: sel}}),
		wantErr{"spec.minAvailable", field.ErrorTypeInvalid})
	requireErrors(t, ValidatePodDisruptionBudget(&api.PodDisruptionBudget{ObjectMeta: meta,
		Spec: api.PodDisruptionBudgetSpec{MaxUnavailable: &tooMuch, Selector: sel}}),
		wantErr{"spec.maxUnavailable", field.ErrorTypeInvalid})
}
