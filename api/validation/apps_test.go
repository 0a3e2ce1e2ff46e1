package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/scenarios/manifests"
)

// seedDeployment is nginx-deployment.yaml from the seed article, verbatim (scenarios/manifests).
var seedDeployment = manifests.NginxDeployment

func decodeSeed(t *testing.T) *api.Deployment {
	objs, err := api.Decode([]byte(seedDeployment))
	require.NoError(t, err)
	require.Len(t, objs, 1)
	d := objs[0].(*api.Deployment)
	d.Namespace = api.NamespaceDefault // the apiserver takes it from the request
	return d
}

// The seed's Deployment passes validation once the apiserver has defaulted it, as kubectl apply
// shows it does in a real cluster.
func TestSeedNginxDeploymentIsValidOnceDefaulted(t *testing.T) {
	d := decodeSeed(t)
	api.SetDefaults(d)
	assert.Empty(t, ValidateObject(d))
}

// Validation expects defaulted objects: before defaulting, exactly the fields defaulting fills are
// reported missing.
func TestUndefaultedSeedDeploymentMissesOnlyDefaultedFields(t *testing.T) {
	errs := ValidateObject(decodeSeed(t))
	requireErrors(t, errs,
		wantErr{"spec.template.spec.containers[0].ports[0].protocol", field.ErrorTypeRequired},
		wantErr{"spec.template.spec.containers[0].imagePullPolicy", field.ErrorTypeRequired},
		wantErr{"spec.template.spec.restartPolicy", field.ErrorTypeRequired},
		wantErr{"spec.template.spec.dnsPolicy", field.ErrorTypeRequired},
		wantErr{"spec.strategy.type", field.ErrorTypeNotSupported},
	)
}

// Deployment rules from k8s.io/kubernetes pkg/apis/apps/validation.
func TestDeploymentValidation(t *testing.T) {
	pct := func(s string) *api.IntOrString { return api.Ptr(api.FromString(s)) }
	num := func(i int32) *api.IntOrString { return api.Ptr(api.FromInt32(i)) }
	cases := []struct {
		name   string
		mutate func(d *api.Deployment)
		want   []wantErr
	}{
		{"the defaulted seed is valid", func(d *api.Deployment) {}, nil},
		{"negative replicas", func(d *api.Deployment) { d.Spec.Replicas = api.Ptr[int32](-1) },
			[]wantErr{{"spec.replicas", field.ErrorTypeInvalid}}},
		{"a template container without image", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "" },
			[]wantErr{{"spec.template.spec.containers[0].image", field.ErrorTypeRequired}}},
		{"no selector", func(d *api.Deployment) { d.Spec.Selector = nil },
			[]wantErr{{"spec.selector", field.ErrorTypeRequired}}},
		{"an empty selector", func(d *api.Deployment) { d.Spec.Selector = &api.LabelSelector{} },
			[]wantErr{{"spec.selector", field.ErrorTypeInvalid}}},
		{"a selector the template labels do not match", func(d *api.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "web"} },
			[]wantErr{{"spec.template.metadata.labels", field.ErrorTypeInvalid}}},
		{"a matchExpressions selector the template matches", func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
				{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"nginx", "web"}}}}
		}, nil},
		{"a bad template label", func(d *api.Deployment) { d.Spec.Template.Labels["bad key"] = "x" },
			[]wantErr{{"spec.template.labels", field.ErrorTypeInvalid}}},
		{"a template that may stop restarting", func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever },
			[]wantErr{{"spec.template.spec.restartPolicy", field.ErrorTypeNotSupported}}},
		{"an unknown strategy", func(d *api.Deployment) { d.Spec.Strategy.Type = "BlueGreen" },
			[]wantErr{{"spec.strategy.type", field.ErrorTypeNotSupported}}},
		{"Recreate with rolling update parameters", func(d *api.Deployment) { d.Spec.Strategy.Type = api.RecreateDeploymentStrategyType },
			[]wantErr{{"spec.strategy.rollingUpdate", field.ErrorTypeForbidden}}},
		{"RollingUpdate without parameters", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate = nil },
			[]wantErr{{"spec.strategy.rollingUpdate", field.ErrorTypeRequired}}},
		{"maxSurge and maxUnavailable both 0", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: pct("0%"), MaxUnavailable: num(0)}
		}, []wantErr{{"spec.strategy.rollingUpdate.maxUnavailable", field.ErrorTypeInvalid}}},
		{"maxUnavailable over 100%", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = pct("110%") },
			[]wantErr{{"spec.strategy.rollingUpdate.maxUnavailable", field.ErrorTypeInvalid}}},
		{"maxSurge over 100% is allowed", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = pct("200%") }, nil},
		{"maxSurge that is not a percentage", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = pct("20Percent") },
			[]wantErr{{"spec.strategy.rollingUpdate.maxSurge", field.ErrorTypeInvalid}}},
		{"negative maxSurge", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = num(-1) },
			[]wantErr{{"spec.strategy.rollingUpdate.maxSurge", field.ErrorTypeInvalid}}},
		{"negative revisionHistoryLimit", func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = api.Ptr[int32](-1) },
			[]wantErr{{"spec.revisionHistoryLimit", field.ErrorTypeInvalid}}},
		{"negative minReadySeconds", func(d *api.Deployment) { d.Spec.MinReadySeconds = -1 },
			[]wantErr{{"spec.minReadySeconds", field.ErrorTypeInvalid}}},
		{"a progress deadline not above minReadySeconds", func(d *api.Deployment) { d.Spec.MinReadySeconds = 600 },
			[]wantErr{{"spec.progressDeadlineSeconds", field.ErrorTypeInvalid}}},
		{"an upper-case name", func(d *api.Deployment) { d.Name = "Nginx" },
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := validDeployment()
			tc.mutate(d)
			requireErrors(t, ValidateDeployment(d), tc.want...)
		})
	}
}

