package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
)

// What may change in a running pod (ValidatePodUpdate).
func TestPodUpdateValidation(t *testing.T) {
	withToleration := func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists,
			Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Ptr[int64](300)}}
	}
	cases := []struct {
		name   string
		old    func(p *api.Pod)
		update func(p *api.Pod)
		want   []wantErr
	}{
		{"no change", nil, func(p *api.Pod) {}, nil},
		{"labels may change", nil, func(p *api.Pod) { p.Labels["tier"] = "web" }, nil},
		{"an image may change", nil, func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.26" }, nil},
		{"a toleration may be added", nil, withToleration, nil},
		{"a toleration's seconds may change", withToleration, func(p *api.Pod) {
			withToleration(p)
			p.Spec.Tolerations[0].TolerationSeconds = api.Ptr[int64](60)
		}, nil},
		{"a toleration may not be removed", withToleration, func(p *api.Pod) { p.Spec.Tolerations = nil },
			[]wantErr{{"spec.tolerations", field.ErrorTypeForbidden}}},
		{"the restart policy may not change", nil, func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyNever },
			[]wantErr{{"spec", field.ErrorTypeForbidden}}},
		{"resources may not change", nil, func(p *api.Pod) { p.Spec.Containers[0].Resources.Limits = nil },
			[]wantErr{{"spec", field.ErrorTypeForbidden}}},
		{"nodeName may not change by update", nil, func(p *api.Pod) { p.Spec.NodeName = "node-2" },
			[]wantErr{{"spec", field.ErrorTypeForbidden}}},
		{"containers may not be added", nil, func(p *api.Pod) {
			c := p.Spec.Containers[0]
			c.Name = "sidecar"
			p.Spec.Containers = append(p.Spec.Containers, c)
		}, []wantErr{{"spec.containers", field.ErrorTypeForbidden}}},
		{"an image may not be removed", nil, func(p *api.Pod) { p.Spec.Containers[0].Image = "" },
			[]wantErr{{"spec.containers[0].image", field.ErrorTypeRequired}}},
		{"an image with spaces", nil, func(p *api.Pod) { p.Spec.Containers[0].Image = " nginx" },
			[]wantErr{{"spec.containers[0].image", field.ErrorTypeInvalid}}},
		{"a negative grace period may become 1", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](-1) },
			func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](1) }, nil},
		{"a grace period may not otherwise change", nil,
			func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Ptr[int64](10) },
			[]wantErr{{"spec", field.ErrorTypeForbidden}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := validPod()
			if tc.old != nil {
				tc.old(old)
			}
			updated := api.DeepCopy(old)
			tc.update(updated)
			requireErrors(t, ValidateObjectUpdate(updated, old), tc.want...)
		})
	}
}

// What a write of a pod's status may say (ValidatePodStatusUpdate).
func TestPodStatusUpdateValidation(t *testing.T) {
	terminated := func(code int32) func(p *api.Pod) {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name,
				State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}}}}
		}
	}
	running := func(p *api.Pod) {
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name,
			State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}
	}
	policy := func(rp api.RestartPolicy, then func(p *api.Pod)) func(p *api.Pod) {
		return func(p *api.Pod) { p.Spec.RestartPolicy = rp; then(p) }
	}
	cases := []struct {
		name   string
		old    func(p *api.Pod)
		update func(p *api.Pod)
		want   []wantErr
	}{
		{"Running and Ready", nil, func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}, {Type: api.ContainersReady, Status: api.ConditionTrue}}
			p.Status.PodIP, p.Status.PodIPs = "10.244.1.5", []api.PodIP{{IP: "10.244.1.5"}}
		}, nil},
		{"a condition type is a qualified name", nil, func(p *api.Pod) {
			p.Status.Conditions = []api.PodCondition{{Type: "not a name!", Status: api.ConditionTrue}}
		}, []wantErr{{"status.conditions[0].Type", field.ErrorTypeInvalid}}},
		{"the nominated node is a node name", nil, func(p *api.Pod) { p.Status.NominatedNodeName = "Node_1" },
			[]wantErr{{"status.nominatedNodeName", field.ErrorTypeInvalid}}},
		{"the QoS class is fixed", nil, func(p *api.Pod) { p.Status.QOSClass = api.PodQOSGuaranteed },
			[]wantErr{{"status.qosClass", field.ErrorTypeInvalid}}},
		{"a pod IP is an address", nil, func(p *api.Pod) { p.Status.PodIPs = []api.PodIP{{IP: "10.244.1"}} },
			[]wantErr{{"status.podIPs[0]", field.ErrorTypeInvalid}}},
		{"two pod IPs are one of each family", nil, func(p *api.Pod) { p.Status.PodIPs = []api.PodIP{{IP: "10.0.0.1"}, {IP: "10.0.0.2"}} },
			[]wantErr{{"status.podIPs", field.ErrorTypeInvalid}}},
		{"a dual-stack pair", nil, func(p *api.Pod) { p.Status.PodIPs = []api.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}} }, nil},
		{"Always restarts a terminated container", policy(api.RestartPolicyAlways, terminated(0)), running, nil},
		{"OnFailure restarts a failed container", policy(api.RestartPolicyOnFailure, terminated(1)), running, nil},
		{"OnFailure does not restart a succeeded one", policy(api.RestartPolicyOnFailure, terminated(0)), running,
			[]wantErr{{"status.containerStatuses[0].state", field.ErrorTypeForbidden}}},
		{"Never restarts nothing", policy(api.RestartPolicyNever, terminated(1)), running,
			[]wantErr{{"status.containerStatuses[0].state", field.ErrorTypeForbidden}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := validPod()
			old.Status.QOSClass = api.QOSClass(old)
			if tc.old != nil {
				tc.old(old)
			}
			updated := api.DeepCopy(old)
			tc.update(updated)
			requireErrors(t, ValidatePodStatusUpdate(updated, old), tc.want...)
		})
	}
	old := validPod()
	moved := api.DeepCopy(old)
	moved.Spec.NodeName = "node-2"
	assert.Equal(t, "status.nodeName: Forbidden: may not be changed directly", ValidatePodStatusUpdate(moved, old).Error())
}

