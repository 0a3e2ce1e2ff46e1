// register.go: every kind kubesim serves, entered into the scheme with the names kubectl knows
// ("kubectl api-resources" lists the same group, kind, plural, short names and scope). Scale, Binding,
// Eviction and DeleteOptions are not here: they are request bodies of subresources, never stored;
// the reviews (SelfSubjectAccessReview, SelfSubjectRulesReview, SelfSubjectReview) are here though never stored,
// because each is a resource of its own.
package api

func init() {
	for _, r := range []*Resource{
		// core/v1
		{Version: "v1", Kind: "Pod", Name: "pods", Singular: "pod", ShortNames: []string{"po"}, Namespaced: true,
			Subresources: []string{"status", "binding", "eviction", "log"}, New: func() Object { return &Pod{} }},
		{Version: "v1", Kind: "Node", Name: "nodes", Singular: "node", ShortNames: []string{"no"},
			Subresources: []string{"status"}, New: func() Object { return &Node{} }},
		{Version: "v1", Kind: "Namespace", Name: "namespaces", Singular: "namespace", ShortNames: []string{"ns"},
			Subresources: []string{"status", "finalize"}, New: func() Object { return &Namespace{} }},
		{Version: "v1", Kind: "Service", Name: "services", Singular: "service", ShortNames: []string{"svc"}, Namespaced: true,
			Subresources: []string{"status"}, New: func() Object { return &Service{} }},
		{Version: "v1", Kind: "Endpoints", Name: "endpoints", Singular: "endpoints", ShortNames: []string{"ep"}, Namespaced: true,
			New: func() Object { return &Endpoints{} }},
		{Version: "v1", Kind: "Event", Name: "events", Singular: "event", ShortNames: []string{"ev"}, Namespaced: true,
			New: func() Object { return &Event{} }},
		{Version: "v1", Kind: "ServiceAccount", Name: "serviceaccounts", Singular: "serviceaccount", ShortNames: []string{"sa"}, Namespaced: true,
			New: func() Object { return &ServiceAccount{} }},
		{Version: "v1", Kind: "ConfigMap", Name: "configmaps", Singular: "configmap", ShortNames: []string{"cm"}, Namespaced: true,
			New: func() Object { return &ConfigMap{} }},
		{Version: "v1", Kind: "Secret", Name: "secrets", Singular: "secret", Namespaced: true,
			New: func() Object { return &Secret{} }},
		{Version: "v1", Kind: "ResourceQuota", Name: "resourcequotas", Singular: "resourcequota", ShortNames: []string{"quota"}, Namespaced: true,
			Subresources: []string{"status"}, New: func() Object { return &ResourceQuota{} }},
		{Version: "v1", Kind: "PersistentVolume", Name: "persistentvolumes", Singular: "persistentvolume", ShortNames: []string{"pv"},
			Subresources: []string{"status"}, New: func() Object { return &PersistentVolume{} }},
		{Version: "v1", Kind: "PersistentVolumeClaim", Name: "persistentvolumeclaims", Singular: "persistentvolumeclaim", ShortNames: []string{"pvc"}, Namespaced: true,
			Subresources: []string{"status"}, New: func() Object { return &PersistentVolumeClaim{} }},

		// apps/v1
		{Group: "apps", Version: "v1", Kind: "Deployment", Name: "deployments", Singular: "deployment", ShortNames: []string{"deploy"}, Namespaced: true,
			Subresources: []string{"status", "scale"}, New: func() Object { return &Deployment{} }},
		{Group: "apps", Version: "v1", Kind: "ReplicaSet", Name: "replicasets", Singular: "replicaset", ShortNames: []string{"rs"}, Namespaced: true,
			Subresources: []string{"status", "scale"}, New: func() Object { return &ReplicaSet{} }},
		{Group: "apps", Version: "v1", Kind: "DaemonSet", Name: "daemonsets", Singular: "daemonset", ShortNames: []string{"ds"}, Namespaced: true,
			Subresources: []string{"status"}, New: func() Object { return &DaemonSet{} }},

		// rbac.authorization.k8s.io/v1: no short names, as in Kubernetes.
		{Group: RBACGroupName, Version: "v1", Kind: "Role", Name: "roles", Singular: "role", Namespaced: true,
			New: func() Object { return &Role{} }},
		{Group: RBACGroupName, Version: "v1", Kind: "ClusterRole", Name: "clusterroles", Singular: "clusterrole",
			New: func() Object { return &ClusterRole{} }},
		{Group: RBACGroupName, Version: "v1", Kind: "RoleBinding", Name: "rolebindings", Singular: "rolebinding", Namespaced: true,
			New: func() Object { return &RoleBinding{} }},
		{Group: RBACGroupName, Version: "v1", Kind: "ClusterRoleBinding", Name: "clusterrolebindings", Singular: "clusterrolebinding",
			New: func() Object { return &ClusterRoleBinding{} }},

		// authorization.k8s.io/v1: a question, never stored (create only).
		{Group: AuthorizationGroupName, Version: "v1", Kind: "SelfSubjectAccessReview", Name: "selfsubjectaccessreviews", Singular: "selfsubjectaccessreview",
			New: func() Object { return &SelfSubjectAccessReview{} }},
		{Group: AuthorizationGroupName, Version: "v1", Kind: "SelfSubjectRulesReview", Name: "selfsubjectrulesreviews", Singular: "selfsubjectrulesreview",
			New: func() Object { return &SelfSubjectRulesReview{} }},

		// authentication.k8s.io/v1: a question, never stored (create only).
		{Group: AuthenticationGroupName, Version: "v1", Kind: "SelfSubjectReview", Name: "selfsubjectreviews", Singular: "selfsubjectreview",
			New: func() Object { return &SelfSubjectReview{} }},

		// discovery.k8s.io/v1: no short names, as in Kubernetes.
		{Group: DiscoveryGroupName, Version: "v1", Kind: "EndpointSlice", Name: "endpointslices", Singular: "endpointslice", Namespaced: true,
			New: func() Object { return &EndpointSlice{} }},

		// policy/v1
		{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Name: "poddisruptionbudgets", Singular: "poddisruptionbudget", ShortNames: []string{"pdb"}, Namespaced: true,
			Subresources: []string{"status"}, New: func() Object { return &PodDisruptionBudget{} }},

		// coordination.k8s.io/v1 and scheduling.k8s.io/v1
		{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease", Name: "leases", Singular: "lease", Namespaced: true,
			New: func() Object { return &Lease{} }},
		{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass", Name: "priorityclasses", Singular: "priorityclass", ShortNames: []string{"pc"},
			New: func() Object { return &PriorityClass{} }},

		// storage.k8s.io/v1
		{Group: StorageGroupName, Version: "v1", Kind: "StorageClass", Name: "storageclasses", Singular: "storageclass", ShortNames: []string{"sc"},
			New: func() Object { return &StorageClass{} }},
	} {
		register(r)
	}
}
