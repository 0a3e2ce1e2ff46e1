package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

// Session affinity as Kubernetes 1.34 defaults and validates it: ClientIP gets a timeout of 10800
// seconds when none is given, None drops any configuration, and a timeout outside (0, 86400] is
// refused in Kubernetes' words.
func TestSessionAffinityDefaultsAndValidation(t *testing.T) {
	service := func(affinity api.ServiceAffinity, cfg *api.SessionAffinityConfig) *api.Service {
		return &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}},
				SessionAffinity: affinity, SessionAffinityConfig: cfg}}
	}
	sticky := service(api.ServiceAffinityClientIP, nil)
	api.SetDefaults(sticky)
	if assert.NotNil(t, sticky.Spec.SessionAffinityConfig) {
		assert.Equal(t, int32(10800), *sticky.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds)
	}
	assert.Empty(t, ValidateService(sticky))

	none := service(api.ServiceAffinityNone, &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: api.Ptr(int32(60))}})
	api.SetDefaults(none)
	assert.Nil(t, none.Spec.SessionAffinityConfig, "defaulting drops it")
	none.Spec.SessionAffinityConfig = &api.SessionAffinityConfig{}
	assert.Equal(t, "spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None",
		ValidateService(none).ToAggregate().Error())

	for timeout, want := range map[int32]string{
		0:     "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400",
		86401: "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400",
		86400: "",
	} {
		svc := service(api.ServiceAffinityClientIP, &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: api.Ptr(timeout)}})
		api.SetDefaults(svc)
		if want == "" {
			assert.Empty(t, ValidateService(svc))
			continue
		}
		assert.Equal(t, want, ValidateService(svc).ToAggregate().Error())
	}
	// Defaulting fills a ClientIP configuration in; only a request that skips it (none does) could
	// reach validation without one.
	missing := service(api.ServiceAffinityClientIP, &api.SessionAffinityConfig{})
	missing.Spec.Type, missing.Spec.Ports[0].Protocol, missing.Spec.Ports[0].TargetPort = api.ServiceTypeClusterIP, api.ProtocolTCP, api.FromInt32(80)
	assert.Equal(t, "spec.sessionAffinityConfig.clientIP: Required value: when session affinity type is ClientIP",
		ValidateService(missing).ToAggregate().Error())
}
