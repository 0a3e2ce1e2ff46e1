// rbac.go: the RBAC kinds of rbac.authorization.k8s.io/v1. A Role (namespaced) or ClusterRole lists
// what may be done; a RoleBinding or ClusterRoleBinding grants a role to users, groups and service
// accounts. The authorizer allows a request if any binding's role has a rule matching it; there are
// no deny rules.
package api

// RBACGroupName is the RBAC API group, the default apiGroup of roleRef and of User and Group subjects.
const RBACGroupName = "rbac.authorization.k8s.io"

// Subject kinds.
const (
	UserKind           = "User"
	GroupKind          = "Group"
	ServiceAccountKind = "ServiceAccount"
)

// Wildcards a rule may use.
const (
	APIGroupAll    = "*"
	ResourceAll    = "*"
	VerbAll        = "*"
	NonResourceAll = "*"
)

// PolicyRule allows verbs on resources in API groups (optionally only the named objects), or verbs on
// non-resource URLs such as /healthz.
type PolicyRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// Role is a set of rules within one namespace.
type Role struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Rules      []PolicyRule `json:"rules"`
}

// ClusterRole is a set of rules for the whole cluster, or a template a RoleBinding grants in one namespace.
type ClusterRole struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Rules      []PolicyRule `json:"rules"`
}

// Subject is who a binding grants to. apiGroup is "rbac.authorization.k8s.io" for User and Group and
// "" for ServiceAccount, which also needs a namespace.
type Subject struct {
	Kind      string `json:"kind"`
	APIGroup  string `json:"apiGroup,omitempty"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// RoleRef names the Role or ClusterRole a binding grants. It cannot change after creation.
type RoleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// RoleBinding grants a Role or ClusterRole within its own namespace.
type RoleBinding struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Subjects   []Subject `json:"subjects,omitempty"`
	RoleRef    RoleRef   `json:"roleRef"`
}

// ClusterRoleBinding grants a ClusterRole in every namespace and on cluster-scoped resources.
type ClusterRoleBinding struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Subjects   []Subject `json:"subjects,omitempty"`
	RoleRef    RoleRef   `json:"roleRef"`
}
