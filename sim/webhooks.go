// webhooks.go: the simulated admission webhook servers. In a real cluster a webhook is a Deployment
// behind a Service, and kube-apiserver POSTs an AdmissionReview to https://<service>.<namespace>.svc.
// kubesim has no network: a webhook is a Go function the cluster serves under a Service name
// ("default/sidecar-injector"), and the apiserver reaches it through apiserver.WebhookBackend. Faults
// (faults_webhook.go) make a service hang, slow down or refuse connections.
//
// Two ready-made handlers show the two kinds: SidecarInjector (mutating: adds a container to every
// pod, as Istio's injector does) and RequireLabel (validating: refuses pods without a label, as a
// policy engine does).
package sim

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

// WebhookHandler answers one AdmissionReview request, as a webhook server's handler does: it reads
// the object from the request's JSON and answers allowed or not, a mutating one with a JSONPatch.
// The response's uid and the review's kind and apiVersion are filled in for it.
type WebhookHandler func(req *api.AdmissionRequest) *api.AdmissionResponse

// webhookLatency is how long a healthy simulated webhook takes to answer.
const webhookLatency = 5 * time.Millisecond

// webhookServices is the cluster's WebhookBackend: its webhook servers and their faults.
type webhookServices struct {
	mu       sync.Mutex
	handlers map[string]WebhookHandler   // by "namespace/name"
	faults   map[string]WebhookFaultKind // by "namespace/name"; absent means healthy
}

// installMu serialises the lazy installation of a cluster's webhook backend.
var installMu sync.Mutex

// webhooks returns the cluster's webhook servers, installing them in the apiserver on first use.
func (c *Cluster) webhooks() *webhookServices {
	installMu.Lock()
	defer installMu.Unlock()
	if w, ok := c.APIServer.WebhookBackend().(*webhookServices); ok {
		return w
	}
	w := &webhookServices{handlers: map[string]WebhookHandler{}, faults: map[string]WebhookFaultKind{}}
	c.APIServer.SetWebhookBackend(w)
	return w
}

// ServeWebhook starts serving h as the webhook Service service ("namespace/name"). A
// MutatingWebhookConfiguration or ValidatingWebhookConfiguration naming that Service sends it requests.
func (c *Cluster) ServeWebhook(service string, h WebhookHandler) {
	w := c.webhooks()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.handlers[service] = h
}

// Admit answers a call from the apiserver, as the service's fault (if any) allows.
func (w *webhookServices) Admit(_ context.Context, service, _ string, review *api.AdmissionReview) (*api.AdmissionReview, time.Duration, error) {
	w.mu.Lock()
	h, served := w.handlers[service]
	f := w.faults[service]
	w.mu.Unlock()
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
	return &api.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}, webhookLatency + f.Slow, nil
}

// forever is how long a hung webhook takes: longer than any timeout (at most 30 s).
const forever = 24 * time.Hour

// SidecarContainer is what SidecarInjector adds to every pod.
var SidecarContainer = api.Container{Name: "sidecar", Image: "example.com/sidecar:1.0"}

// SidecarInjector is a mutating webhook that adds SidecarContainer to every pod that does not have
// it yet, as a service mesh's injector adds its proxy: its answer is the JSONPatch
// [{"op": "add", "path": "/spec/containers/-", "value": <the container>}].
func SidecarInjector() WebhookHandler {
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
func RequireLabel(key string) WebhookHandler {
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
