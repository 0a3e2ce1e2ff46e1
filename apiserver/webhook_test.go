package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// webhookServer is one fake webhook server: it answers a request, or fails, after some time.
type webhookServer func(*api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error)

// fakeBackend answers webhook calls with a server per service; the response's uid and the review's
// kind are filled in, as a webhook framework does.
type fakeBackend map[string]webhookServer

func (b fakeBackend) Admit(_ context.Context, service, _ string, review *api.AdmissionReview) (*api.AdmissionReview, time.Duration, error) {
	f, ok := b[service]
	if !ok {
		return nil, 0, errors.New("dial tcp: connect: connection refused")
	}
	resp, took, err := f(review.Request)
	if resp != nil {
		resp.UID = review.Request.UID
	}
	return &api.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}, took, err
}

// allow is a server that allows everything at once.
func allow(*api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
	return &api.AdmissionResponse{Allowed: true}, 0, nil
}

// jsonPatch is a webhook's JSONPatch answer.
func jsonPatch(ops ...map[string]any) *api.AdmissionResponse {
	patch, _ := json.Marshal(ops)
	return &api.AdmissionResponse{Allowed: true, Patch: patch, PatchType: api.Ptr(api.PatchTypeJSONPatch)}
}

func injector(took time.Duration) webhookServer {
	return func(*api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
		return jsonPatch(map[string]any{"op": "add", "path": "/spec/containers/-",
			"value": map[string]any{"name": "sidecar", "image": "example.com/sidecar:1.0"}}), took, nil
	}
}

// podWebhook matches pod creates; an empty policy is left unset.
func podWebhook(name, service string, policy api.FailurePolicyType) api.Webhook {
	h := api.Webhook{Name: name,
		ClientConfig: api.WebhookClientConfig{Service: &api.ServiceReference{Namespace: "default", Name: service, Path: api.Ptr("/inject")}},
		Rules:        []api.RuleWithOperations{{Operations: []api.OperationType{api.OperationCreate}, APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}},
		SideEffects:  api.Ptr(api.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"}}
	if policy != "" {
		h.FailurePolicy = api.Ptr(policy)
	}
	return h
}

func (ts *testServer) getPod(t *testing.T, name string) (*api.Pod, error) {
	t.Helper()
	resp, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "pods", Namespace: "default", Name: name})
	if err != nil {
		return nil, err
	}
	return resp.Object.(*api.Pod), nil
}

func TestMutatingWebhookInjectsASidecarAndIsDefaulted(t *testing.T) {
	ts := newTestServer(t)
	ts.SetWebhookBackend(fakeBackend{"default/sidecar-injector": injector(20 * time.Millisecond)})
	ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "sidecar-injector"},
		Webhooks: []api.Webhook{podWebhook("sidecar-injector.example.com", "sidecar-injector", "")}})

	stored, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbGet, Resource: "mutatingwebhookconfigurations", Name: "sidecar-injector"})
	require.NoError(t, err)
	hook := stored.Object.(*api.MutatingWebhookConfiguration).Webhooks[0]
	assert.Equal(t, api.FailurePolicyFail, *hook.FailurePolicy, "failurePolicy defaults to Fail")
	assert.Equal(t, int32(10), *hook.TimeoutSeconds, "timeoutSeconds defaults to 10")

	start := ts.clock.Now()
	require.NoError(t, ts.createPod(t, nginxPod("web"), false))
	assert.Equal(t, 20*time.Millisecond, ts.clock.Since(start), "the call took the backend's time on the apiserver's clock")
	pod, err := ts.getPod(t, "web")
	require.NoError(t, err)
	require.Len(t, pod.Spec.Containers, 2)
	assert.Equal(t, "sidecar", pod.Spec.Containers[1].Name)
	assert.Equal(t, "IfNotPresent", string(pod.Spec.Containers[1].ImagePullPolicy), "the patched object is defaulted too")
	assert.True(t, traceContains(ts.trace, `mutating webhook "sidecar-injector.example.com" after 20ms: allowed (JSONPatch add /spec/containers/-)`))
}

func TestHungWebhookWithFailPolicyFailsAfterTheTimeoutAndWritesNothing(t *testing.T) {
	ts := newTestServer(t)
	hung := func(*api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) { return nil, time.Hour, nil }
	ts.SetWebhookBackend(fakeBackend{"default/sidecar-injector": hung})
	ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "sidecar-injector"},
		Webhooks: []api.Webhook{podWebhook("sidecar-injector.example.com", "sidecar-injector", api.FailurePolicyFail)}})

	before := mustRev(t, ts)
	start := ts.clock.Now()
	err := ts.createPod(t, nginxPod("web"), false)
	require.Error(t, err)
	assert.True(t, apierrors.IsInternalError(err))
	assert.Equal(t, 500, apierrors.CodeForError(err))
	assert.Equal(t, `Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call webhook: `+
		`Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline exceeded`, err.Error())
	assert.Equal(t, 10*time.Second, ts.clock.Since(start), "exactly timeoutSeconds of cluster time")
	assert.Equal(t, before, mustRev(t, ts), "nothing written")
	_, err = ts.getPod(t, "web")
	assert.True(t, apierrors.IsNotFound(err))
}

