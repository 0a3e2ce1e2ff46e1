package scenarios_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/internal/testenv"
	"kubesim/webhooks"
)

func TestWebhookTimeoutScenarioFailsAfterTheTimeoutThenSkipsTheWebhook(t *testing.T) {
	expectSigns(t, "webhook-timeout",
		`kubectl get pod app-1: containers nginx and sidecar`,
		`Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call webhook: Post "https://sidecar-injector.default.svc:443/inject?timeout=10s": context deadline exceeded`,
		`the request took 10s of cluster time`,
		`nothing was written: pod app-2 does not exist`,
		`event Warning FailedCreate: Error creating: Internal error occurred: failed calling webhook`,
		`context deadline exceeded; failurePolicy Ignore: skipped`,
		`kubectl get pod app-3: only container nginx, no sidecar`,
		`pod app-4 is created with the sidecar`,
	)
}

func TestRefusingWebhookFailsAtOnceAndSlowOneCostsItsDelay(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Full(1))

	c.ServeWebhook("default/policy", webhooks.RequireLabel("team"))
	_, err := c.Kubectl.Create(ctx, &api.ValidatingWebhookConfiguration{ObjectMeta: api.ObjectMeta{Name: "policy"},
		Webhooks: []api.Webhook{{Name: "policy.example.com",
			ClientConfig: api.WebhookClientConfig{Service: &api.ServiceReference{Namespace: "default", Name: "policy"}},
			Rules: []api.RuleWithOperations{{Operations: []api.OperationType{api.OperationCreate},
				APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}},
			SideEffects: api.Ptr(api.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"}}}})
	require.NoError(t, err)
	pod := func(name string, labels map[string]string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
	}

	_, err = c.Kubectl.Create(ctx, pod("unlabelled", nil))
	require.Error(t, err)
	assert.Equal(t, `admission webhook "policy.example.com" denied the request: missing required label "team"`, err.Error())

	c.WebhookFault("default/policy", webhooks.Slow(3*time.Second))
	start := c.Now()
	_, err = c.Kubectl.Create(ctx, pod("slow", map[string]string{"team": "a"}))
	require.NoError(t, err)
	assert.Equal(t, 3*time.Second+5*time.Millisecond, c.Now().Sub(start), "the answer's latency plus the fault's delay")

	c.WebhookFault("default/policy", webhooks.Refuse)
	start = c.Now()
	_, err = c.Kubectl.Create(ctx, pod("refused", map[string]string{"team": "a"}))
	require.Error(t, err)
	assert.Equal(t, `Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: `+
		`Post "https://policy.default.svc:443?timeout=10s": dial tcp policy.default.svc:443: connect: connection refused`, err.Error())
	assert.Equal(t, time.Duration(0), c.Now().Sub(start), "a refused connection fails at once")
}
