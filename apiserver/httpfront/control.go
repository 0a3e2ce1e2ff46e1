// control.go: /kubesim/..., the simulator's own control endpoints (kubesim step's POST /kubesim/step),
// served beside the API by the program that embeds the front. They change how the whole cluster runs,
// so only system:masters may call them; anyone else gets Kubernetes' 403 for a path.
package httpfront

import (
	"fmt"
	"net/http"
	"strings"

	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
)

// ControlPrefix is where the control endpoints live.
const ControlPrefix = "/kubesim/"

// serveControl hands an admin's request under ControlPrefix to the embedding program's handler.
func (h *Handler) serveControl(w http.ResponseWriter, r *http.Request, user apiserver.User) {
	if h.control == nil {
		writeError(w, notFoundPath())
		return
	}
	if !user.InGroup(apiserver.GroupMasters) {
		writeError(w, forbiddenPath(user, strings.ToLower(r.Method), r.URL.Path))
		return
	}
	h.control.ServeHTTP(w, r)
}

// forbiddenPath is kube-apiserver's 403 for a non-resource path: `forbidden: User "alice" cannot get
// path "/metrics"`.
func forbiddenPath(user apiserver.User, verb, path string) error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusForbidden, Reason: apierrors.ReasonForbidden, Details: &apierrors.StatusDetails{},
		Message: fmt.Sprintf("forbidden: User %q cannot %s path %q", user.Name, verb, path)}}
}
