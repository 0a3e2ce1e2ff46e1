package httpfront_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"kubesim/apiserver/httpfront"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines and the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) events(t *testing.T) []httpfront.AuditEvent {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []httpfront.AuditEvent
	lines := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	for lines.Scan() {
		var ev httpfront.AuditEvent
		if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
			t.Fatalf("audit line %s: %v", lines.Text(), err)
		}
		out = append(out, ev)
	}
	return out
}

// Each request leaves one audit event saying who did what to which object, the code and the latency.
func TestAuditTrail(t *testing.T) {
	var trail syncBuffer
	_, hs := newFrontWith(t, httpfront.Config{Audit: httpfront.AuditWriter(&trail)})
	call(t, hs, "admin-token", "POST", "/api/v1/namespaces/default/pods", "application/json", nginxPod)
	call(t, hs, "alice-token", "GET", "/api/v1/namespaces/default/pods?limit=500", "", "")
	call(t, hs, "admin-token", "DELETE", "/api/v1/namespaces/default/pods/web", "", "")
	call(t, hs, "nobody", "GET", "/version", "", "")
	call(t, hs, "admin-token", "GET", "/healthz", "", "")

	events := trail.events(t)
	if len(events) != 5 {
		t.Fatalf("%d events, want 5: %+v", len(events), events)
	}
	type row struct {
		user, verb, uri string
		ref             httpfront.AuditObjectRef
		code            int
	}
	want := []row{
		{"admin", "create", "/api/v1/namespaces/default/pods", httpfront.AuditObjectRef{Resource: "pods", Namespace: "default", Name: "web", APIVersion: "v1"}, 201},
		{"alice", "list", "/api/v1/namespaces/default/pods?limit=500", httpfront.AuditObjectRef{Resource: "pods", Namespace: "default", APIVersion: "v1"}, 403},
		{"admin", "delete", "/api/v1/namespaces/default/pods/web", httpfront.AuditObjectRef{Resource: "pods", Namespace: "default", Name: "web", APIVersion: "v1"}, 200},
		{"", "get", "/version", httpfront.AuditObjectRef{}, 401},
		{"admin", "get", "/healthz", httpfront.AuditObjectRef{}, 200},
	}
	for i, ev := range events {
		var ref httpfront.AuditObjectRef
		if ev.ObjectRef != nil {
			ref = *ev.ObjectRef
		}
		got := row{ev.User.Username, ev.Verb, ev.RequestURI, ref, ev.ResponseStatus.Code}
		if got != want[i] {
			t.Errorf("event %d: %+v, want %+v", i, got, want[i])
		}
		latency, err := time.ParseDuration(ev.Annotations[httpfront.LatencyAnnotation])
		if ev.Kind != "Event" || ev.APIVersion != "audit.k8s.io/v1" || ev.Stage != "ResponseComplete" || len(ev.AuditID) != 36 ||
			err != nil || ev.StageTimestamp.Sub(ev.RequestReceivedTimestamp) != latency {
			t.Errorf("event %d: %+v", i, ev)
		}
	}
}

// The control endpoints are the embedding program's, for system:masters only; without one, 404.
func TestControlEndpointsAreForAdmins(t *testing.T) {
	control := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("stepped " + r.URL.Path)) })
	_, hs := newFrontWith(t, httpfront.Config{Control: control})
	if code, _, body := call(t, hs, "admin-token", "POST", "/kubesim/step", "", ""); code != 200 || body != "stepped /kubesim/step" {
		t.Errorf("admin: %d %s", code, body)
	}
	code, _, body := call(t, hs, "alice-token", "POST", "/kubesim/step", "", "")
	if _, _, msg := status(t, body); code != 403 || msg != `forbidden: User "alice" cannot post path "/kubesim/step"` {
		t.Errorf("alice: %d %s", code, body)
	}
	_, plain := newFront(t)
	if code, _, body := call(t, plain, "admin-token", "POST", "/kubesim/step", "", ""); code != 404 || !strings.Contains(body, "NotFound") {
		t.Errorf("no control: %d %s", code, body)
	}
}
