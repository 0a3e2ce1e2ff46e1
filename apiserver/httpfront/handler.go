// handler.go: the handler chain, outermost first, as kube-apiserver builds it
// (DefaultBuildHandlerChain): recover from panics (500), cap the body (413), authenticate (401), limit
// the requests in flight (429), then route: the endpoints that are not resources (/version, /healthz,
// /metrics, discovery, OpenAPI) or a resource request.
//
//	New(cfg) *Handler          an http.Handler for the cluster's HTTPS listener
//	(*Handler).ServeHTTP       one request through the chain
package httpfront

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	apierrors "kubesim/api/errors"
	"kubesim/apiserver"
	"kubesim/clock"
	"kubesim/wire"
)

// MaxBodyBytes is the largest request body accepted, as kube-apiserver's 3 MiB limit
// (maxRequestBodyBytes): etcd refuses values much larger than that anyway.
const MaxBodyBytes = 3 << 20

// Config assembles a Handler.
type Config struct {
	Server *apiserver.Server
	// Clock is the cluster's clock: the AGE column is measured against it, not the wall clock, so that
	// a sped-up cluster shows ages in its own time.
	Clock clock.Clock
	// Logs reads a container's log for pods/log; nil answers that logs are not served.
	Logs LogSource
	// MaxRequestsInFlight caps the requests served at once, watches aside (0: 400, kube-apiserver's
	// --max-requests-inflight); the next one gets 429 Too Many Requests with Retry-After.
	MaxRequestsInFlight int
	// Control serves the simulator's control endpoints under ControlPrefix (control.go), to
	// system:masters only; nil: they are 404.
	Control http.Handler
	// Audit, if set, receives the audit trail: an event per request, when it completes (audit.go;
	// AuditWriter writes them as JSON lines).
	Audit func(AuditEvent)
}

// Handler serves the Kubernetes API over HTTP.
type Handler struct {
	srv   *apiserver.Server
	clock clock.Clock
	logs  LogSource
	// control serves ControlPrefix, or nil.
	control http.Handler
	audit   func(AuditEvent) // or nil
	// inFlight holds one token per request being served (watches excepted).
	inFlight chan struct{}
}

// New builds the handler.
func New(cfg Config) *Handler {
	limit := cfg.MaxRequestsInFlight
	if limit <= 0 {
		limit = 400
	}
	return &Handler{srv: cfg.Server, clock: cfg.Clock, logs: cfg.Logs, control: cfg.Control, audit: cfg.Audit,
		inFlight: make(chan struct{}, limit)}
}

// isWatch tells the long-running requests that do not count against the in-flight limit.
func isWatch(r *http.Request) bool {
	q := r.URL.Query()
	return r.Method == http.MethodGet && (isTrue(q.Get("watch")) || isTrue(q.Get("follow")))
}

// ServeHTTP runs the chain, and records it in the audit trail.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.audit == nil {
		h.serve(w, r)
		return
	}
	received := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	r, note := withAuditNote(r)
	user := h.serve(rec, r)
	h.audit(auditEvent(r, note, user, rec.code, received, time.Now()))
}

