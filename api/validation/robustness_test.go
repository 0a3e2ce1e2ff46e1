package validation

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

func mustQuantity(t *testing.T, s string) resource.Quantity {
	t.Helper()
	q, err := resource.ParseQuantity(s)
	require.NoError(t, err)
	return q
}

// Validation must never panic, whatever a client sends: empty objects of every kind, and objects
// whose optional pointers are set to empty structs.
func TestValidationNeverPanicsOnEmptyObjects(t *testing.T) {
	for _, r := range api.Resources() {
		t.Run(r.Kind, func(t *testing.T) {
			obj := r.NewObject()
			assert.NotPanics(t, func() {
				errs := ValidateObject(obj)
				requireError(t, errs, "metadata.name", field.ErrorTypeRequired)
			})
			assert.NotPanics(t, func() { ValidateObjectUpdate(obj, r.NewObject()) })
		})
	}
}

func TestValidationNeverPanicsOnEmptyOptionalFields(t *testing.T) {
	spec := api.PodSpec{
		Containers: []api.Container{{
			LivenessProbe:  &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{}, TCPSocket: &api.TCPSocketAction{}, Exec: &api.ExecAction{}}},
			ReadinessProbe: &api.Probe{},
			StartupProbe:   &api.Probe{},
			Ports:          []api.ContainerPort{{}},
			Env:            []api.EnvVar{{}},
		}},
		Affinity: &api.Affinity{
			NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{}}, MatchFields: []api.NodeSelectorRequirement{{}}}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{}}},
			PodAffinity:     &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{}}},
			PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{}}},
		},
		Tolerations:               []api.Toleration{{}},
		TopologySpreadConstraints: []api.TopologySpreadConstraint{{MinDomains: new(int32)}},
		PreemptionPolicy:          new(api.PreemptionPolicy),
	}
	objs := []api.Object{
		&api.Pod{Spec: spec},
		&api.Deployment{Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{}}},
			Template: api.PodTemplateSpec{Spec: spec}, Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{}}, ProgressDeadlineSeconds: new(int32)}},
		&api.DaemonSet{Spec: api.DaemonSetSpec{UpdateStrategy: api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &api.RollingUpdateDaemonSet{}}}},
		&api.Service{Spec: api.ServiceSpec{Ports: []api.ServicePort{{}, {}}, ClusterIPs: []string{""}}},
		&api.Endpoints{Subsets: []api.EndpointSubset{{Addresses: []api.EndpointAddress{{NodeName: new(string)}}, Ports: []api.EndpointPort{{}, {}}}}},
		&api.Node{Spec: api.NodeSpec{Taints: []api.Taint{{}}, PodCIDRs: []string{"", "x", "y"}}},
		&api.Lease{Spec: api.LeaseSpec{LeaseDurationSeconds: new(int32), LeaseTransitions: new(int32)}},
		&api.PriorityClass{PreemptionPolicy: new(api.PreemptionPolicy)},
		&api.RoleBinding{Subjects: []api.Subject{{}}},
		&api.Event{EventTime: api.NewMicroTime(testTime)},
		&api.ServiceAccount{ObjectMeta: api.ObjectMeta{OwnerReferences: []api.OwnerReference{{Controller: new(bool)}}}},
	}
	for _, obj := range objs {
		t.Run(fmt.Sprintf("%T", obj), func(t *testing.T) {
			assert.NotPanics(t, func() {
				assert.NotEmpty(t, ValidateObject(obj))
				ValidateObjectUpdate(obj, obj)
			})
		})
	}
}

func TestNilAndForeignObjects(t *testing.T) {
	requireErrors(t, ValidateObject(nil), wantErr{"metadata", field.ErrorTypeRequired})
	requireErrors(t, ValidateObject((*api.Pod)(nil)), wantErr{"metadata", field.ErrorTypeRequired})
	requireErrors(t, ValidateObjectUpdate(validPod(), (*api.Pod)(nil)), wantErr{"metadata", field.ErrorTypeRequired})
	requireErrors(t, ValidateObjectUpdate(validPod(), validDeployment()), wantErr{"kind", field.ErrorTypeInvalid})
	requireErrors(t, ValidateObject(&api.Binding{}), wantErr{"kind", field.ErrorTypeInvalid})
}