func TestDeploymentMessages(t *testing.T) {
	d := validDeployment()
	d.Spec.Replicas = api.Ptr[int32](-1)
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: api.Ptr(api.FromInt32(0)), MaxUnavailable: api.Ptr(api.FromInt32(0))}
	assert.Equal(t, "["+
		"spec.replicas: Invalid value: -1: must be greater than or equal to 0, "+
		"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`, "+
		"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0]",
		ValidateDeployment(d).Error())
}

// apps/v1 selectors are immutable: changing one would make the workload adopt or orphan pods.
func TestWorkloadSelectorIsImmutable(t *testing.T) {
	old := validDeployment()
	scaled := validDeployment()
	scaled.Spec.Replicas = api.Ptr[int32](5)
	scaled.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
	assert.Empty(t, ValidateObjectUpdate(scaled, old), "replicas and template may change")

	moved := validDeployment()
	moved.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx", "tier": "web"}}
	moved.Spec.Template.Labels["tier"] = "web"
	errs := ValidateObjectUpdate(moved, old)
	requireErrors(t, errs, wantErr{"spec.selector", field.ErrorTypeInvalid})
	assert.Equal(t, `spec.selector: Invalid value: {"matchLabels":{"app":"nginx","tier":"web"}}: field is immutable`, errs.Error())

	rs := &api.ReplicaSet{ObjectMeta: old.ObjectMeta, Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](1),
		Selector: old.Spec.Selector, Template: old.Spec.Template}}
	rs2 := api.DeepCopy(rs)
	rs2.Spec.Selector = moved.Spec.Selector
	rs2.Spec.Template = moved.Spec.Template
	requireErrors(t, ValidateObjectUpdate(rs2, rs), wantErr{"spec.selector", field.ErrorTypeInvalid})

	ds := validDaemonSet()
	ds2 := api.DeepCopy(ds)
	ds2.Spec.Selector = moved.Spec.Selector
	ds2.Spec.Template = moved.Spec.Template
	requireErrors(t, ValidateObjectUpdate(ds2, ds), wantErr{"spec.selector", field.ErrorTypeInvalid})
}

func TestReplicaSetValidation(t *testing.T) {
	d := validDeployment()
	valid := func() *api.ReplicaSet {
		return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "nginx-5d59d67564", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Replicas: api.Ptr[int32](3), Selector: d.Spec.Selector, Template: api.DeepCopy(d).Spec.Template}}
	}
	assert.Empty(t, ValidateReplicaSet(valid()))

	rs := valid()
	rs.Spec.Replicas = api.Ptr[int32](-2)
	rs.Spec.Selector = &api.LabelSelector{}
	rs.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure
	requireErrors(t, ValidateReplicaSet(rs),
		wantErr{"spec.replicas", field.ErrorTypeInvalid},
		wantErr{"spec.selector", field.ErrorTypeInvalid},
		wantErr{"spec.template.spec.restartPolicy", field.ErrorTypeNotSupported})
}

func validDaemonSet() *api.DaemonSet {
	d := validDeployment()
	return &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "node-exporter", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{
			Selector: d.Spec.Selector,
			Template: d.Spec.Template,
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.Ptr(api.FromInt32(1)), MaxSurge: api.Ptr(api.FromInt32(0))}},
			RevisionHistoryLimit: api.Ptr[int32](10),
		},
	}
}

func TestDaemonSetValidation(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(ds *api.DaemonSet)
		want   []wantErr
	}{
		{"a defaulted DaemonSet is valid", func(ds *api.DaemonSet) {}, nil},
		{"OnDelete needs no parameters", func(ds *api.DaemonSet) {
			ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
		}, nil},
		{"surge and unavailable both set", func(ds *api.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = api.Ptr(api.FromString("10%"))
		}, []wantErr{{"spec.updateStrategy.rollingUpdate.maxSurge", field.ErrorTypeInvalid}}},
		{"surge and unavailable both 0", func(ds *api.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = api.Ptr(api.FromInt32(0))
		}, []wantErr{{"spec.updateStrategy.rollingUpdate.maxUnavailable", field.ErrorTypeRequired}}},
		{"an unknown strategy", func(ds *api.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Surge" },
			[]wantErr{{"spec.updateStrategy", field.ErrorTypeNotSupported}}},
		{"no selector", func(ds *api.DaemonSet) { ds.Spec.Selector = nil },
			[]wantErr{{"spec.selector", field.ErrorTypeRequired}}},
		{"a mismatched template", func(ds *api.DaemonSet) { ds.Spec.Template.Labels = nil },
			[]wantErr{{"spec.template.metadata.labels", field.ErrorTypeInvalid}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := validDaemonSet()
			tc.mutate(ds)
			requireErrors(t, ValidateDaemonSet(ds), tc.want...)
		})
	}
}
