package apiserver

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/wire"
)

// A webhook server receives admission.k8s.io/v1's AdmissionReview: the object as JSON, and on an
// update the old object too.
func TestWebhookReceivesTheAdmissionReview(t *testing.T) {
	ts := newTestServer(t)
	var mu sync.Mutex
	var seen []*api.AdmissionRequest
	ts.SetWebhookBackend(fakeBackend{"default/audit": func(r *api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r)
		return allow(r)
	}})
	hook := podWebhook("audit.example.com", "audit", api.FailurePolicyFail)
	hook.Rules[0].Operations = []api.OperationType{api.OperationCreate, api.OperationUpdate}
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "audit"}, Webhooks: []api.Webhook{hook}})

	require.NoError(t, ts.createPod(t, nginxPod("web"), false))
	pod, err := ts.getPod(t, "web")
	require.NoError(t, err)
	pod.Labels["tier"] = "front"
	_, err = ts.do(t, adminToken, wire.Request{Verb: wire.VerbUpdate, Resource: "pods", Namespace: "default", Name: "web", Body: pod})
	require.NoError(t, err)

	require.Len(t, seen, 2)
	create, update := seen[0], seen[1]
	assert.NotEmpty(t, create.UID)
	assert.NotEqual(t, create.UID, update.UID, "every call has its own uid")
	assert.Equal(t, api.GroupVersionKind{Version: "v1", Kind: "Pod"}, create.Kind)
	assert.Equal(t, api.GroupVersionResource{Version: "v1", Resource: "pods"}, create.Resource)
	assert.Equal(t, api.OperationCreate, create.Operation)
	assert.Equal(t, "default", create.Namespace)
	assert.Equal(t, "web", create.Name)
	assert.Equal(t, "admin", create.UserInfo.Username)
	assert.Contains(t, create.UserInfo.Groups, GroupMasters)
	assert.False(t, *create.DryRun)
	assert.Empty(t, create.OldObject)
	var sent api.Pod
	require.NoError(t, json.Unmarshal(create.Object, &sent))
	assert.Equal(t, "nginx:1.25", sent.Spec.Containers[0].Image)

	assert.Equal(t, api.OperationUpdate, update.Operation)
	var old, updated api.Pod
	require.NoError(t, json.Unmarshal(update.OldObject, &old))
	require.NoError(t, json.Unmarshal(update.Object, &updated))
	assert.Empty(t, old.Labels["tier"])
	assert.Equal(t, "front", updated.Labels["tier"])
}

// Validating webhooks are called in parallel: the request waits for the slowest, not for the sum,
// and the first refusal in configuration order is the answer, whichever came first.
func TestValidatingWebhooksAreCalledInParallel(t *testing.T) {
	ts := newTestServer(t)
	deny := func(took time.Duration, why string) webhookServer {
		return func(*api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
			return &api.AdmissionResponse{Result: &api.AdmissionStatus{Code: 403, Message: why}}, took, nil
		}
	}
	ts.SetWebhookBackend(fakeBackend{"default/slow": deny(5*time.Second, "slow says no"), "default/quick": deny(3*time.Second, "quick says no")})
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "a-slow"},
		Webhooks: []api.Webhook{podWebhook("slow.example.com", "slow", api.FailurePolicyFail)}})
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "b-quick"},
		Webhooks: []api.Webhook{podWebhook("quick.example.com", "quick", api.FailurePolicyFail)}})

	start := ts.clock.Now()
	err := ts.createPod(t, nginxPod("web"), false)
	require.Error(t, err)
	assert.Equal(t, 5*time.Second, ts.clock.Since(start), "the slowest call, not 3s + 5s")
	assert.Equal(t, `admission webhook "slow.example.com" denied the request: slow says no`, err.Error())
	assert.True(t, traceContains(ts.trace, `validating webhook "quick.example.com" after 3s: admission webhook "quick.example.com" denied the request: quick says no`),
		"both were called")
}

func TestAValidatingWebhookMayNotPatch(t *testing.T) {
	ts := newTestServer(t)
	ts.SetWebhookBackend(fakeBackend{"default/sidecar-injector": injector(0)})
	ts.create(t, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "confused"},
		Webhooks: []api.Webhook{podWebhook("confused.example.com", "sidecar-injector", api.FailurePolicyFail)}})
	err := ts.createPod(t, nginxPod("web"), false)
	require.Error(t, err)
	assert.True(t, apierrors.IsInternalError(err))
	assert.Contains(t, err.Error(), "webhook returned response.patch but not allowed for validating webhook")
}

// objectSelector narrows a webhook to the objects whose labels match: here only pods that ask for
// injection get the sidecar.
func TestObjectSelectorNarrowsAWebhookToMatchingObjects(t *testing.T) {
	ts := newTestServer(t)
	ts.SetWebhookBackend(fakeBackend{"default/sidecar-injector": injector(0)})
	hook := podWebhook("sidecar-injector.example.com", "sidecar-injector", api.FailurePolicyFail)
	hook.ObjectSelector = &api.LabelSelector{MatchLabels: map[string]string{"sidecar-injection": "enabled"}}
	ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "sidecar-injector"}, Webhooks: []api.Webhook{hook}})

	asking := nginxPod("asking")
	asking.Labels["sidecar-injection"] = "enabled"
	require.NoError(t, ts.createPod(t, asking, false))
	require.NoError(t, ts.createPod(t, nginxPod("plain"), false))
	for name, want := range map[string]int{"asking": 2, "plain": 1} {
		pod, err := ts.getPod(t, name)
		require.NoError(t, err)
		assert.Len(t, pod.Spec.Containers, want, name)
	}
}

