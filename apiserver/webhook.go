// webhook.go: dynamic admission control, the MutatingAdmissionWebhook and ValidatingAdmissionWebhook
// plugins (k8s.io/apiserver/pkg/admission/plugin/webhook). A MutatingWebhookConfiguration or
// ValidatingWebhookConfiguration names a Service; for every write its rules match, kube-apiserver
// POSTs an AdmissionReview to that Service and waits, at most timeoutSeconds, for the answer:
// allowed or denied, and for a mutating webhook a JSONPatch to apply to the object.
//
// Mutating webhooks run last in the mutating chain (after the built-in plugins), validating webhooks
// last in the validating chain. Configurations are called in name order, the webhooks of each in
// their order. A webhook that cannot be called (it hangs past its timeout, its Service refuses the
// connection) is the interesting case: with failurePolicy Fail the request is refused with 500
//
//	Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call
//	webhook: Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline exceeded
//
// after the full timeout, and nothing is written. Every matching write in the cluster now pays the
// timeout and fails: a ReplicaSet cannot create its pods, "creating resources hangs". With
// failurePolicy Ignore the request goes on without the webhook. Writes of webhook configurations
// themselves are never sent to webhooks, so that a broken webhook can always be removed.
//
// Mutating webhooks answer with a JSONPatch (base64 in the response, patchType JSONPatch), which the
// apiserver applies to the object before the next webhook sees it; a webhook with reinvocationPolicy
// IfNeeded is called once more if a later webhook changed the object after it ran. Validating webhooks
// are called in parallel: the request waits for the slowest, and the first refusal (in configuration
// order) wins. A webhook is called only when its rules, namespaceSelector and objectSelector all
// match (the objectSelector against the object, or the old object on an update).
//
// Simplifications: there is no HTTP. The apiserver hands the AdmissionReview (admission.k8s.io/v1,
// the object inside as JSON, as on the wire) to a WebhookBackend (the simulator serves the
// Services), which answers at once and says how long the call took; the apiserver then lets that
// much time pass on its clock, at most the timeout, so that in step mode a hung webhook costs exactly
// timeoutSeconds of cluster time. Every resource has one version, so matchPolicy Exact and
// Equivalent match the same requests. Only CREATE and UPDATE of main resources are sent (kubesim's
// deletes and subresources skip admission), and built-in plugins are not reinvoked.
package apiserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/trace"
)

// WebhookBackend reaches webhook Services without HTTP.
type WebhookBackend interface {
	// Admit delivers review to the Service service ("namespace/name") at path ("/inject") and
	// returns the webhook's answer and how long the call took, also when it fails: a server that
	// hangs says so with a duration longer than any timeout.
	Admit(ctx context.Context, service, path string, review *api.AdmissionReview) (*api.AdmissionReview, time.Duration, error)
}

// SetWebhookBackend installs the backend that answers webhook calls. Without one, calls fail as if
// the Service did not exist.
func (s *Server) SetWebhookBackend(b WebhookBackend) {
	s.webhooks.mu.Lock()
	defer s.webhooks.mu.Unlock()
	s.webhooks.backend = b
}

// WebhookBackend returns the installed backend, or nil.
func (s *Server) WebhookBackend() WebhookBackend {
	s.webhooks.mu.Lock()
	defer s.webhooks.mu.Unlock()
	return s.webhooks.backend
}

// webhookState is the Server's part in webhook calls: the backend that answers them.
type webhookState struct {
	mu      sync.Mutex
	backend WebhookBackend
}

// mutatingWebhooks is the MutatingAdmissionWebhook plugin.
type mutatingWebhooks struct{ s *Server }

func (mutatingWebhooks) Name() string { return "MutatingAdmissionWebhook" }

// Admit calls the matching mutating webhooks one after the other, each on the object as the ones
// before left it, then once more those with reinvocationPolicy IfNeeded that a later webhook's
// change has made stale.
func (p mutatingWebhooks) Admit(ctx context.Context, a *admissionAttributes) ([]string, error) {
	hooks, err := p.s.matchingWebhooks(ctx, a, "mutatingwebhookconfigurations")
	if err != nil || len(hooks) == 0 {
		return nil, err
	}
	var changes []string
	lastChange := -1 // the index of the last webhook whose patch changed the object
	call := func(i int, kind string) error {
		change, err := p.s.mutate(ctx, hooks[i], a, kind)
		if change != "" {
			changes = append(changes, change)
			lastChange = i
		}
		return err
	}
	for i := range hooks {
		if err := call(i, "mutating"); err != nil {
			return changes, err
		}
	}
	for i := range hooks {
		if i < lastChange && hooks[i].ReinvocationPolicy != nil && *hooks[i].ReinvocationPolicy == api.ReinvocationIfNeeded {
			if err := call(i, "mutating (reinvoked)"); err != nil {
				return changes, err
			}
		}
	}
	return changes, nil
}