// serve runs the chain, and returns who sent the request (no one, when authentication failed).
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) (user apiserver.User) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeError(w, apierrors.NewInternalError(fmt.Errorf("panic while serving %s %s: %v", r.Method, r.URL.Path, v)))
		}
	}()
	if r.ContentLength > MaxBodyBytes {
		writeError(w, tooLarge())
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)

	token := credential(h.srv, r)
	user, err := h.srv.Authenticate(token)
	if err != nil {
		writeError(w, err)
		return
	}
	if !isWatch(r) {
		select {
		case h.inFlight <- struct{}{}:
			defer func() { <-h.inFlight }()
		default:
			w.Header().Set("Retry-After", "1")
			writeError(w, tooManyRequests())
			return
		}
	}
	ctx := r.Context()
	// Acting as someone else (kubectl --as): checked here, before any path is served, so that a
	// refusal is the same 403 everywhere; a resource request carries it on to the apiserver, whose
	// authorize gate checks it again and tells the switch in the trace.
	imp, acting := impersonation(r.Header), user
	if imp != nil {
		if acting, err = h.srv.Impersonate(ctx, user, imp, r.Method+" "+r.URL.Path); err != nil {
			writeError(w, err)
			return
		}
		noteImpersonated(ctx, acting)
	}
	switch p := r.URL.Path; {
	case p == "/version":
		writeJSON(w, http.StatusOK, ServedVersion)
	case p == "/healthz" || p == "/readyz" || p == "/livez":
		h.health(w, r)
	case strings.HasPrefix(p, "/healthz/") || strings.HasPrefix(p, "/readyz/") || strings.HasPrefix(p, "/livez/"):
		writeText(w, http.StatusOK, "ok")
	case p == "/metrics":
		h.serveMetrics(w, acting)
	case strings.HasPrefix(p, ControlPrefix):
		h.serveControl(w, r, acting)
	case p == "/openapi" || strings.HasPrefix(p, "/openapi/"):
		h.serveOpenAPI(w, r)
	case p == "/api" || p == "/apis" || p == "/api/" || p == "/apis/":
		h.discoveryRoot(w, r)
	case strings.HasPrefix(p, "/apis/") && !strings.Contains(strings.Trim(p[len("/apis/"):], "/"), "/"):
		h.apiGroup(w, strings.Trim(p[len("/apis/"):], "/"))
	default:
		rt, err := parsePath(p)
		if err != nil {
			writeError(w, err)
			return
		}
		if rt.res == nil {
			h.groupVersion(w, rt)
			return
		}
		h.serveResource(ctx, w, r, token, imp, rt)
	}
	return user
}

// credential is what the request proves about its sender: a bearer token, else the token standing for
// a verified client certificate, else nothing (401 follows).
func credential(srv *apiserver.Server, r *http.Request) string {
	if auth := r.Header.Get("Authorization"); auth != "" {
		if t, ok := strings.CutPrefix(auth, "Bearer "); ok {
			return strings.TrimSpace(t)
		}
		return ""
	}
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 {
		return srv.CertificateCredential(r.TLS.VerifiedChains[0][0])
	}
	return ""
}

// impersonation reads who the request asks to act as from kubectl's --as, --as-group, --as-uid and
// --as-user-extra headers (Impersonate-User, one Impersonate-Group per group, Impersonate-Uid,
// Impersonate-Extra-<key>, its key %-encoded); nil when it asks nothing.
func impersonation(h http.Header) *wire.Impersonation {
	imp := &wire.Impersonation{User: h.Get("Impersonate-User"), Groups: h.Values("Impersonate-Group"), UID: h.Get("Impersonate-Uid")}
	for name, values := range h {
		encoded, ok := strings.CutPrefix(name, "Impersonate-Extra-") // net/http canonicalises names
		if !ok {
			continue
		}
		key := strings.ToLower(encoded)
		if k, err := url.PathUnescape(key); err == nil {
			key = k
		}
		if imp.Extra == nil {
			imp.Extra = map[string][]string{}
		}
		imp.Extra[key] = append(imp.Extra[key], values...)
	}
	if imp.User == "" && len(imp.Groups) == 0 && imp.UID == "" && imp.Extra == nil {
		return nil
	}
	return imp
}

// agent names the calling program in the trace, from its User-Agent ("kubectl/v1.32.4 (linux/amd64)
// kubernetes/..." is "kubectl").
func agent(r *http.Request) string {
	ua, _, _ := strings.Cut(r.UserAgent(), "/")
	if ua == "" {
		return "http"
	}
	return ua
}

// health answers /healthz, /readyz and /livez: "ok", or with ?verbose one line per check, as
// kube-apiserver lists its checks. kubesim has two: ping, and that the watch cache has read etcd.
func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	endpoint := strings.TrimPrefix(r.URL.Path, "/")
	cacheOK := h.srv.Revision() > 0
	code, verdict := http.StatusOK, endpoint+" check passed"
	if !cacheOK {
		code, verdict = http.StatusInternalServerError, endpoint+" check failed"
	}
	if _, verbose := r.URL.Query()["verbose"]; !verbose {
		if cacheOK {
			writeText(w, code, "ok")
		} else {
			writeText(w, code, "[-]watch-cache failed: reason withheld\n"+verdict)
		}
		return
	}
	var b strings.Builder
	b.WriteString("[+]ping ok\n")
	if cacheOK {
		b.WriteString("[+]watch-cache ok\n")
	} else {
		b.WriteString("[-]watch-cache failed: reason withheld\n")
	}
	b.WriteString(verdict + "\n")
	writeText(w, code, b.String())
}