func TestFailingWebhookWithIgnorePolicyIsSkipped(t *testing.T) {
	ts := newTestServer(t)
	ts.SetWebhookBackend(fakeBackend{}) // every service refuses connections
	ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "sidecar-injector"},
		Webhooks: []api.Webhook{podWebhook("sidecar-injector.example.com", "sidecar-injector", api.FailurePolicyIgnore)}})

	require.NoError(t, ts.createPod(t, nginxPod("web"), false))
	pod, err := ts.getPod(t, "web")
	require.NoError(t, err)
	assert.Len(t, pod.Spec.Containers, 1, "admitted without the sidecar")
	assert.True(t, traceContains(ts.trace, `failed calling webhook "sidecar-injector.example.com": failed to call webhook: `+
		`Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": dial tcp: connect: connection refused; failurePolicy Ignore: skipped`))
}

func TestValidatingWebhookDenialUsesKubernetesWording(t *testing.T) {
	ts := newTestServer(t)
	ts.SetWebhookBackend(fakeBackend{"default/policy": func(r *api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
		var pod api.Pod
		if err := json.Unmarshal(r.Object, &pod); err != nil || pod.Labels["team"] != "" {
			return &api.AdmissionResponse{Allowed: err == nil}, 0, err
		}
		return &api.AdmissionResponse{Result: &api.AdmissionStatus{Code: 403, Message: `pods must carry a "team" label`}}, 0, nil
	}})
	hook := podWebhook("policy.example.com", "policy", api.FailurePolicyFail)
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "policy"}, Webhooks: []api.Webhook{hook}})

	err := ts.createPod(t, nginxPod("web"), false)
	require.Error(t, err)
	assert.Equal(t, 403, apierrors.CodeForError(err))
	assert.Equal(t, `admission webhook "policy.example.com" denied the request: pods must carry a "team" label`, err.Error())

	labelled := nginxPod("web")
	labelled.Labels["team"] = "payments"
	assert.NoError(t, ts.createPod(t, labelled, false))
}

func TestWebhooksOnlySeeMatchingRequestsAndNeverTheirOwnConfiguration(t *testing.T) {
	ts := newTestServer(t)
	var calls atomic.Int32
	ts.SetWebhookBackend(fakeBackend{"default/count": func(r *api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
		calls.Add(1)
		return allow(r)
	}})
	hook := podWebhook("count.example.com", "count", api.FailurePolicyFail)
	hook.Rules[0].Resources = []string{"*"}
	hook.Rules[0].APIGroups = []string{"*"}
	hook.Rules[0].APIVersions = []string{"*"}
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "count"}, Webhooks: []api.Webhook{hook}})

	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "other"},
		Webhooks: []api.Webhook{podWebhook("other.example.com", "count", api.FailurePolicyIgnore)}})
	assert.Equal(t, int32(0), calls.Load(), "webhook configurations are never sent to webhooks")
	require.NoError(t, ts.createPod(t, nginxPod("web"), false))
	assert.Equal(t, int32(2), calls.Load(), "two matching webhooks, one call each")
}

func TestWebhookConfigurationValidation(t *testing.T) {
	ts := newTestServer(t)
	hook := podWebhook("short", "x", "Sometimes")
	hook.TimeoutSeconds = api.Ptr(int32(31))
	_, err := ts.do(t, adminToken, wire.Request{Verb: wire.VerbCreate, Resource: "mutatingwebhookconfigurations",
		Body: &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "bad"}, Webhooks: []api.Webhook{hook}}})
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err))
	for _, want := range []string{"webhooks[0].name", "webhooks[0].failurePolicy", "the timeout value must be between 1 and 30 seconds"} {
		assert.Contains(t, err.Error(), want)
	}
}

// deadlineProbe is a validating plugin that remembers whether its context carried a deadline.
type deadlineProbe struct{ sawDeadline *bool }

func (deadlineProbe) Name() string { return "DeadlineProbe" }
func (p deadlineProbe) Validate(ctx context.Context, _ *admissionAttributes) error {
	_, *p.sawDeadline = ctx.Deadline()
	return nil
}

func TestValidatingAdmissionRunsUnderTheRequestsDeadline(t *testing.T) {
	ts := newTestServer(t)
	var saw bool
	ts.validating = append(ts.validating, deadlineProbe{&saw})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := ts.Do(ctx, &wire.Request{Token: adminToken, Verb: wire.VerbCreate, Resource: "pods", Namespace: "default", Body: nginxPod("web")})
	require.NoError(t, err)
	assert.True(t, saw, "a validating webhook must be cut off when the request's own deadline passes")
}
