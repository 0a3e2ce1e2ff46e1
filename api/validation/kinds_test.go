package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
	"kubesim/api/field"
	"kubesim/api/resource"
)

// One table for the smaller kinds: each case is an object and the errors Kubernetes reports for it.
func TestKindValidation(t *testing.T) {
	node := func(mutate func(*api.Node)) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{api.LabelHostname: "node-1"}},
			Spec: api.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"},
				Taints: []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}}}}
		mutate(n)
		return n
	}
	service := func(mutate func(*api.Service)) *api.Service {
		s := &api.Service{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
			Spec: api.ServiceSpec{Type: api.ServiceTypeClusterIP, Selector: map[string]string{"app": "nginx"},
				ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"},
				Ports: []api.ServicePort{{Protocol: api.ProtocolTCP, Port: 80, TargetPort: api.FromInt32(80)}}}}
		mutate(s)
		return s
	}
	endpoints := func(mutate func(*api.Endpoints)) *api.Endpoints {
		e := &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"},
			Subsets: []api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "10.244.1.5", NodeName: api.Ptr("node-1")}},
				Ports: []api.EndpointPort{{Port: 80, Protocol: api.ProtocolTCP}}}}}
		mutate(e)
		return e
	}
	binding := func(mutate func(*api.RoleBinding)) *api.RoleBinding {
		b := &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "read-pods", Namespace: "default"},
			RoleRef: api.RoleRef{APIGroup: api.RBACGroupName, Kind: "Role", Name: "pod-reader"},
			Subjects: []api.Subject{{Kind: api.UserKind, APIGroup: api.RBACGroupName, Name: "jane"},
				{Kind: api.ServiceAccountKind, Name: "default", Namespace: "default"}}}
		mutate(b)
		return b
	}
	quota := func(hard resource.ResourceList) *api.ResourceQuota {
		return &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "compute", Namespace: "team-a"},
			Spec: api.ResourceQuotaSpec{Hard: hard}}
	}
	newStyleEvent := func(mutate func(*api.Event)) *api.Event {
		e := &api.Event{ObjectMeta: api.ObjectMeta{Name: "nginx.17a", Namespace: "default"},
			InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "nginx"},
			EventTime:      api.NewMicroTime(testTime), ReportingController: "kubelet", ReportingInstance: "node-1",
			Action: "Pulling", Reason: "Pulling", Type: api.EventTypeNormal}
		mutate(e)
		return e
	}
	cases := []struct {
		name string
		obj  api.Object
		want []wantErr
	}{
		{"node: valid", node(func(*api.Node) {}), nil},
		{"node: names are DNS subdomains", node(func(n *api.Node) { n.Name = "Node_1" }),
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
		{"node: cluster-scoped", node(func(n *api.Node) { n.Namespace = "default" }),
			[]wantErr{{"metadata.namespace", field.ErrorTypeForbidden}}},
		{"node: a taint needs a known effect", node(func(n *api.Node) { n.Spec.Taints[0].Effect = "" }),
			[]wantErr{{"spec.taints[0].effect", field.ErrorTypeRequired}}},
		{"node: an unknown taint effect", node(func(n *api.Node) { n.Spec.Taints[0].Effect = "NoRun" }),
			[]wantErr{{"spec.taints[0].effect", field.ErrorTypeNotSupported}}},
		{"node: taints unique by key and effect", node(func(n *api.Node) {
			n.Spec.Taints = append(n.Spec.Taints, n.Spec.Taints[0], api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute})
		}), []wantErr{{"spec.taints[1]", field.ErrorTypeDuplicate}}},
		{"node: a bad podCIDR", node(func(n *api.Node) { n.Spec.PodCIDR, n.Spec.PodCIDRs = "10.244.1.0/33", []string{"10.244.1.0/33"} }),
			[]wantErr{{"spec.podCIDR", field.ErrorTypeInvalid}, {"spec.podCIDRs[0]", field.ErrorTypeInvalid}}},
		{"node: two IPv4 ranges", node(func(n *api.Node) { n.Spec.PodCIDRs = []string{"10.244.1.0/24", "10.245.1.0/24"} }),
			[]wantErr{{"spec.podCIDRs", field.ErrorTypeInvalid}}},
		{"node: dual stack", node(func(n *api.Node) { n.Spec.PodCIDRs = []string{"10.244.1.0/24", "fd00:10:244:1::/64"} }), nil},

		{"namespace: valid", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"},
			Spec: api.NamespaceSpec{Finalizers: []api.FinalizerName{api.FinalizerKubernetes}}}, nil},
		{"namespace: names are DNS labels", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team.a"}},
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
		{"namespace: spec finalizers are standard or qualified", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "a"},
			Spec: api.NamespaceSpec{Finalizers: []api.FinalizerName{"cleanup"}}},
			[]wantErr{{"spec.finalizers", field.ErrorTypeInvalid}}},

		{"service: valid", service(func(*api.Service) {}), nil},
		{"service: names are DNS-1035 labels", service(func(s *api.Service) { s.Name = "1web" }),
			[]wantErr{{"metadata.name", field.ErrorTypeInvalid}}},
		{"service: an unknown type", service(func(s *api.Service) { s.Spec.Type = "Internal" }),
			[]wantErr{{"spec.type", field.ErrorTypeNotSupported}}},
		{"service: ports are required", service(func(s *api.Service) { s.Spec.Ports = nil }),
			[]wantErr{{"spec.ports", field.ErrorTypeRequired}}},
		{"service: a headless service needs no ports", service(func(s *api.Service) {
			s.Spec.Ports, s.Spec.ClusterIP, s.Spec.ClusterIPs = nil, api.ClusterIPNone, []string{api.ClusterIPNone}
		}), nil},
		{"service: port 0 and targetPort 70000", service(func(s *api.Service) {
			s.Spec.Ports[0].Port, s.Spec.Ports[0].TargetPort = 0, api.FromInt32(70000)
		}), []wantErr{{"spec.ports[0].port", field.ErrorTypeInvalid}, {"spec.ports[0].targetPort", field.ErrorTypeInvalid}}},
		{"service: several ports need names", service(func(s *api.Service) {
			s.Spec.Ports = append(s.Spec.Ports, api.ServicePort{Protocol: api.ProtocolTCP, Port: 443, TargetPort: api.FromString("https")})
		}), []wantErr{{"spec.ports[0].name", field.ErrorTypeRequired}, {"spec.ports[1].name", field.ErrorTypeRequired}}},
		{"service: the same port twice", service(func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "a", Protocol: api.ProtocolTCP, Port: 80, TargetPort: api.FromInt32(80)},
				{Name: "b", Protocol: api.ProtocolTCP, Port: 80, TargetPort: api.FromInt32(8080)}}
		}), []wantErr{{"spec.ports[1]", field.ErrorTypeDuplicate}}},
		{"service: nodePort on a ClusterIP service", service(func(s *api.Service) { s.Spec.Ports[0].NodePort = 30080 }),
			[]wantErr{{"spec.ports[0].nodePort", field.ErrorTypeForbidden}}},
		{"service: a bad cluster IP", service(func(s *api.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.96.0.300", nil }),
			[]wantErr{{"spec.clusterIP", field.ErrorTypeInvalid}}},

		{"endpoints: valid", endpoints(func(*api.Endpoints) {}), nil},
		{"endpoints: a subset needs addresses", endpoints(func(e *api.Endpoints) { e.Subsets[0].Addresses = nil }),
			[]wantErr{{"subsets[0]", field.ErrorTypeRequired}}},
		{"endpoints: a loopback address", endpoints(func(e *api.Endpoints) { e.Subsets[0].Addresses[0].IP = "127.0.0.1" }),
			[]wantErr{{"subsets[0].addresses[0].ip", field.ErrorTypeInvalid}}},
		{"endpoints: not an address", endpoints(func(e *api.Endpoints) { e.Subsets[0].Addresses[0].IP = "pod-1" }),
			[]wantErr{{"subsets[0].addresses[0].ip", field.ErrorTypeInvalid}}},
		{"endpoints: a port without protocol", endpoints(func(e *api.Endpoints) { e.Subsets[0].Ports[0].Protocol = "" }),
			[]wantErr{{"subsets[0].ports[0].protocol", field.ErrorTypeRequired}}},

		{"event: an old-style event in its object's namespace", &api.Event{ObjectMeta: api.ObjectMeta{Name: "nginx.1", Namespace: "default"},
			InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "nginx"}, Reason: "Scheduled"}, nil},
		{"event: an old-style event about a node lives in default", &api.Event{ObjectMeta: api.ObjectMeta{Name: "node-1.1", Namespace: "default"},
			InvolvedObject: api.ObjectReference{Kind: "Node", Name: "node-1"}, Reason: "NodeNotReady"}, nil},
		{"event: in another namespace than its object", &api.Event{ObjectMeta: api.ObjectMeta{Name: "nginx.1", Namespace: "default"},
			InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "team-a", Name: "nginx"}},
			[]wantErr{{"involvedObject.namespace", field.ErrorTypeInvalid}}},
		{"event: a valid new-style event", newStyleEvent(func(*api.Event) {}), nil},
		{"event: a new-style event needs reason, action and reporter", newStyleEvent(func(e *api.Event) {
			e.Reason, e.Action, e.ReportingController, e.ReportingInstance = "", "", "", ""
		}), []wantErr{{"reason", field.ErrorTypeRequired}, {"action", field.ErrorTypeRequired},
			{"reportingComponent", field.ErrorTypeRequired}, {"reportingInstance", field.ErrorTypeRequired}}},

		{"lease: valid", &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: api.NamespaceNodeLease},
			Spec: api.LeaseSpec{HolderIdentity: api.Ptr("node-1"), LeaseDurationSeconds: api.Ptr[int32](40)}}, nil},
		{"lease: a duration of 0", &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: api.NamespaceNodeLease},
			Spec: api.LeaseSpec{LeaseDurationSeconds: api.Ptr[int32](0), LeaseTransitions: api.Ptr[int32](-1)}},
			[]wantErr{{"spec.leaseDurationSeconds", field.ErrorTypeInvalid}, {"spec.leaseTransitions", field.ErrorTypeInvalid}}},

		{"role: valid", &api.Role{ObjectMeta: api.ObjectMeta{Name: "pod-reader", Namespace: "default"},
			Rules: []api.PolicyRule{{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"pods"}}}}, nil},
		{"role: a rule needs verbs, groups and resources", &api.Role{ObjectMeta: api.ObjectMeta{Name: "r", Namespace: "default"},
			Rules: []api.PolicyRule{{}}},
			[]wantErr{{"rules[0].verbs", field.ErrorTypeRequired}, {"rules[0].apiGroups", field.ErrorTypeRequired}, {"rules[0].resources", field.ErrorTypeRequired}}},
		{"role: no non-resource URLs in a namespace", &api.Role{ObjectMeta: api.ObjectMeta{Name: "r", Namespace: "default"},
			Rules: []api.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}}},
			[]wantErr{{"rules[0].nonResourceURLs", field.ErrorTypeInvalid}}},
		{"clusterrole: system names and non-resource URLs", &api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "system:discovery"},
			Rules: []api.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/api/*"}}}}, nil},
		{"rolebinding: valid", binding(func(*api.RoleBinding) {}), nil},
		{"rolebinding: roleRef kind is Role or ClusterRole", binding(func(b *api.RoleBinding) { b.RoleRef.Kind = "User" }),
			[]wantErr{{"roleRef.kind", field.ErrorTypeNotSupported}}},
		{"rolebinding: roleRef needs the RBAC group and a name", binding(func(b *api.RoleBinding) { b.RoleRef.APIGroup, b.RoleRef.Name = "", "" }),
			[]wantErr{{"roleRef.apiGroup", field.ErrorTypeNotSupported}, {"roleRef.name", field.ErrorTypeRequired}}},
		{"rolebinding: subject kinds are User, Group, ServiceAccount", binding(func(b *api.RoleBinding) { b.Subjects[0].Kind = "Robot" }),
			[]wantErr{{"subjects[0].kind", field.ErrorTypeNotSupported}}},
		{"rolebinding: a User subject is in the RBAC group", binding(func(b *api.RoleBinding) { b.Subjects[0].APIGroup = "" }),
			[]wantErr{{"subjects[0].apiGroup", field.ErrorTypeNotSupported}}},
		{"clusterrolebinding: only ClusterRoles, service accounts need a namespace", &api.ClusterRoleBinding{
			ObjectMeta: api.ObjectMeta{Name: "system:kube-scheduler"},
			RoleRef:    api.RoleRef{APIGroup: api.RBACGroupName, Kind: "Role", Name: "x"},
			Subjects:   []api.Subject{{Kind: api.ServiceAccountKind, Name: "default"}}},
			[]wantErr{{"roleRef.kind", field.ErrorTypeNotSupported}, {"subjects[0].namespace", field.ErrorTypeRequired}}},

		{"quota: valid", quota(resource.ResourceList{"pods": resource.MustParse("10"), api.ResourceRequestsCPU: resource.MustParse("1500m")}), nil},
		{"quota: a negative limit", quota(resource.ResourceList{api.ResourceLimitsMemory: resource.MustParse("-1Gi")}),
			[]wantErr{{"spec.hard[limits.memory]", field.ErrorTypeInvalid}}},
		{"quota: half a pod", quota(resource.ResourceList{"pods": resource.MustParse("1500m")}),
			[]wantErr{{"spec.hard[pods]", field.ErrorTypeInvalid}}},
		{"quota: an unknown unqualified resource", quota(resource.ResourceList{"gpus": resource.MustParse("1")}),
			[]wantErr{{"spec.hard[gpus]", field.ErrorTypeInvalid}}},

		{"priorityclass: valid", &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000,
			PreemptionPolicy: api.Ptr(api.PreemptLowerPriority)}, nil},
		{"priorityclass: above the user maximum", &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000000001},
			[]wantErr{{"value", field.ErrorTypeForbidden}}},
		{"priorityclass: the system- prefix is reserved", &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "system-mine"}, Value: 1},
			[]wantErr{{"metadata.name", field.ErrorTypeForbidden}}},
		{"priorityclass: a built-in class", &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: api.SystemNodeCritical},
			Value: api.SystemCriticalPriority + 1000}, nil},

		{"serviceaccount: valid", &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "default", Namespace: "default"}}, nil},
		{"serviceaccount: needs a namespace", &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "default"}},
			[]wantErr{{"metadata.namespace", field.ErrorTypeRequired}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireErrors(t, ValidateObject(tc.obj), tc.want...)
		})
	}
}

func TestKindMessages(t *testing.T) {
	b := &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "b", Namespace: "default"},
		RoleRef: api.RoleRef{APIGroup: api.RBACGroupName, Kind: "Policy", Name: "r"}}
	assert.Equal(t, `roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"`, ValidateObject(b).Error())

	r := &api.Role{ObjectMeta: api.ObjectMeta{Name: "r", Namespace: "default"},
		Rules: []api.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods"}}}}
	assert.Equal(t, "rules[0].verbs: Required value: verbs must contain at least one value", ValidateObject(r).Error())

	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Spec: api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: "Never"}}}}
	assert.Equal(t, `spec.taints[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
		ValidateObject(n).Error())
}
