// bootstrap.go: what kube-apiserver creates in a fresh cluster before anyone asks: the system
// namespaces (default, kube-system, kube-public, kube-node-lease), the bootstrap RBAC roles and
// bindings for each component (system:kube-scheduler, system:kube-controller-manager, cluster-admin
// for system:masters, system:basic-user for every authenticated user, and the user-facing
// admin/edit/view roles), and the built-in PriorityClasses.
//
// The Service "kubernetes" in "default" (10.96.0.1:443) points at the apiserver itself; kube-apiserver
// creates it and keeps its Endpoints and EndpointSlice (servicealloc.go reserves its address).
//
// kubesim simplification: the "default" ServiceAccount of the system namespaces is created here too,
// so pods can be admitted before the serviceaccount controller runs; that controller creates it in
// every other namespace. Likewise the ConfigMap kube-root-ca.crt of the system namespaces (with
// Config.RootCA), so that a kubelet can mount a pod's kube-api-access volume in a cluster without
// kube-controller-manager (component tests); its root CA publisher makes it everywhere else.
package apiserver

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"slices"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/trace"
	"kubesim/wire"
)

// LoopbackUser is the apiserver's own identity when it writes bootstrap objects.
const LoopbackUser = "system:apiserver"

// SystemNamespaces are created at start.
var SystemNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

func bootstrapObjects() []api.Object {
	var objs []api.Object
	for _, ns := range SystemNamespaces {
		objs = append(objs, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}})
	}
	for _, ns := range SystemNamespaces {
		objs = append(objs, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "default", Namespace: ns}})
	}
	all := []string{"*"}
	read := []string{"get", "list", "watch"}
	write := []string{"create", "update", "patch", "delete", "deletecollection"}
	rule := func(groups, resources, verbs []string) api.PolicyRule {
		return api.PolicyRule{APIGroups: groups, Resources: resources, Verbs: verbs}
	}
	core, apps := []string{""}, []string{"apps"}
	clusterRoles := map[string][]api.PolicyRule{
		"cluster-admin": {rule(all, all, all), {NonResourceURLs: all, Verbs: all}},
		"admin":         {rule(all, all, all)},
		"edit": {rule(core, []string{"pods", "services", "endpoints", "serviceaccounts", "events", "configmaps", "secrets", "persistentvolumeclaims"}, append(read, write...)),
			rule(apps, []string{"deployments", "replicasets", "daemonsets", "deployments/scale", "replicasets/scale"}, append(read, write...)),
			// Whoever may run pods as a service account may act as it too (Kubernetes' edit role does).
			rule(core, []string{"serviceaccounts"}, []string{"impersonate"})},
		"view": {rule(core, []string{"pods", "services", "endpoints", "serviceaccounts", "events", "namespaces", "resourcequotas", "configmaps", "persistentvolumeclaims"}, read),
			rule(apps, []string{"deployments", "replicasets", "daemonsets"}, read)},
		"system:kube-scheduler": {
			rule(core, []string{"pods", "nodes", "namespaces", "services", "persistentvolumeclaims", "persistentvolumes"}, read),
			// system:volume-scheduler: the VolumeBinding plugin binds and annotates claims for a node.
			rule(core, []string{"persistentvolumeclaims", "persistentvolumes"}, []string{"update", "patch"}),
			rule([]string{api.StorageGroupName}, []string{"storageclasses"}, read),
			rule(core, []string{"pods/binding", "bindings"}, []string{"create"}),
			rule(core, []string{"pods/status"}, []string{"update", "patch"}),
			rule(core, []string{"pods"}, []string{"delete"}),
			rule(core, []string{"events"}, []string{"create", "update", "patch"}),
			rule([]string{"coordination.k8s.io"}, []string{"leases"}, append(read, "create", "update")),
			rule([]string{"scheduling.k8s.io"}, []string{"priorityclasses"}, read),
			// DefaultPreemption prefers victims whose deletion keeps every disruption budget.
			rule([]string{"policy"}, []string{"poddisruptionbudgets"}, read),
			rule(apps, []string{"replicasets", "daemonsets"}, read)},
		"system:kube-controller-manager": {rule(all, all, all)},
		// Every authenticated user may ask what it may do (`kubectl auth can-i`, `auth can-i --list`) and
		// who it is (`kubectl auth whoami`).
		"system:basic-user": {rule([]string{api.AuthorizationGroupName}, []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}, []string{"create"}),
			rule([]string{api.AuthenticationGroupName}, []string{"selfsubjectreviews"}, []string{"create"})},
	}
	for _, name := range slices.Sorted(maps.Keys(clusterRoles)) {
		objs = append(objs, &api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: name}, Rules: clusterRoles[name]})
	}
	bind := func(name, role, kind, subject string) api.Object {
		return &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: name},
			RoleRef:  api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role},
			Subjects: []api.Subject{{Kind: kind, Name: subject, APIGroup: "rbac.authorization.k8s.io"}}}
	}
	objs = append(objs,
		bind("cluster-admin", "cluster-admin", "Group", GroupMasters),
		bind("system:kube-scheduler", "system:kube-scheduler", "User", "system:kube-scheduler"),
		bind("system:kube-controller-manager", "system:kube-controller-manager", "User", "system:kube-controller-manager"),
		bind("system:basic-user", "system:basic-user", "Group", GroupAuthenticated),
		&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "system-cluster-critical"}, Value: 2000000000,
			Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."},
		&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "system-node-critical"}, Value: 2000001000,
			Description: "Used for system critical pods that must not be moved from their current node."},
	)
	return objs
}

