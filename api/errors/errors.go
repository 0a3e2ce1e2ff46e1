// Package errors is the apiserver's typed errors (mirrors k8s.io/apimachinery/pkg/api/errors): every
// failed request answers with a Status carrying an HTTP code, a machine-readable Reason and Kubernetes'
// own message, so that a learner sees exactly what kubectl would print.
//
// Read next: apiserver/doc.go, which says which gate returns which error.
package errors

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"kubesim/api/field"
)

// Reason is metav1.StatusReason: why a request failed, for machines.
type Reason string

// The reasons kubesim returns, with the HTTP code each goes with.
const (
	ReasonUnauthorized       Reason = "Unauthorized"       // 401
	ReasonForbidden          Reason = "Forbidden"          // 403
	ReasonNotFound           Reason = "NotFound"           // 404
	ReasonAlreadyExists      Reason = "AlreadyExists"      // 409
	ReasonConflict           Reason = "Conflict"           // 409
	ReasonGone               Reason = "Gone"               // 410
	ReasonExpired            Reason = "Expired"            // 410, a watch or list from a compacted resourceVersion
	ReasonInvalid            Reason = "Invalid"            // 422
	ReasonBadRequest         Reason = "BadRequest"         // 400
	ReasonMethodNotAllowed   Reason = "MethodNotAllowed"   // 405
	ReasonTimeout            Reason = "Timeout"            // 504
	ReasonTooManyRequests    Reason = "TooManyRequests"    // 429
	ReasonInternalError      Reason = "InternalError"      // 500
	ReasonServiceUnavailable Reason = "ServiceUnavailable" // 503
)

