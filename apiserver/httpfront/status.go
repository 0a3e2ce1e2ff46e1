// status.go: answers on the wire. A failure is a metav1.Status whose code, reason, message and details
// are the apiserver error's own, so that kubectl prints `Error from server (NotFound): pods "x" not
// found`; an error that is not a Status (a bug) becomes 500 InternalError.
//
//	writeError(w, err)        the Status of err, with its HTTP code
//	writeJSON(w, code, v)     a JSON document
//	writeText(w, code, s)     plain text (/healthz)
//	ServedVersion             the /version document
package httpfront

import (
	"encoding/json"
	"errors"
	"net/http"
	goruntime "runtime"

	apierrors "kubesim/api/errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
)

// statusOf converts the apiserver's error into metav1.Status, the wire form.
func statusOf(err error) *metav1.Status {
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		se = apierrors.NewInternalError(err)
	}
	s := se.Status()
	out := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{Continue: s.Continue},
		Status:   metav1.StatusFailure, Message: s.Message, Reason: metav1.StatusReason(s.Reason), Code: s.Code,
	}
	if d := s.Details; d != nil {
		out.Details = &metav1.StatusDetails{Name: d.Name, Group: d.Group, Kind: d.Kind}
		for _, c := range d.Causes {
			out.Details.Causes = append(out.Details.Causes, metav1.StatusCause{Type: metav1.CauseType(c.Type), Message: c.Message, Field: c.Field})
		}
	}
	return out
}

func writeError(w http.ResponseWriter, err error) {
	st := statusOf(err)
	writeJSON(w, int(st.Code), st)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(statusOf(apierrors.NewInternalError(err)))
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

func writeText(w http.ResponseWriter, code int, s string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write([]byte(s))
}

// tooLarge is kube-apiserver's answer to a body over the limit.
func tooLarge() error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusRequestEntityTooLarge, Reason: "RequestEntityTooLarge",
		Message: "Request entity too large: limit is 3145728"}}
}

// tooManyRequests is the answer when MaxRequestsInFlight requests are already being served.
func tooManyRequests() error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusTooManyRequests, Reason: apierrors.ReasonTooManyRequests, Message: "Too many requests, please try again later.",
		Details: &apierrors.StatusDetails{}}}
}

// notFoundPath is the 404 for a URL that names nothing the server serves.
func notFoundPath() error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusNotFound, Reason: apierrors.ReasonNotFound, Message: "the server could not find the requested resource",
		Details: &apierrors.StatusDetails{}}}
}

// unsupported is 415 for a body or patch format kubesim does not read.
func unsupported(what string) error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusUnsupportedMediaType, Reason: "UnsupportedMediaType", Message: what}}
}

// ServedVersion is what /version reports. The minor version matters beyond display: the kubectl
// installed here (and in CI) is a dispatcher that runs its build for the server's minor version, and
// its default 1.32 build for a minor it does not ship, such as 1.34. kubesim follows Kubernetes 1.34
// but answers 1.33: the newest build the dispatcher ships, within kubectl's supported skew of 1.34,
// and the build kubesim's kubectl test runs.
var ServedVersion = version.Info{Major: "1", Minor: "33", GitVersion: "v1.33.0-kubesim",
	GitCommit: "kubesim", GitTreeState: "clean",
	GoVersion: goruntime.Version(), Compiler: goruntime.Compiler, Platform: goruntime.GOOS + "/" + goruntime.GOARCH}
