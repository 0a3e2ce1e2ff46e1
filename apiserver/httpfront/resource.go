// resource.go: one resource request, from HTTP method and query to a wire.Request through
// (*apiserver.Server).Do, and the answer back (the REST handlers of k8s.io/apiserver/pkg/endpoints/
// handlers: get.go, create.go, update.go, delete.go, watch.go).
//
//	GET    collection            list (or watch with ?watch=true)
//	GET    object[/subresource]  get (pods/log reads the container's log)
//	POST   collection            create (pods/NAME/binding and /eviction: create the subresource)
//	PUT    object[/subresource]  update
//	PATCH  object[/subresource]  patch (patch.go)
//	DELETE object                delete
package httpfront

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func (h *Handler) serveResource(ctx context.Context, w http.ResponseWriter, r *http.Request, token string, imp *wire.Impersonation, rt route) {
	q := r.URL.Query()
	req := &wire.Request{Token: token, Agent: agent(r), Impersonate: imp, Resource: rt.res.GroupResource(),
		Subresource: rt.subresource, Namespace: rt.namespace, Name: rt.name,
		LabelSelector: q.Get("labelSelector"), FieldSelector: q.Get("fieldSelector"),
		ResourceVersion: q.Get("resourceVersion"), AllowWatchBookmarks: isTrue(q.Get("allowWatchBookmarks")),
		DryRun: q.Get("dryRun") == "All"}
	if req.Continue = q.Get("continue"); q.Get("limit") != "" {
		limit, err := strconv.ParseInt(q.Get("limit"), 10, 64)
		if err != nil {
			writeError(w, apierrors.NewBadRequest(fmt.Sprintf("invalid limit %q: %v", q.Get("limit"), err)))
			return
		}
		req.Limit = limit
	}
	if isStreamingSubresource(rt.res, rt.subresource) {
		writeError(w, notRunningProcesses(rt))
		return
	}
	warn(w, deprecationWarnings(rt.res))
	switch {
	case r.Method == http.MethodGet && rt.subresource == "log":
		h.serveLog(ctx, w, r, req)
	case r.Method == http.MethodGet && rt.name == "" && isTrue(q.Get("watch")):
		req.Verb = wire.VerbWatch
		h.serveWatch(ctx, w, r, req, rt)
	case r.Method == http.MethodGet && rt.name == "":
		req.Verb = wire.VerbList
		h.serveList(ctx, w, r, req, rt)
	case r.Method == http.MethodGet:
		req.Verb = wire.VerbGet
		h.serveObject(ctx, w, r, req, rt, http.StatusOK)
	case r.Method == http.MethodPost && (rt.name == "" || rt.subresource != ""):
		req.Verb = wire.VerbCreate
		req.HandOver = true // the body was decoded for this request alone
		if req.Body = h.readBody(w, r, rt); req.Body != nil {
			h.serveObject(ctx, w, r, req, rt, http.StatusCreated)
		}
	case r.Method == http.MethodPut && rt.name != "":
		req.Verb, req.HandOver = wire.VerbUpdate, true
		if req.Body = h.readBody(w, r, rt); req.Body != nil {
			h.serveObject(ctx, w, r, req, rt, http.StatusOK)
		}
	case r.Method == http.MethodPatch && rt.name != "":
		h.servePatch(ctx, w, r, req, rt)
	case r.Method == http.MethodDelete && rt.name != "" && rt.subresource == "":
		req.Verb = wire.VerbDelete
		if err := deleteOptions(r, req); err != nil {
			writeError(w, err)
			return
		}
		h.serveDelete(ctx, w, r, req, rt)
	default:
		writeError(w, apierrors.NewMethodNotSupported(rt.res.GroupResource(), methodVerb(r.Method, rt)))
	}
}

// methodVerb names the verb a refused method would have been, for the 405 message.
func methodVerb(method string, rt route) string {
	switch method {
	case http.MethodDelete:
		if rt.name == "" {
			return wire.VerbDeleteCollection
		}
		return wire.VerbDelete
	case http.MethodPost:
		return wire.VerbCreate
	case http.MethodPut:
		return wire.VerbUpdate
	}
	return method
}

