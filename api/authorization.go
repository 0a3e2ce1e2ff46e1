// authorization.go: SelfSubjectAccessReview of authorization.k8s.io/v1, the question "may I do
// this?" asked of the apiserver's authorizer. `kubectl auth can-i VERB RESOURCE` creates one; the
// apiserver fills in status for the user who sent it and stores nothing.
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
