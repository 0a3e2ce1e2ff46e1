package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The names kubectl resolves on its command line ("kubectl api-resources").
func TestResourcesResolveByKubectlNames(t *testing.T) {
	for name, want := range map[string]string{
		"po": "pods", "pod": "pods", "Pods": "pods", "no": "nodes", "ns": "namespaces",
		"deploy": "deployments.apps", "deployments.apps": "deployments.apps", "rs": "replicasets.apps",
		"ds": "daemonsets.apps", "svc": "services", "ep": "endpoints", "endpoints": "endpoints", "ev": "events",
		"sa": "serviceaccounts", "quota": "resourcequotas", "pc": "priorityclasses.scheduling.k8s.io",
		"lease": "leases.coordination.k8s.io", "clusterrolebinding": "clusterrolebindings.rbac.authorization.k8s.io",
	} {
		r, ok := ResourceFor(name)
		if assert.True(t, ok, name) {
			assert.Equal(t, want, r.GroupResource(), name)
		}
	}
}

func TestResourceScopesAndSubresources(t *testing.T) {
	for _, name := range []string{"nodes", "namespaces", "clusterroles", "clusterrolebindings", "priorityclasses"} {
		r, _ := ResourceFor(name)
		assert.False(t, r.Namespaced, name)
	}
	pods, _ := ResourceFor("pods")
	assert.Equal(t, []string{"status", "binding", "eviction", "log"}, pods.Subresources)
	deploy, _ := ResourceFor("deploy")
	assert.True(t, deploy.HasSubresource("scale"))
	ns, _ := ResourceFor("ns")
	assert.True(t, ns.HasSubresource("finalize"))
}

func TestEveryKindRoundTripsThroughTheScheme(t *testing.T) {
	for _, r := range Resources() {
		obj := r.NewObject()
		byType, ok := ResourceOf(obj)
		require.True(t, ok, r.Kind)
		assert.Same(t, r, byType)
		byKind, ok := ResourceForKind(r.APIVersion(), r.Kind)
		require.True(t, ok, r.Kind)
		assert.Same(t, r, byKind)

		data, err := Encode(obj)
		require.NoError(t, err)
		objs, err := Decode(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, obj, objs[0])
	}
}