// mutate calls one mutating webhook and applies its patch, returning the change for the trace
// ("" for none).
func (s *Server) mutate(ctx context.Context, h *api.Webhook, a *admissionAttributes, kind string) (string, error) {
	c := s.invoke(ctx, h, a)
	s.clock.Sleep(c.waited) // the apiserver waits for the answer, or until the timeout
	resp, err := s.settle(h, a, kind, c)
	if err != nil || resp == nil || len(resp.Patch) == 0 {
		return "", err
	}
	if err := applyWebhookPatch(a.obj, resp.Patch); err != nil {
		return "", apierrors.NewInternalError(fmt.Errorf("received invalid webhook response: webhook %q: %w", h.Name, err))
	}
	change := fmt.Sprintf("%s: JSONPatch %s", h.Name, describeJSONPatch(resp.Patch))
	// Kubernetes decodes a patched object as it decodes a request, defaults included: a container a
	// webhook adds gets its imagePullPolicy like any other.
	for _, d := range api.SetDefaults(a.obj) {
		change += "; default " + d
	}
	return change, nil
}

// validatingWebhooks is the ValidatingAdmissionWebhook plugin.
type validatingWebhooks struct{ s *Server }

func (validatingWebhooks) Name() string { return "ValidatingAdmissionWebhook" }

// Validate calls every matching validating webhook at once and waits for the slowest (each at most
// its timeout). The calls' lines and the verdict are taken in configuration order, so the story is
// the same on every run: the first refusal in that order is the request's error.
func (p validatingWebhooks) Validate(ctx context.Context, a *admissionAttributes) error {
	hooks, err := p.s.matchingWebhooks(ctx, a, "validatingwebhookconfigurations")
	if err != nil || len(hooks) == 0 {
		return err
	}
	calls := make([]webhookCall, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			calls[i] = p.s.invoke(ctx, h, a)
		}()
	}
	wg.Wait()
	var slowest time.Duration
	for _, c := range calls {
		slowest = max(slowest, c.waited)
	}
	p.s.clock.Sleep(slowest)
	var first error
	for i, h := range hooks {
		if _, err := p.s.settle(h, a, "validating", calls[i]); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// applyWebhookPatch applies a JSONPatch to obj in place, keeping the identity a webhook may not
// change (name, namespace, generateName).
func applyWebhookPatch(obj api.Object, patch []byte) error {
	doc, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	patched, err := applyJSONPatch(doc, patch)
	if err != nil {
		return err
	}
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(api.Object)
	if err := json.Unmarshal(patched, out); err != nil {
		return fmt.Errorf("the patched object does not decode as a %s: %w", obj.GetTypeMeta().Kind, err)
	}
	m := *obj.GetObjectMeta()
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(out).Elem())
	pm := obj.GetObjectMeta()
	pm.Name, pm.Namespace, pm.GenerateName = m.Name, m.Namespace, m.GenerateName
	return nil
}

// matchingWebhooks are the webhooks of the configurations in resource that this request must go
// to: configurations in name order, the webhooks of each in their order. Writes of webhook
// configurations themselves, and of subresources, go to none.
func (s *Server) matchingWebhooks(ctx context.Context, a *admissionAttributes, resource string) ([]*api.Webhook, error) {
	if a.req.Subresource != "" || a.res.Group == "admissionregistration.k8s.io" {
		return nil, nil
	}
	if err := s.fresh(ctx, resource, "namespaces"); err != nil {
		return nil, deadlineError(err)
	}
	res, _ := api.ResourceFor(resource)
	objs, _ := s.cache.list(res, everythingSelection())
	slices.SortFunc(objs, func(x, y api.Object) int { return cmp.Compare(x.GetObjectMeta().Name, y.GetObjectMeta().Name) })
	var out []*api.Webhook
	for _, o := range objs {
		hooks, _ := api.WebhooksOf(o)
		for i := range hooks {
			if s.webhookApplies(&hooks[i], a) {
				out = append(out, &hooks[i])
			}
		}
	}
	return out, nil
}