// A mutating webhook with reinvocationPolicy IfNeeded is called again when a later webhook changed
// the object after it ran; with Never it keeps what it saw the first time.
func TestReinvocationPolicyIfNeededCallsAWebhookAgainAfterALaterChange(t *testing.T) {
	for _, policy := range []api.ReinvocationPolicyType{api.ReinvocationNever, api.ReinvocationIfNeeded} {
		t.Run(string(policy), func(t *testing.T) {
			ts := newTestServer(t)
			// counter labels a pod with the number of containers it saw.
			counter := func(r *api.AdmissionRequest) (*api.AdmissionResponse, time.Duration, error) {
				var pod api.Pod
				if err := json.Unmarshal(r.Object, &pod); err != nil {
					return nil, 0, err
				}
				return jsonPatch(map[string]any{"op": "add", "path": "/metadata/labels/containers-seen",
					"value": fmt.Sprint(len(pod.Spec.Containers))}), 0, nil
			}
			ts.SetWebhookBackend(fakeBackend{"default/counter": counter, "default/sidecar-injector": injector(0)})
			first := podWebhook("counter.example.com", "counter", api.FailurePolicyFail)
			first.ReinvocationPolicy = api.Ptr(policy)
			ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "a-counter"}, Webhooks: []api.Webhook{first}})
			ts.create(t, &api.MutatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "b-sidecar-injector"},
				Webhooks: []api.Webhook{podWebhook("sidecar-injector.example.com", "sidecar-injector", api.FailurePolicyFail)}})

			require.NoError(t, ts.createPod(t, nginxPod("web"), false))
			pod, err := ts.getPod(t, "web")
			require.NoError(t, err)
			require.Len(t, pod.Spec.Containers, 2)
			want := map[api.ReinvocationPolicyType]string{api.ReinvocationNever: "1", api.ReinvocationIfNeeded: "2"}[policy]
			assert.Equal(t, want, pod.Labels["containers-seen"])
		})
	}
}

func TestApplyJSONPatch(t *testing.T) {
	doc := `{"metadata":{"name":"web","labels":{"a/b":"1"}},"spec":{"containers":[{"name":"app"}]}}`
	for _, c := range []struct{ name, patch, want, err string }{
		{name: "add appends with -", patch: `[{"op":"add","path":"/spec/containers/-","value":{"name":"sidecar"}}]`,
			want: `{"metadata":{"labels":{"a/b":"1"},"name":"web"},"spec":{"containers":[{"name":"app"},{"name":"sidecar"}]}}`},
		{name: "add inserts at an index", patch: `[{"op":"add","path":"/spec/containers/0","value":{"name":"init"}}]`,
			want: `{"metadata":{"labels":{"a/b":"1"},"name":"web"},"spec":{"containers":[{"name":"init"},{"name":"app"}]}}`},
		{name: "~1 escapes a slash", patch: `[{"op":"replace","path":"/metadata/labels/a~1b","value":"2"}]`,
			want: `{"metadata":{"labels":{"a/b":"2"},"name":"web"},"spec":{"containers":[{"name":"app"}]}}`},
		{name: "remove", patch: `[{"op":"remove","path":"/metadata/labels"}]`,
			want: `{"metadata":{"name":"web"},"spec":{"containers":[{"name":"app"}]}}`},
		{name: "copy and move", patch: `[{"op":"copy","from":"/metadata/name","path":"/metadata/labels/app"},{"op":"move","from":"/metadata/labels/a~1b","path":"/metadata/labels/b"}]`,
			want: `{"metadata":{"labels":{"app":"web","b":"1"},"name":"web"},"spec":{"containers":[{"name":"app"}]}}`},
		{name: "test passes", patch: `[{"op":"test","path":"/metadata/name","value":"web"}]`,
			want: `{"metadata":{"labels":{"a/b":"1"},"name":"web"},"spec":{"containers":[{"name":"app"}]}}`},
		{name: "a failed test fails the whole patch", patch: `[{"op":"add","path":"/metadata/labels/x","value":"1"},{"op":"test","path":"/metadata/name","value":"api"}]`,
			err: "operation 1 (test /metadata/name): test failed: the value differs"},
		{name: "replace needs the member", patch: `[{"op":"replace","path":"/metadata/namespace","value":"x"}]`,
			err: `operation 0 (replace /metadata/namespace): no member "namespace"`},
		{name: "index out of range", patch: `[{"op":"add","path":"/spec/containers/5","value":{}}]`,
			err: `operation 0 (add /spec/containers/5): index "5" out of range (length 1)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyJSONPatch([]byte(doc), []byte(c.patch))
			if c.err != "" {
				assert.EqualError(t, err, c.err)
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, c.want, string(got))
		})
	}
}