func isTrue(s string) bool { return s == "true" || s == "1" }

// serveObject runs a get, create or update and writes the object it returns, as a Table when kubectl
// asked for one.
func (h *Handler) serveObject(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route, code int) {
	resp, err := h.srv.Do(ctx, req)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Verb == wire.VerbCreate && rt.name == "" {
		noteCreated(ctx, resp.Object.GetObjectMeta().Name)
	}
	if wantsTable(r) && req.Verb == wire.VerbGet && rt.subresource == "" {
		writeJSON(w, code, h.table(rt.res, []api.Object{resp.Object}, metav1.ListMeta{}, includeObject(r)))
		return
	}
	writeJSON(w, code, resp.Object)
}

// objectList is a list on the wire: PodList, DeploymentList, ...
type objectList struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   metav1.ListMeta `json:"metadata"`
	Items      []api.Object    `json:"items"`
}

func (h *Handler) serveList(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route) {
	resp, err := h.srv.Do(ctx, req)
	if err != nil {
		writeError(w, err)
		return
	}
	meta := metav1.ListMeta{ResourceVersion: resp.List.ResourceVersion, Continue: resp.List.Continue,
		RemainingItemCount: resp.List.RemainingItemCount}
	if wantsTable(r) {
		writeJSON(w, http.StatusOK, h.table(rt.res, resp.List.Items, meta, includeObject(r)))
		return
	}
	items := resp.List.Items
	if items == nil {
		items = []api.Object{}
	}
	writeJSON(w, http.StatusOK, objectList{APIVersion: rt.res.APIVersion(), Kind: rt.res.Kind + "List", Metadata: meta, Items: items})
}

// serveDelete writes the object when it is only marked for deletion (finalizers, a pod's grace
// period), else a Success Status naming what went, as kube-apiserver does.
func (h *Handler) serveDelete(ctx context.Context, w http.ResponseWriter, r *http.Request, req *wire.Request, rt route) {
	resp, err := h.srv.Do(ctx, req)
	if err != nil {
		writeError(w, err)
		return
	}
	if !resp.Deleted {
		writeJSON(w, http.StatusOK, resp.Object)
		return
	}
	m := resp.Object.GetObjectMeta()
	writeJSON(w, http.StatusOK, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:  metav1.StatusSuccess,
		Details: &metav1.StatusDetails{Name: m.Name, Group: rt.res.Group, Kind: rt.res.Name, UID: uidOf(m)}})
}

// deleteOptions reads gracePeriodSeconds, propagationPolicy and dryRun from the query and from a
// DeleteOptions body (kubectl sends the body).
func deleteOptions(r *http.Request, req *wire.Request) error {
	q := r.URL.Query()
	var opts metav1.DeleteOptions
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyReadError(err)
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &opts); err != nil {
			return apierrors.NewBadRequest(fmt.Sprintf("DeleteOptions in version \"v1\" cannot be handled as a DeleteOptions: %v", err))
		}
	}
	if s := q.Get("gracePeriodSeconds"); s != "" {
		g, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return apierrors.NewBadRequest(fmt.Sprintf("invalid gracePeriodSeconds %q", s))
		}
		opts.GracePeriodSeconds = &g
	}
	if s := q.Get("propagationPolicy"); s != "" {
		p := metav1.DeletionPropagation(s)
		opts.PropagationPolicy = &p
	}
	req.GracePeriodSeconds = opts.GracePeriodSeconds
	if opts.PropagationPolicy != nil {
		req.PropagationPolicy = string(*opts.PropagationPolicy)
	}
	for _, d := range opts.DryRun {
		req.DryRun = req.DryRun || d == "All"
	}
	return nil
}

// notRunningProcesses answers exec, attach and port-forward.
func notRunningProcesses(rt route) error {
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusNotImplemented, Reason: "NotImplemented",
		Message: fmt.Sprintf("pods/%s is not supported in kubesim: its containers are simulated and run no processes", rt.subresource),
		Details: &apierrors.StatusDetails{Name: rt.name, Kind: "pods"}}}
}

func uidOf(m *api.ObjectMeta) types.UID { return types.UID(m.UID) }
