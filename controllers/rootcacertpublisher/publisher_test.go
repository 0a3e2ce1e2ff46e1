package rootcacertpublisher_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/rootcacertpublisher"
	"kubesim/internal/testenv"
	"kubesim/sim"
)

const testCA = "-----BEGIN CERTIFICATE-----\ntest CA\n-----END CERTIFICATE-----\n"

// addController adds the publisher, alone, with a CA of the test's own: the system namespaces'
// ConfigMaps, which the apiserver made with the cluster's CA, must be put back to it.
func addController(ctx context.Context, c *sim.Cluster) error {
	d := testenv.ForController(c, rootcacertpublisher.Name)
	return c.Add(ctx, rootcacertpublisher.New(d.Client, d.Informers, d.Clock, d.Trace, []byte(testCA)))
}

func TestEveryNamespaceKeepsTheRootCAConfigMap(t *testing.T) {
	c, ctx := testenv.Cluster(t, testenv.Step, addController)
	cms := client.For[api.ConfigMap](c.Kubectl.Client())
	caIn := func(ns string) string {
		t.Helper()
		cm, err := cms.Get(ctx, ns, "kube-root-ca.crt")
		require.NoError(t, err, "namespace %s", ns)
		assert.Equal(t, api.RootCADescription, cm.Annotations["kubernetes.io/description"])
		return cm.Data["ca.crt"]
	}

	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	assert.Equal(t, testCA, caIn("kube-system"), "a ConfigMap with another CA is put back")

	_, err := c.Kubectl.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	_, err = cms.Get(ctx, "demo", "kube-root-ca.crt")
	require.Error(t, err, "a brand-new namespace has none until the publisher runs")
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	assert.Equal(t, testCA, caIn("demo"), "a new namespace gets one")

	_, _, err = cms.Delete(ctx, "demo", "kube-root-ca.crt", client.DeleteOptions{})
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	assert.Equal(t, testCA, caIn("demo"), "a deleted one comes back")

	cm, err := cms.Get(ctx, "demo", "kube-root-ca.crt")
	require.NoError(t, err)
	cm.Data["ca.crt"] = "tampered"
	delete(cm.Annotations, "kubernetes.io/description")
	_, err = cms.Update(ctx, cm)
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunIdle(ctx, 20))
	assert.Equal(t, testCA, caIn("demo"), "an edited one is put back, description included")
}