// rootCAObjects are the system namespaces' kube-root-ca.crt ConfigMaps (none without a CA).
func rootCAObjects(rootCA []byte) []api.Object {
	if rootCA == nil {
		return nil
	}
	var objs []api.Object
	for _, ns := range SystemNamespaces {
		objs = append(objs, api.RootCAConfigMapFor(ns, rootCA))
	}
	return objs
}

// bootstrap creates whatever bootstrap object is missing (a restarted apiserver on an existing etcd
// finds them all), through the full pipeline under the loopback identity, untraced but summarised.
func (s *Server) bootstrap(ctx context.Context) error {
	token := fmt.Sprintf("loopback-%016x", s.random63())
	s.AddCredential(Credential{Token: token, User: User{Name: LoopbackUser, Groups: []string{GroupMasters}}})
	defer s.RevokeCredential(token)
	tr := s.trace
	s.trace = nil
	defer func() { s.trace = tr }()
	created, err := s.createBootstrap(ctx, token, bootstrapObjects())
	if err != nil {
		return err
	}
	// The networking objects and the root CA ConfigMaps take their UIDs from a source of their own,
	// so that adding them did not change the names and UIDs every story already shows.
	s.randMu.Lock()
	main := s.rnd
	s.rnd = rand.New(rand.NewSource(networkingSeed))
	s.randMu.Unlock()
	n, err := s.createBootstrap(ctx, token, append(networkingObjects(), rootCAObjects(s.rootCA)...))
	s.randMu.Lock()
	s.rnd = main
	s.randMu.Unlock()
	if err != nil {
		return err
	}
	created += n
	if tr != nil && created > 0 {
		tr.Record(trace.Event{Component: "kube-apiserver", Action: "bootstrap", Detail: true}.
			Msgf("created %d bootstrap objects: namespaces %v, RBAC roles and bindings for each component, PriorityClasses, Service kubernetes", created, SystemNamespaces))
	}
	return nil
}

// createBootstrap creates each object that is missing and counts those it created.
func (s *Server) createBootstrap(ctx context.Context, token string, objs []api.Object) (int, error) {
	created := 0
	for _, obj := range objs {
		res, _ := api.ResourceOf(obj)
		m := obj.GetObjectMeta()
		_, err := s.Do(ctx, &wire.Request{Token: token, Agent: "kube-apiserver", Verb: wire.VerbCreate,
			Resource: res.Name, Namespace: m.Namespace, Body: obj})
		switch {
		case err == nil:
			created++
		case apierrors.IsAlreadyExists(err):
		default:
			return created, fmt.Errorf("bootstrap %s %s: %w", res.Name, m.Name, err)
		}
	}
	return created, nil
}

// networkingSeed seeds the UIDs of the networking bootstrap objects.
const networkingSeed = 14

