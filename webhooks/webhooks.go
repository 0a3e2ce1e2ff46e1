// webhooks.go: the servers, their faults, and the two ready-made handlers.
package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"kubesim/api"
)

// Handler answers one AdmissionReview request, as a webhook server's handler does: it reads the
// object from the request's JSON and answers allowed or not, a mutating one with a JSONPatch. The
// response's uid and the review's kind and apiVersion are filled in for it.
type Handler func(req *api.AdmissionRequest) *api.AdmissionResponse

// Fault is what is wrong with a webhook server; the zero value (Healthy) is nothing. A server that
// hangs, answers slowly or refuses connections shows at every write its configuration matches: each
// waits for the webhook's timeout, then fails (failurePolicy Fail) or goes on without it
// (failurePolicy Ignore).
type Fault struct {
	Hang   bool
	Refuse bool
	Slow   time.Duration
}

var (
	Healthy = Fault{}
	Hang    = Fault{Hang: true}   // the server accepts the call and never answers
	Refuse  = Fault{Refuse: true} // nothing listens: connection refused at once
)

// Slow makes every answer take d longer.
func Slow(d time.Duration) Fault { return Fault{Slow: d} }

func (f Fault) String() string {
	switch {
	case f.Hang:
		return "hangs: it accepts every call and never answers"
	case f.Refuse:
		return "is down: nothing listens, connections are refused"
	case f.Slow > 0:
		return fmt.Sprintf("is slow: every answer takes %s longer", f.Slow)
	}
	return "is healthy"
}

// latency is how long a healthy webhook takes to answer.
const latency = 5 * time.Millisecond

// forever is how long a hung webhook takes: longer than any timeout (at most 30 s).
const forever = 24 * time.Hour

// Servers is a cluster's webhook servers and their faults: an apiserver.WebhookBackend. The zero
// value serves nothing; it is safe for concurrent use.
type Servers struct {
	mu       sync.Mutex
	handlers map[string]Handler // by "namespace/name"
	faults   map[string]Fault   // by "namespace/name"; absent means healthy
}

// Serve starts serving h as the Service service ("namespace/name"). A MutatingWebhookConfiguration
// or ValidatingWebhookConfiguration naming that Service sends it requests.
func (s *Servers) Serve(service string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handlers == nil {
		s.handlers = map[string]Handler{}
	}
	s.handlers[service] = h
}

// SetFault breaks (or, with Healthy, heals) the server of service ("namespace/name").
func (s *Servers) SetFault(service string, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f == Healthy {
		delete(s.faults, service)
		return
	}
	if s.faults == nil {
		s.faults = map[string]Fault{}
	}
	s.faults[service] = f
}

// Admit answers a call from the apiserver, as the service's fault (if any) allows: the review, how
// long the answer took, or the error the apiserver's client would see.
func (s *Servers) Admit(_ context.Context, service, _ string, review *api.AdmissionReview) (*api.AdmissionReview, time.Duration, error) {
	s.mu.Lock()
	h, served := s.handlers[service]
	f := s.faults[service]
	s.mu.Unlock()
	ns, name, _ := strings.Cut(service, "/")
	switch {
	case !served:
		return nil, 0, fmt.Errorf("service %q not found", name)
	case f.Hang:
		return nil, forever, nil
	case f.Refuse:
		return nil, 0, fmt.Errorf("dial tcp %s.%s.svc:443: connect: connection refused", name, ns)
	}
	resp := h(review.Request)
	resp.UID = review.Request.UID
	return &api.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}, latency + f.Slow, nil
}

// SidecarContainer is what SidecarInjector adds to every pod.
var SidecarContainer = api.Container{Name: "sidecar", Image: "example.com/sidecar:1.0"}

// SidecarInjector is a mutating webhook that adds SidecarContainer to every pod that does not have
// it yet, as a service mesh's injector adds its proxy: its answer is the JSONPatch
// [{"op": "add", "path": "/spec/containers/-", "value": <the container>}].
func SidecarInjector() Handler {
	return func(req *api.AdmissionRequest) *api.AdmissionResponse {
		var pod api.Pod
		if req.Kind.Kind != "Pod" || json.Unmarshal(req.Object, &pod) != nil ||
			slices.ContainsFunc(pod.Spec.Containers, func(c api.Container) bool { return c.Name == SidecarContainer.Name }) {
			return &api.AdmissionResponse{Allowed: true}
		}
		container, _ := json.Marshal(SidecarContainer)
		patch, _ := json.Marshal([]map[string]any{{"op": "add", "path": "/spec/containers/-", "value": json.RawMessage(container)}})
		return &api.AdmissionResponse{Allowed: true, Patch: patch, PatchType: api.Ptr(api.PatchTypeJSONPatch)}
	}
}

// RequireLabel is a validating webhook that refuses, 403, any object without the label key.
func RequireLabel(key string) Handler {
	return func(req *api.AdmissionRequest) *api.AdmissionResponse {
		var obj struct {
			Metadata api.ObjectMeta `json:"metadata"`
		}
		if json.Unmarshal(req.Object, &obj) == nil {
			if _, ok := obj.Metadata.Labels[key]; ok {
				return &api.AdmissionResponse{Allowed: true}
			}
		}
		return &api.AdmissionResponse{Result: &api.AdmissionStatus{Code: 403, Message: fmt.Sprintf("missing required label %q", key)}}
	}
}