// operation is the request's admission operation.
func (a *admissionAttributes) operation() api.OperationType {
	if a.creating() {
		return api.OperationCreate
	}
	return api.OperationUpdate
}

// webhookApplies matches a webhook's rules, namespaceSelector and objectSelector against the request.
func (s *Server) webhookApplies(h *api.Webhook, a *admissionAttributes) bool {
	if !slices.ContainsFunc(h.Rules, func(r api.RuleWithOperations) bool { return ruleMatches(r, a.operation(), a.res) }) {
		return false
	}
	if !selectorMatches(h.ObjectSelector, a.obj) && (a.old == nil || !selectorMatches(h.ObjectSelector, a.old)) {
		return false
	}
	if !a.res.Namespaced || h.NamespaceSelector == nil {
		return true
	}
	sel, err := h.NamespaceSelector.AsSelector()
	if err != nil {
		return false
	}
	if sel.Empty() {
		return true
	}
	nsRes, _ := api.ResourceFor("namespaces")
	ns, _ := s.cache.get(nsRes, a.req.Namespace).(*api.Namespace)
	if ns == nil {
		return false
	}
	return sel.Matches(labels.Set(ns.Labels))
}

// selectorMatches reports whether obj's labels match a webhook's objectSelector (nil or empty
// matches every object).
func selectorMatches(sel *api.LabelSelector, obj api.Object) bool {
	if sel == nil {
		return true
	}
	s, err := sel.AsSelector()
	return err == nil && s.Matches(labels.Set(obj.GetObjectMeta().Labels))
}

func ruleMatches(r api.RuleWithOperations, op api.OperationType, res *api.Resource) bool {
	return (slices.Contains(r.Operations, op) || slices.Contains(r.Operations, api.OperationAll)) &&
		matchesOrStar(r.APIGroups, res.Group) && matchesOrStar(r.APIVersions, res.Version) &&
		matchesOrStar(r.Resources, res.Name)
}

func matchesOrStar(list []string, value string) bool {
	return slices.Contains(list, value) || slices.Contains(list, "*")
}

// webhookURL is the address kube-apiserver would POST to, as its errors quote it.
func webhookURL(h *api.Webhook) string {
	svc := h.ClientConfig.Service
	if svc == nil {
		return ""
	}
	port, path := int32(443), ""
	if svc.Port != nil {
		port = *svc.Port
	}
	if svc.Path != nil {
		path = *svc.Path
	}
	return fmt.Sprintf("https://%s.%s.svc:%d%s?timeout=%ds", svc.Name, svc.Namespace, port, path, timeoutSeconds(h))
}

func timeoutSeconds(h *api.Webhook) int32 {
	if h.TimeoutSeconds == nil {
		return api.DefaultWebhookTimeoutSeconds
	}
	return *h.TimeoutSeconds
}

// admissionReview is the AdmissionReview the apiserver sends for a request: the object (and on an
// update the old object) as JSON, under a fresh uid.
func (s *Server) admissionReview(a *admissionAttributes) (*api.AdmissionReview, error) {
	object, err := json.Marshal(a.obj)
	if err != nil {
		return nil, err
	}
	var old []byte
	if a.old != nil {
		if old, err = json.Marshal(a.old); err != nil {
			return nil, err
		}
	}
	kind := api.GroupVersionKind{Group: a.res.Group, Version: a.res.Version, Kind: a.res.Kind}
	resource := api.GroupVersionResource{Group: a.res.Group, Version: a.res.Version, Resource: a.res.Name}
	return &api.AdmissionReview{
		TypeMeta: api.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &api.AdmissionRequest{
			UID: s.newUID(), Kind: kind, Resource: resource, SubResource: a.req.Subresource,
			RequestKind: &kind, RequestResource: &resource,
			Name: a.obj.GetObjectMeta().Name, Namespace: a.obj.GetObjectMeta().Namespace,
			Operation: a.operation(),
			UserInfo:  api.UserInfo{Username: a.user.Name, Groups: a.user.Groups},
			Object:    object, OldObject: old, DryRun: api.Ptr(a.req.DryRun),
		},
	}, nil
}

// webhookCall is the outcome of one call: the webhook's response (nil when the call failed), how
// long the apiserver waited for it (at most the timeout) and why the call failed.
type webhookCall struct {
	resp   *api.AdmissionResponse
	waited time.Duration
	err    error
}

