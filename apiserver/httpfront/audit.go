// audit.go: the audit trail, one JSON line per HTTP request when it completes, in the shape of
// Kubernetes' audit events (audit.k8s.io/v1 Event at level Metadata, stage ResponseComplete): who
// (user), what (verb, requestURI, objectRef), the answer (responseStatus.code) and when
// (requestReceivedTimestamp, stageTimestamp, on the wall clock); the difference of the two is the
// latency, also written out in the annotation apiserver.latency.k8s.io/total (which kube-apiserver
// adds to slow requests only). A watch is recorded when it ends. Config.Audit receives each event;
// AuditWriter writes them as JSON lines, which jq reads, e.g.:
//
//	jq -c '[.user.username, .verb, .requestURI, .responseStatus.code, .annotations["apiserver.latency.k8s.io/total"]]' audit.log
package httpfront

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"kubesim/apiserver"
	"kubesim/wire"
)

// AuditEvent is one line of the trail: the fields of audit.k8s.io/v1 Event that kubesim fills.
type AuditEvent struct {
	Kind                     string            `json:"kind"`
	APIVersion               string            `json:"apiVersion"`
	Level                    string            `json:"level"`
	AuditID                  string            `json:"auditID"`
	Stage                    string            `json:"stage"`
	RequestURI               string            `json:"requestURI"`
	Verb                     string            `json:"verb"`
	User                     AuditUser         `json:"user"`
	ImpersonatedUser         *AuditUser        `json:"impersonatedUser,omitempty"`
	SourceIPs                []string          `json:"sourceIPs,omitempty"`
	UserAgent                string            `json:"userAgent,omitempty"`
	ObjectRef                *AuditObjectRef   `json:"objectRef,omitempty"`
	ResponseStatus           AuditStatus       `json:"responseStatus"`
	RequestReceivedTimestamp time.Time         `json:"requestReceivedTimestamp"`
	StageTimestamp           time.Time         `json:"stageTimestamp"`
	Annotations              map[string]string `json:"annotations,omitempty"`
}

// AuditUser is who sent the request (empty when authentication failed).
type AuditUser struct {
	Username string   `json:"username,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// AuditObjectRef is what a resource request was about.
type AuditObjectRef struct {
	Resource    string `json:"resource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	APIGroup    string `json:"apiGroup,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// AuditStatus is the response's code.
type AuditStatus struct {
	Metadata struct{} `json:"metadata"`
	Code     int      `json:"code"`
}

// LatencyAnnotation holds a request's whole latency, as a Go duration ("1.52ms").
const LatencyAnnotation = "apiserver.latency.k8s.io/total"

// AuditWriter is an audit sink (Config.Audit) that writes each event to w as a JSON line.
func AuditWriter(w io.Writer) func(AuditEvent) {
	var mu sync.Mutex
	return func(ev AuditEvent) {
		line, err := json.Marshal(ev)
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		w.Write(append(line, '\n'))
	}
}

// auditNote is what the handlers tell the audit trail that the URL does not: the name of the object
// a create made (the URL names only its collection).
type auditNote struct {
	created      string
	impersonated *apiserver.User // who the request acted as, once allowed to
}

type auditNoteKey struct{}

// withAuditNote gives the request a note for the handlers to fill.
func withAuditNote(r *http.Request) (*http.Request, *auditNote) {
	note := &auditNote{}
	return r.WithContext(context.WithValue(r.Context(), auditNoteKey{}, note)), note
}

// noteCreated records the name of the object a create made, when the request is audited.
func noteCreated(ctx context.Context, name string) {
	if note, ok := ctx.Value(auditNoteKey{}).(*auditNote); ok {
		note.created = name
	}
}

// noteImpersonated records who the request acts as, when it is audited.
func noteImpersonated(ctx context.Context, u apiserver.User) {
	if note, ok := ctx.Value(auditNoteKey{}).(*auditNote); ok {
		note.impersonated = &u
	}
}

// auditEvent is the event of one completed request.
func auditEvent(r *http.Request, note *auditNote, user apiserver.User, code int, received, done time.Time) AuditEvent {
	// The wall-clock readings alone, so that the latency is exactly the timestamps' difference.
	received, done = received.UTC().Round(0), done.UTC().Round(0)
	if code == 0 {
		code = http.StatusOK // nothing written: net/http answers 200
	}
	ev := AuditEvent{Kind: "Event", APIVersion: "audit.k8s.io/v1", Level: "Metadata", AuditID: auditID(),
		Stage: "ResponseComplete", RequestURI: r.URL.RequestURI(), Verb: strings.ToLower(r.Method),
		User: AuditUser{Username: user.Name, Groups: user.Groups}, UserAgent: r.UserAgent(),
		ResponseStatus:           AuditStatus{Code: code},
		RequestReceivedTimestamp: received, StageTimestamp: done,
		Annotations: map[string]string{LatencyAnnotation: done.Sub(received).String()}}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		ev.SourceIPs = []string{host}
	}
	if u := note.impersonated; u != nil {
		ev.ImpersonatedUser = &AuditUser{Username: u.Name, Groups: u.Groups}
	}
	if rt, err := parsePath(r.URL.Path); err == nil && rt.res != nil {
		ev.Verb = auditVerb(r, rt)
		ev.ObjectRef = &AuditObjectRef{Resource: rt.res.Name, Namespace: rt.namespace, Name: rt.name,
			APIGroup: rt.res.Group, APIVersion: rt.res.Version, Subresource: rt.subresource}
		if ev.ObjectRef.Name == "" {
			ev.ObjectRef.Name = note.created // as Kubernetes names a create's object from its body
		}
	}
	return ev
}

// auditVerb is the Kubernetes verb of a resource request (a non-resource request's verb is its
// method, lower-cased).
func auditVerb(r *http.Request, rt route) string {
	collection := rt.name == ""
	switch r.Method {
	case http.MethodGet:
		switch {
		case collection && isTrue(r.URL.Query().Get("watch")):
			return wire.VerbWatch
		case collection:
			return wire.VerbList
		}
		return wire.VerbGet
	case http.MethodDelete:
		if collection {
			return wire.VerbDeleteCollection
		}
		return wire.VerbDelete
	case http.MethodPatch:
		return wire.VerbPatch
	}
	return methodVerb(r.Method, rt)
}

// auditID is a random UUID (version 4), as kube-apiserver gives each request.
func auditID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// statusRecorder remembers the code a handler answered with; it flushes like the writer it wraps
// (watches and log -f stream through it).
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