func TestPodUpdateMessage(t *testing.T) {
	old := validPod()
	updated := api.DeepCopy(old)
	updated.Spec.Containers[0].Ports[0].ContainerPort = 8080
	assert.Equal(t, "spec: Forbidden: pod updates may not change fields other than "+
		"`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"+
		"`spec.tolerations` (only additions to existing tolerations),"+
		"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
		ValidatePodUpdate(updated, old).Error())
}

// Semantic equality, as Kubernetes compares specs: "1" and "1000m" cpu are the same quantity.
func TestPodUpdateComparesQuantitiesByValue(t *testing.T) {
	old := validPod()
	updated := api.DeepCopy(old)
	updated.Spec.Containers[0].Resources.Limits["cpu"] = mustQuantity(t, "0.5")
	assert.Empty(t, ValidatePodUpdate(updated, old))
}

func TestOtherUpdateRules(t *testing.T) {
	t.Run("a node's pod CIDR may be assigned once", func(t *testing.T) {
		old := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
		assigned := api.DeepCopy(old)
		assigned.Spec.PodCIDR, assigned.Spec.PodCIDRs = "10.244.1.0/24", []string{"10.244.1.0/24"}
		assert.Empty(t, ValidateObjectUpdate(assigned, old))

		changed := api.DeepCopy(assigned)
		changed.Spec.PodCIDR, changed.Spec.PodCIDRs = "10.244.2.0/24", []string{"10.244.2.0/24"}
		errs := ValidateObjectUpdate(changed, assigned)
		requireErrors(t, errs, wantErr{"spec.podCIDRs", field.ErrorTypeForbidden})
		assert.Equal(t, `spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`, errs.Error())

		cordoned := api.DeepCopy(assigned)
		cordoned.Spec.Unschedulable = true
		assert.Empty(t, ValidateObjectUpdate(cordoned, assigned), "cordon is an ordinary update")
	})
	t.Run("a service's cluster IP is fixed once allocated", func(t *testing.T) {
		old := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ServiceSpec{Type: api.ServiceTypeClusterIP, ClusterIP: "10.96.0.10",
				Ports: []api.ServicePort{{Protocol: api.ProtocolTCP, Port: 80, TargetPort: api.FromInt32(80)}}}}
		changed := api.DeepCopy(old)
		changed.Spec.ClusterIP = "10.96.0.11"
		errs := ValidateObjectUpdate(changed, old)
		requireErrors(t, errs, wantErr{"spec.clusterIP", field.ErrorTypeInvalid})
		assert.Equal(t, `spec.clusterIP: Invalid value: "10.96.0.11": field is immutable`, errs.Error())
	})
	t.Run("a binding's roleRef is fixed", func(t *testing.T) {
		old := &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: "admins"},
			RoleRef: api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "view"}}
		changed := api.DeepCopy(old)
		changed.RoleRef.Name = "cluster-admin"
		requireErrors(t, ValidateObjectUpdate(changed, old), wantErr{"roleRef", field.ErrorTypeInvalid})
	})
	t.Run("a priority class's value is fixed", func(t *testing.T) {
		old := &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}
		changed := api.DeepCopy(old)
		changed.Value = 2000
		requireErrors(t, ValidateObjectUpdate(changed, old), wantErr{"value", field.ErrorTypeForbidden})
	})
	t.Run("kinds without update rules are validated as new", func(t *testing.T) {
		old := &api.Lease{ObjectMeta: api.ObjectMeta{Name: "l", Namespace: "default"}}
		changed := api.DeepCopy(old)
		changed.Spec.LeaseDurationSeconds = api.Ptr[int32](-5)
		requireErrors(t, ValidateObjectUpdate(changed, old), wantErr{"spec.leaseDurationSeconds", field.ErrorTypeInvalid})
	})
}