// StatusCause is one reason behind an Invalid error: the field path and what is wrong with it.
type StatusCause struct {
	Type    string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// StatusDetails names the object a failure is about.
type StatusDetails struct {
	Name   string        `json:"name,omitempty"`
	Group  string        `json:"group,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	Causes []StatusCause `json:"causes,omitempty"`
}

// Status is metav1.Status as the apiserver returns it for a failure.
type Status struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Status     string         `json:"status"`
	Message    string         `json:"message"`
	Reason     Reason         `json:"reason,omitempty"`
	Details    *StatusDetails `json:"details,omitempty"`
	Code       int32          `json:"code"`
	// Continue is metadata.continue: with a 410 for a chunked list's expired continue token, a token
	// that goes on with the rest of the list at the current revision.
	Continue string `json:"-"`
}

// StatusError is an error carrying a Status. Every error the apiserver returns is one.
type StatusError struct {
	ErrStatus Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the Status for the wire and the trace.
func (e *StatusError) Status() Status { return e.ErrStatus }

func newStatus(code int, reason Reason, msg string, details *StatusDetails) *StatusError {
	return &StatusError{Status{
		Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: int32(code), Reason: reason, Message: msg, Details: details,
	}}
}

// qualified names an object in messages the way Kubernetes does: `pods "nginx"`, `deployments.apps "nginx"`,
// and `pods ""` when the name is empty.
func qualified(groupResource, name string) string {
	return fmt.Sprintf("%s %q", groupResource, name)
}

func splitGroupResource(groupResource string) (group, resource string) {
	resource, group, _ = strings.Cut(groupResource, ".")
	return group, resource
}

// NewNotFound: `pods "nginx" not found`.
func NewNotFound(groupResource, name string) *StatusError {
	group, kind := splitGroupResource(groupResource)
	return newStatus(http.StatusNotFound, ReasonNotFound, qualified(groupResource, name)+" not found",
		&StatusDetails{Name: name, Group: group, Kind: kind})
}

// NewAlreadyExists: `pods "nginx" already exists`.
func NewAlreadyExists(groupResource, name string) *StatusError {
	group, kind := splitGroupResource(groupResource)
	return newStatus(http.StatusConflict, ReasonAlreadyExists, qualified(groupResource, name)+" already exists",
		&StatusDetails{Name: name, Group: group, Kind: kind})
}

// OptimisticLockErrorMsg is what Kubernetes says when a write carries a stale resourceVersion.
const OptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

// NewConflict: `Operation cannot be fulfilled on deployments.apps "nginx": <why>`.
func NewConflict(groupResource, name, why string) *StatusError {
	group, kind := splitGroupResource(groupResource)
	return newStatus(http.StatusConflict, ReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s: %s", qualified(groupResource, name), why),
		&StatusDetails{Name: name, Group: group, Kind: kind})
}

// NewInvalid: `Deployment.apps "nginx" is invalid: spec.replicas: Invalid value: -1: ...`, one cause per
// field error. qualifiedKind is "Deployment.apps" or "Pod".
func NewInvalid(qualifiedKind, name string, errs field.ErrorList) *StatusError {
	causes := make([]StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, StatusCause{Type: string(e.Type), Message: e.ErrorBody(), Field: e.Field})
	}
	kind, group, _ := strings.Cut(qualifiedKind, ".")
	msg := fmt.Sprintf("%s %q is invalid", qualifiedKind, name)
	if len(errs) > 0 {
		msg += ": " + errs.Error()
	}
	return newStatus(http.StatusUnprocessableEntity, ReasonInvalid, msg,
		&StatusDetails{Name: name, Group: group, Kind: kind, Causes: causes})
}

// NewForbidden: `pods "x" is forbidden: <why>` (or `pods is forbidden: ...` without a name).
func NewForbidden(groupResource, name, why string) *StatusError {
	group, kind := splitGroupResource(groupResource)
	object := groupResource
	if name != "" {
		object = qualified(groupResource, name)
	}
	return newStatus(http.StatusForbidden, ReasonForbidden, fmt.Sprintf("%s is forbidden: %s", object, why),
		&StatusDetails{Name: name, Group: group, Kind: kind})
}

// NewUnauthorized: the bare `Unauthorized` an apiserver answers for unknown or missing credentials.
func NewUnauthorized() *StatusError {
	return newStatus(http.StatusUnauthorized, ReasonUnauthorized, "Unauthorized", nil)
}

// NewResourceExpired: 410 Gone for a watch or list from a resourceVersion etcd has compacted away,
// e.g. `too old resource version: 12 (40)`.
func NewResourceExpired(msg string) *StatusError {
	return newStatus(http.StatusGone, ReasonExpired, msg, nil)
}

// NewBadRequest: 400 with the message as given.
func NewBadRequest(msg string) *StatusError {
	return newStatus(http.StatusBadRequest, ReasonBadRequest, msg, nil)
}

// NewMethodNotSupported: `the server does not allow this method on the requested resource`.
func NewMethodNotSupported(groupResource, verb string) *StatusError {
	group, kind := splitGroupResource(groupResource)
	return newStatus(http.StatusMethodNotAllowed, ReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", verb, groupResource),
		&StatusDetails{Group: group, Kind: kind})
}

// NewInternalError: `Internal error occurred: <err>`.
func NewInternalError(err error) *StatusError {
	return newStatus(http.StatusInternalServerError, ReasonInternalError,
		"Internal error occurred: "+err.Error(), &StatusDetails{Causes: []StatusCause{{Message: err.Error()}}})
}

// NewUntranslated: an error that no storage layer translated, as kube-apiserver reports one
// (responsewriters.ErrorToAPIStatus): 500, no reason, the error's own words. etcd's
// "etcdserver: request timed out" reaches clients this way.
func NewUntranslated(msg string) *StatusError {
	return newStatus(http.StatusInternalServerError, "", msg, nil)
}

// NewTimeout: 504, the request could not complete in time.
func NewTimeout(msg string) *StatusError {
	return newStatus(http.StatusGatewayTimeout, ReasonTimeout, msg, nil)
}

// NewServiceUnavailable: 503, e.g. the apiserver cannot reach etcd.
func NewServiceUnavailable(msg string) *StatusError {
	return newStatus(http.StatusServiceUnavailable, ReasonServiceUnavailable, msg, nil)
}

// ReasonForError returns the Reason of a StatusError anywhere in err's chain, or "" for other errors.
func ReasonForError(err error) Reason {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Reason
	}
	return ""
}

// CodeForError returns the HTTP code of a StatusError anywhere in err's chain, or 0.
func CodeForError(err error) int {
	var se *StatusError
	if errors.As(err, &se) {
		return int(se.ErrStatus.Code)
	}
	return 0
}

// IsNotFound and friends test an error's Reason, however deeply it is wrapped.
func IsNotFound(err error) bool      { return ReasonForError(err) == ReasonNotFound }
func IsAlreadyExists(err error) bool { return ReasonForError(err) == ReasonAlreadyExists }
func IsConflict(err error) bool      { return ReasonForError(err) == ReasonConflict }
func IsInvalid(err error) bool       { return ReasonForError(err) == ReasonInvalid }
func IsForbidden(err error) bool     { return ReasonForError(err) == ReasonForbidden }
func IsUnauthorized(err error) bool  { return ReasonForError(err) == ReasonUnauthorized }
func IsBadRequest(err error) bool    { return ReasonForError(err) == ReasonBadRequest }
func IsInternalError(err error) bool { return ReasonForError(err) == ReasonInternalError }
func IsTimeout(err error) bool       { return ReasonForError(err) == ReasonTimeout }
func IsTooManyRequests(err error) bool {
	return ReasonForError(err) == ReasonTooManyRequests
}

// IsResourceExpired reports a 410 (Expired or Gone): the caller must relist.
func IsResourceExpired(err error) bool {
	r := ReasonForError(err)
	return r == ReasonExpired || r == ReasonGone
}

// NewTooManyRequests: 429, try again later; the eviction API's refusal when a disruption budget would
// be violated carries a DisruptionBudget cause.
func NewTooManyRequests(msg string, causes ...StatusCause) *StatusError {
	var details *StatusDetails
	if len(causes) > 0 {
		details = &StatusDetails{Causes: causes}
	}
	return newStatus(http.StatusTooManyRequests, ReasonTooManyRequests, msg, details)
}
