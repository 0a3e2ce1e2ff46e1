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
// Simplifications: there is no HTTP. The apiserver calls a WebhookBackend (the simulator serves
// the Services), which answers at once and says how long the call took; the apiserver then lets that
// much time pass on its clock, at most the timeout, so that in step mode a hung webhook costs
// exactly timeoutSeconds of cluster time. A mutating webhook answers with the changed object itself
// instead of a JSONPatch; the apiserver checks its kind and keeps the object's identity. Only CREATE
// and UPDATE of main resources are sent (kubesim's deletes and subresources skip admission).
package apiserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/trace"
)

// AdmissionReview is what the apiserver sends a webhook (admission.k8s.io/v1 AdmissionReview's
// request), trimmed to what kubesim's webhooks need.
type AdmissionReview struct {
	UID       string            // answers must echo it
	Webhook   string            // the webhook's name, "sidecar-injector.example.com"
	Path      string            // clientConfig.service.path, "/inject"
	Operation api.OperationType // CREATE or UPDATE
	Resource  string            // "pods"
	Namespace string
	Name      string
	UserInfo  string     // who made the request
	Object    api.Object // a private copy: a mutating webhook may change it and send it back
	OldObject api.Object // on UPDATE
	DryRun    bool
}

// AdmissionResponse is a webhook's answer.
type AdmissionResponse struct {
	UID     string
	Allowed bool
	// Code and Message explain a denial (Code defaults to 400 Bad Request, as in Kubernetes).
	Code    int32
	Message string
	// Patched is the changed object of a mutating webhook, nil for no change: kubesim's
	// simplification of a JSONPatch. Patch describes the change for the trace ("add container
	// sidecar").
	Patched api.Object
	Patch   []string
	// Took is how long the call took, also when Admit returns an error: a backend that hangs says so
	// with a Took longer than any timeout.
	Took time.Duration
}

// WebhookBackend reaches webhook Services without HTTP. service is "namespace/name".
type WebhookBackend interface {
	Admit(ctx context.Context, service string, review AdmissionReview) (AdmissionResponse, error)
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

func (p mutatingWebhooks) Admit(ctx context.Context, a *admissionAttributes) ([]string, error) {
	var changes []string
	err := p.s.callWebhooks(ctx, a, "mutatingwebhookconfigurations", func(hook string, resp AdmissionResponse) error {
		if resp.Patched == nil {
			return nil
		}
		if err := applyPatched(a.obj, resp.Patched); err != nil {
			return apierrors.NewInternalError(fmt.Errorf("received invalid webhook response: webhook %q: %w", hook, err))
		}
		changes = append(changes, fmt.Sprintf("%s: %s", hook, strings.Join(resp.Patch, ", ")))
		// Kubernetes decodes a patched object as it decodes a request, defaults included: a
		// container a webhook adds gets its imagePullPolicy like any other.
		for _, d := range api.SetDefaults(a.obj) {
			changes = append(changes, "default "+d)
		}
		return nil
	})
	return changes, err
}

// validatingWebhooks is the ValidatingAdmissionWebhook plugin. Kubernetes calls validating webhooks
// in parallel; kubesim calls them one after the other, in the same order as mutating ones.
type validatingWebhooks struct{ s *Server }

func (validatingWebhooks) Name() string { return "ValidatingAdmissionWebhook" }

func (p validatingWebhooks) Validate(ctx context.Context, a *admissionAttributes) error {
	return p.s.callWebhooks(ctx, a, "validatingwebhookconfigurations", func(string, AdmissionResponse) error { return nil })
}

// applyPatched copies a webhook's changed object into obj, keeping the identity the webhook may not
// change (Kubernetes rejects a patch that changes name or namespace).
func applyPatched(obj, patched api.Object) error {
	if reflect.TypeOf(obj) != reflect.TypeOf(patched) {
		return fmt.Errorf("the patched object is a %T, not a %T", patched, obj)
	}
	m := *obj.GetObjectMeta()
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(api.DeepCopy(patched)).Elem())
	pm := obj.GetObjectMeta()
	pm.Name, pm.Namespace, pm.GenerateName = m.Name, m.Namespace, m.GenerateName
	return nil
}

