// admission.go: AdmissionReview (admission.k8s.io/v1), what kube-apiserver sends an admission
// webhook and what the webhook sends back. The request carries the object as JSON, exactly as the
// webhook server would read it off the wire; a mutating webhook answers with a JSONPatch (RFC 6902,
// base64 in JSON, patchType "JSONPatch") that the apiserver applies to the object.
//
// The apiserver's side (matching webhooks, calling them, applying patches) is in apiserver/webhook.go.
package api

import "encoding/json"

// AdmissionReview is the envelope of one webhook call: Request on the way in, Response on the way
// back (kind AdmissionReview, apiVersion admission.k8s.io/v1 both ways).
type AdmissionReview struct {
	TypeMeta `json:",inline"`
	Request  *AdmissionRequest  `json:"request,omitempty"`
	Response *AdmissionResponse `json:"response,omitempty"`
}

// GroupVersionKind names a kind: {apps v1 Deployment}.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// GroupVersionResource names a resource: {apps v1 deployments}.
type GroupVersionResource struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
}

// UserInfo is who made the request, as the authenticator saw them (authentication.k8s.io/v1).
type UserInfo struct {
	Username string   `json:"username,omitempty"`
	UID      string   `json:"uid,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// AdmissionRequest describes the write under admission.
type AdmissionRequest struct {
	// UID identifies this call; the response must echo it.
	UID      string               `json:"uid"`
	Kind     GroupVersionKind     `json:"kind"`
	Resource GroupVersionResource `json:"resource"`
	// SubResource is "status", "scale", ... or "".
	SubResource string `json:"subResource,omitempty"`
	// RequestKind and RequestResource are what the client sent, before conversion to the version
	// the webhook asked for (matchPolicy Equivalent); with one version per resource they equal Kind
	// and Resource.
	RequestKind     *GroupVersionKind     `json:"requestKind,omitempty"`
	RequestResource *GroupVersionResource `json:"requestResource,omitempty"`
	Name            string                `json:"name,omitempty"`
	Namespace       string                `json:"namespace,omitempty"`
	Operation       OperationType         `json:"operation"`
	UserInfo        UserInfo              `json:"userInfo"`
	// Object is the object as it would be stored (JSON); OldObject the stored one, on UPDATE.
	Object    json.RawMessage `json:"object,omitempty"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
	// DryRun says nothing will be persisted: a webhook must then have no side effects.
	DryRun *bool `json:"dryRun,omitempty"`
}

// AdmissionResponse is the webhook's verdict.
type AdmissionResponse struct {
	UID     string `json:"uid"`
	Allowed bool   `json:"allowed"`
	// Result explains a denial: its code (400 when below 400) and message reach the client.
	Result *AdmissionStatus `json:"status,omitempty"`
	// Patch is a JSONPatch document (base64 in JSON, as any []byte), applied to the object when
	// PatchType is JSONPatch; only mutating webhooks may send one.
	Patch     []byte     `json:"patch,omitempty"`
	PatchType *PatchType `json:"patchType,omitempty"`
	// Warnings go back to the client as Warning headers.
	Warnings []string `json:"warnings,omitempty"`
}

// AdmissionStatus is the part of metav1.Status a webhook fills in to explain a denial.
type AdmissionStatus struct {
	Code    int32  `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// PatchType is the format of AdmissionResponse.Patch. admission.k8s.io/v1 knows only JSONPatch.
type PatchType string

// PatchTypeJSONPatch is RFC 6902: a list of {op, path, value} operations.
const PatchTypeJSONPatch PatchType = "JSONPatch"