// invoke makes one call, without waiting: the caller lets c.waited pass on the clock.
func (s *Server) invoke(ctx context.Context, h *api.Webhook, a *admissionAttributes) webhookCall {
	timeout := time.Duration(timeoutSeconds(h)) * time.Second
	review, err := s.admissionReview(a)
	if err != nil {
		return webhookCall{err: err}
	}
	b, svc := s.WebhookBackend(), h.ClientConfig.Service
	if b == nil || svc == nil {
		name := ""
		if svc != nil {
			name = svc.Name
		}
		return webhookCall{err: fmt.Errorf("service %q not found", name)}
	}
	path := ""
	if svc.Path != nil {
		path = *svc.Path
	}
	answer, took, err := b.Admit(ctx, svc.Namespace+"/"+svc.Name, path, review)
	c := webhookCall{waited: min(max(took, 0), timeout), err: err}
	switch {
	case took > timeout:
		c.err = context.DeadlineExceeded
	case err != nil:
	case answer == nil || answer.Response == nil:
		c.err = errors.New("webhook response was absent")
	case answer.APIVersion != "admission.k8s.io/v1" || answer.Kind != "AdmissionReview":
		c.err = fmt.Errorf("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got %s, Kind=%s", answer.APIVersion, answer.Kind)
	case answer.Response.UID != review.Request.UID:
		c.err = fmt.Errorf("expected response.uid=%q, got %q", review.Request.UID, answer.Response.UID)
	case len(answer.Response.Patch) > 0 && (answer.Response.PatchType == nil || *answer.Response.PatchType != api.PatchTypeJSONPatch):
		c.err = errors.New("webhook returned response.patch but not a patchType of JSONPatch")
	default:
		c.resp = answer.Response
	}
	return c
}

// settle turns a call's outcome into its trace line and into nil (allowed, or failed but ignored)
// or the error the request fails with.
func (s *Server) settle(h *api.Webhook, a *admissionAttributes, kind string, c webhookCall) (*api.AdmissionResponse, error) {
	if c.err == nil && kind == "validating" && len(c.resp.Patch) > 0 {
		c.err, c.resp = errors.New("webhook returned response.patch but not allowed for validating webhook"), nil
	}
	event := trace.Event{Component: "kube-apiserver", Actor: a.user.Name, Action: "webhook"}
	if c.err != nil {
		callErr := fmt.Errorf("failed calling webhook %q: failed to call webhook: Post %q: %w", h.Name, webhookURL(h), c.err)
		if h.FailurePolicy != nil && *h.FailurePolicy == api.FailurePolicyIgnore {
			s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s; failurePolicy Ignore: skipped",
				describe(a.req, a.res), kind, h.Name, c.waited, callErr.Error()))
			return nil, nil
		}
		event.Code = 500
		s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s; failurePolicy Fail: request refused",
			describe(a.req, a.res), kind, h.Name, c.waited, callErr.Error()))
		return nil, apierrors.NewInternalError(callErr)
	}
	if !c.resp.Allowed {
		status := denied(h.Name, c.resp)
		event.Code = int(status.ErrStatus.Code)
		s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s",
			describe(a.req, a.res), kind, h.Name, c.waited, status.Error()))
		return nil, status
	}
	change := "no change"
	if len(c.resp.Patch) > 0 {
		change = "JSONPatch " + describeJSONPatch(c.resp.Patch)
	}
	s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: allowed (%s)",
		describe(a.req, a.res), kind, h.Name, c.waited, change))
	return c.resp, nil
}

// denied is Kubernetes' error for a webhook's refusal: `admission webhook "x" denied the request:
// <message>`, with the webhook's code (400 if it gave none below 400).
func denied(hook string, resp *api.AdmissionResponse) *apierrors.StatusError {
	msg := fmt.Sprintf("admission webhook %q denied the request", hook)
	var code int32
	if r := resp.Result; r != nil && r.Message != "" {
		msg += ": " + r.Message
	} else {
		msg += " without explanation"
	}
	if resp.Result != nil {
		code = resp.Result.Code
	}
	if code < http.StatusBadRequest {
		code = http.StatusBadRequest
	}
	reason := apierrors.ReasonBadRequest
	if code == http.StatusForbidden {
		reason = apierrors.ReasonForbidden
	}
	return &apierrors.StatusError{ErrStatus: apierrors.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Message: msg, Reason: reason, Code: code}}
}