// callWebhooks calls every webhook of the configurations in resource that matches the request;
// allowed answers go to onAllowed.
func (s *Server) callWebhooks(ctx context.Context, a *admissionAttributes, resource string,
	onAllowed func(hook string, resp AdmissionResponse) error) error {
	kind := "validating"
	if resource == "mutatingwebhookconfigurations" {
		kind = "mutating"
	}
	op := api.OperationUpdate
	if a.creating() {
		op = api.OperationCreate
	}
	if a.req.Subresource != "" || a.res.Group == "admissionregistration.k8s.io" {
		return nil
	}
	if err := s.fresh(ctx, resource, "namespaces"); err != nil {
		return apierrors.NewTimeout(err.Error())
	}
	res, _ := api.ResourceFor(resource)
	objs, _ := s.cache.list(res, everythingSelection())
	slices.SortFunc(objs, func(x, y api.Object) int { return cmp.Compare(x.GetObjectMeta().Name, y.GetObjectMeta().Name) })
	for _, o := range objs {
		var hooks []api.Webhook
		switch c := o.(type) {
		case *api.MutatingWebhookConfiguration:
			hooks = c.Webhooks
		case *api.ValidatingWebhookConfiguration:
			hooks = c.Webhooks
		}
		for i := range hooks {
			h := &hooks[i]
			if !s.webhookApplies(h, a, op) {
				continue
			}
			resp, err := s.callWebhook(ctx, h, a, op, kind)
			if errors.Is(err, errSkipped) {
				continue
			}
			if err == nil {
				err = onAllowed(h.Name, resp)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// webhookApplies matches a webhook's rules and namespaceSelector against the request.
func (s *Server) webhookApplies(h *api.Webhook, a *admissionAttributes, op api.OperationType) bool {
	matched := false
	for _, r := range h.Rules {
		if ruleMatches(r, op, a.res) {
			matched = true
			break
		}
	}
	if !matched {
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

// callWebhook makes one call and turns its outcome into nil (allowed, or failed but ignored) or the
// error the request fails with. Each call is one trace line.
func (s *Server) callWebhook(ctx context.Context, h *api.Webhook, a *admissionAttributes, op api.OperationType, kind string) (AdmissionResponse, error) {
	timeout := time.Duration(timeoutSeconds(h)) * time.Second
	review := AdmissionReview{
		UID: s.newUID(), Webhook: h.Name, Operation: op, Resource: a.res.Name,
		Namespace: a.req.Namespace, Name: a.obj.GetObjectMeta().Name, UserInfo: a.user.Name,
		Object: api.DeepCopy(a.obj), DryRun: a.req.DryRun,
	}
	if a.old != nil {
		review.OldObject = api.DeepCopy(a.old)
	}
	service, serviceName := "", ""
	if svc := h.ClientConfig.Service; svc != nil {
		serviceName = svc.Name
		service = svc.Namespace + "/" + svc.Name
		if svc.Path != nil {
			review.Path = *svc.Path
		}
	}

	var (
		resp AdmissionResponse
		err  error
	)
	if b := s.WebhookBackend(); b == nil || service == "" {
		err = fmt.Errorf("service %q not found", serviceName)
	} else {
		resp, err = b.Admit(ctx, service, review)
	}
	took := min(max(resp.Took, 0), timeout)
	s.clock.Sleep(took) // the apiserver waits for the answer, or until the timeout
	if resp.Took > timeout {
		err = context.DeadlineExceeded
	}
	if err == nil && resp.UID != review.UID {
		err = fmt.Errorf("expected response.uid=%q, got %q", review.UID, resp.UID)
	}

	event := trace.Event{Component: "kube-apiserver", Actor: a.user.Name, Action: "webhook"}
	if err != nil {
		callErr := fmt.Errorf("failed calling webhook %q: failed to call webhook: Post %q: %w", h.Name, webhookURL(h), err)
		if h.FailurePolicy != nil && *h.FailurePolicy == api.FailurePolicyIgnore {
			s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s; failurePolicy Ignore: skipped",
				describe(a.req, a.res), kind, h.Name, took, callErr.Error()))
			return AdmissionResponse{}, errSkipped
		}
		status := apierrors.NewInternalError(callErr)
		event.Code = 500
		s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s; failurePolicy Fail: request refused",
			describe(a.req, a.res), kind, h.Name, took, callErr.Error()))
		return AdmissionResponse{}, status
	}
	if !resp.Allowed {
		status := denied(h.Name, resp)
		event.Code = int(status.ErrStatus.Code)
		s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: %s",
			describe(a.req, a.res), kind, h.Name, took, status.Error()))
		return AdmissionResponse{}, status
	}
	change := "no change"
	if len(resp.Patch) > 0 {
		change = strings.Join(resp.Patch, ", ")
	}
	s.record(a.req, a.res, event.Msgf("%s: %s webhook %q after %s: allowed (%s)",
		describe(a.req, a.res), kind, h.Name, took, change))
	return resp, nil
}

// errSkipped marks a failed call that failurePolicy Ignore lets through.
var errSkipped = errors.New("webhook skipped")

// denied is Kubernetes' error for a webhook's refusal: `admission webhook "x" denied the request:
// <message>`, with the webhook's code (400 if it gave none below 400).
func denied(hook string, resp AdmissionResponse) *apierrors.StatusError {
	msg := fmt.Sprintf("admission webhook %q denied the request", hook)
	if resp.Message != "" {
		msg += ": " + resp.Message
	} else {
		msg += " without explanation"
	}
	code := resp.Code
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
