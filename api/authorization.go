// authorization.go: the reviews of authorization.k8s.io/v1, questions asked of the apiserver's
// authorizer for the user who sends them. SelfSubjectAccessReview is "may I do this?" (`kubectl auth
// can-i VERB RESOURCE`); SelfSubjectRulesReview is "what may I do in this namespace?" (`kubectl auth
// can-i --list`). The apiserver fills in status and stores nothing.
//
// kubesim simplification: only resourceAttributes are asked (no nonResourceAttributes such as
// /healthz, no fieldSelector or labelSelector in the attributes).
package api

// AuthorizationGroupName is the API group of access reviews.
const AuthorizationGroupName = "authorization.k8s.io"

// SelfSubjectAccessReview asks whether the requesting user may perform an action. Its spec is the
// question; status is the answer, filled in by the apiserver.
type SelfSubjectAccessReview struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       SelfSubjectAccessReviewSpec `json:"spec"`
	Status     SubjectAccessReviewStatus   `json:"status,omitempty"`
}

// SelfSubjectAccessReviewSpec holds the action asked about.
type SelfSubjectAccessReviewSpec struct {
	ResourceAttributes *ResourceAttributes `json:"resourceAttributes,omitempty"`
}

// ResourceAttributes describe a request on a resource, as the authorizer sees it. Empty fields match
// everything: an empty namespace asks about all namespaces, an empty name about every object.
type ResourceAttributes struct {
	Namespace   string `json:"namespace,omitempty"`
	Verb        string `json:"verb,omitempty"`
	Group       string `json:"group,omitempty"`
	Version     string `json:"version,omitempty"`
	Resource    string `json:"resource,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	Name        string `json:"name,omitempty"`
}

// SubjectAccessReviewStatus is the authorizer's answer. Denied is true only when an authorizer
// denies explicitly (RBAC never does: it only fails to allow); reason says which rule decided.
type SubjectAccessReviewStatus struct {
	Allowed         bool   `json:"allowed"`
	Denied          bool   `json:"denied,omitempty"`
	Reason          string `json:"reason,omitempty"`
	EvaluationError string `json:"evaluationError,omitempty"`
}

// SelfSubjectRulesReview asks for every rule the requesting user holds in a namespace. The answer is
// a list for people and tools (kubectl prints it as a table), not a promise: the authorizer, not this
// list, decides each request, and Incomplete says when an authorizer could not enumerate its rules.
type SelfSubjectRulesReview struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       SelfSubjectRulesReviewSpec `json:"spec"`
	Status     SubjectRulesReviewStatus   `json:"status,omitempty"`
}

// SelfSubjectRulesReviewSpec names the namespace asked about (required).
type SelfSubjectRulesReviewSpec struct {
	Namespace string `json:"namespace,omitempty"`
}

// SubjectRulesReviewStatus is the rules found. They may repeat or overlap: kubectl compacts them.
type SubjectRulesReviewStatus struct {
	ResourceRules    []ResourceRule    `json:"resourceRules"`
	NonResourceRules []NonResourceRule `json:"nonResourceRules"`
	Incomplete       bool              `json:"incomplete"`
	EvaluationError  string            `json:"evaluationError,omitempty"`
}

// ResourceRule is one rule on resources, as a PolicyRule states it.
type ResourceRule struct {
	Verbs         []string `json:"verbs"`
	APIGroups     []string `json:"apiGroups,omitempty"`
	Resources     []string `json:"resources,omitempty"`
	ResourceNames []string `json:"resourceNames,omitempty"`
}

// NonResourceRule is one rule on URL paths that are not resources (/healthz, /api/*).
type NonResourceRule struct {
	Verbs           []string `json:"verbs"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// AuthenticationGroupName is the API group of SelfSubjectReview and of impersonated uids and extras.
const AuthenticationGroupName = "authentication.k8s.io"

// SelfSubjectReview (authentication.k8s.io/v1) asks "who am I?" (`kubectl auth whoami`): the
// apiserver answers with the user it authenticated the request as (after impersonation, the user
// acted as), and stores nothing.
type SelfSubjectReview struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Status     SelfSubjectReviewStatus `json:"status,omitempty"`
}

// SelfSubjectReviewStatus holds the answer.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo `json:"userInfo,omitempty"` // admission.go: kubesim's users have a name and groups only
}