// KubeProxyServiceAccount and CoreDNSServiceAccount are the ServiceAccounts, in kube-system, of
// kube-proxy and CoreDNS.
const (
	KubeProxyServiceAccount = "kube-proxy"
	CoreDNSServiceAccount   = "coredns"
)

// bindServiceAccount binds a ClusterRole to a ServiceAccount of kube-system.
func bindServiceAccount(name, role, sa string) *api.ClusterRoleBinding {
	return &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: name},
		RoleRef:  api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role},
		Subjects: []api.Subject{{Kind: "ServiceAccount", Name: sa, Namespace: "kube-system"}}}
}

// AdvertiseAddress is the address kube-apiserver advertises, the endpoint of Service "kubernetes".
const AdvertiseAddress = "192.168.49.2"

// SecurePort is kube-apiserver's port, the targetPort of Service "kubernetes".
const SecurePort = 6443

// networkingObjects are the Service "kubernetes" with its Endpoints and EndpointSlice, the way
// kube-apiserver's endpoint reconciler writes them, and the roles of kube-proxy and CoreDNS: the
// apiserver's own system:node-proxier bound to the user system:kube-proxy, and, as kubeadm adds them,
// the same role bound to the ServiceAccount kube-system/kube-proxy (which kubesim's kube-proxy
// authenticates as) and system:coredns bound to kube-system/coredns. (kubesim issues the components'
// credentials itself, so the ServiceAccount objects are not created.)
func networkingObjects() []api.Object {
	read := []string{"get", "list", "watch"}
	listWatch := []string{"list", "watch"}
	rule := func(groups, resources, verbs []string) api.PolicyRule {
		return api.PolicyRule{APIGroups: groups, Resources: resources, Verbs: verbs}
	}
	core, discovery := []string{""}, []string{api.DiscoveryGroupName}
	return []api.Object{
		&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "system:node-proxier"}, Rules: []api.PolicyRule{
			rule(core, []string{"endpoints", "services"}, listWatch),
			rule(core, []string{"nodes"}, read),
			rule([]string{"", "events.k8s.io"}, []string{"events"}, []string{"create", "patch", "update"}),
			rule(discovery, []string{"endpointslices"}, listWatch)}},
		&api.ClusterRole{ObjectMeta: api.ObjectMeta{Name: "system:coredns"}, Rules: []api.PolicyRule{
			rule(core, []string{"endpoints", "services", "pods", "namespaces"}, listWatch),
			rule(discovery, []string{"endpointslices"}, listWatch)}},
		&api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: "system:node-proxier"},
			RoleRef:  api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:node-proxier"},
			Subjects: []api.Subject{{Kind: "User", Name: "system:kube-proxy", APIGroup: "rbac.authorization.k8s.io"}}},
		bindServiceAccount("kubeadm:node-proxier", "system:node-proxier", KubeProxyServiceAccount),
		bindServiceAccount("system:coredns", "system:coredns", CoreDNSServiceAccount),
		&api.Service{ObjectMeta: api.ObjectMeta{Name: "kubernetes", Namespace: "default",
			Labels: map[string]string{"component": "apiserver", "provider": "kubernetes"}},
			Spec: api.ServiceSpec{Type: api.ServiceTypeClusterIP, ClusterIP: KubernetesServiceIP,
				Ports: []api.ServicePort{{Name: "https", Protocol: api.ProtocolTCP, Port: 443, TargetPort: api.FromInt32(SecurePort)}}}},
		&api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "kubernetes", Namespace: "default"},
			Subsets: []api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: AdvertiseAddress}},
				Ports: []api.EndpointPort{{Name: "https", Port: SecurePort, Protocol: api.ProtocolTCP}}}}},
		&api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "kubernetes", Namespace: "default",
			Labels: map[string]string{api.LabelServiceName: "kubernetes"}},
			AddressType: api.AddressTypeIPv4,
			Endpoints:   []api.Endpoint{{Addresses: []string{AdvertiseAddress}, Conditions: api.EndpointConditions{Ready: api.Ptr(true)}}},
			Ports:       []api.EndpointSlicePort{{Name: api.Ptr("https"), Protocol: api.Ptr(api.ProtocolTCP), Port: api.Ptr(int32(SecurePort))}}},
	}
}
