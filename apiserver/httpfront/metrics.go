// metrics.go: /metrics in Prometheus' text format, the apiserver's request counters as kube-apiserver
// names them: apiserver_request_total by verb, group, resource and code, and
// apiserver_request_duration_seconds_sum by verb, group and resource. The HTTP verbs are Kubernetes'
// (LIST and WATCH for collection reads, POST, PUT, DELETE).
//
// Kubernetes lets RBAC grant the path /metrics (a nonResourceURL rule, as system:monitoring has);
// kubesim's RBAC has no rules for paths, so only system:masters may read it, and everyone else gets
// Kubernetes' sentence for a path: `forbidden: User "alice" cannot get path "/metrics"`.
package httpfront

import (
	"fmt"
	"net/http"
	"strings"

	"kubesim/apiserver"
	"kubesim/wire"
)

// httpVerbs maps the apiserver's verbs to the verb label of apiserver_request_total.
var httpVerbs = map[string]string{wire.VerbGet: "GET", wire.VerbList: "LIST", wire.VerbWatch: "WATCH", wire.VerbCreate: "POST",
	wire.VerbUpdate: "PUT", wire.VerbPatch: "PATCH", wire.VerbDelete: "DELETE", wire.VerbDeleteCollection: "DELETE"}

func (h *Handler) serveMetrics(w http.ResponseWriter, user apiserver.User) {
	if !user.InGroup(apiserver.GroupMasters) {
		writeError(w, forbiddenPath(user, "get", "/metrics"))
		return
	}
	var b strings.Builder
	b.WriteString("# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, group, resource and HTTP response code.\n")
	b.WriteString("# TYPE apiserver_request_total counter\n")
	type series struct{ verb, group, resource string }
	var seen []series
	for _, rc := range h.srv.Requests() {
		resource, group, _ := strings.Cut(rc.Resource, ".")
		verb := httpVerbs[rc.Verb]
		if verb == "" {
			verb = strings.ToUpper(rc.Verb)
		}
		fmt.Fprintf(&b, "apiserver_request_total{code=%q,group=%q,resource=%q,verb=%q} %d\n", fmt.Sprint(rc.Code), group, resource, verb, rc.Count)
		s := series{rc.Verb, group, resource}
		if len(seen) == 0 || seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
	}
	b.WriteString("# HELP apiserver_request_duration_seconds_sum Total time spent serving requests, for each verb, group and resource.\n")
	b.WriteString("# TYPE apiserver_request_duration_seconds_sum counter\n")
	for _, s := range seen {
		gr := s.resource
		if s.group != "" {
			gr += "." + s.group
		}
		verb := httpVerbs[s.verb]
		if verb == "" {
			verb = strings.ToUpper(s.verb)
		}
		fmt.Fprintf(&b, "apiserver_request_duration_seconds_sum{group=%q,resource=%q,verb=%q} %g\n", s.group, s.resource, verb,
			h.srv.RequestLatency(s.verb, gr).Seconds())
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(b.String()))
}
