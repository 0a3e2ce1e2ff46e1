package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
)

func (c *cluster) node(name string) *api.Node {
	c.t.Helper()
	n, err := client.For[api.Node](c.k.Client()).Get(c.ctx, "", name)
	require.NoError(c.t, err)
	return n
}

// kubectl cordon and uncordon flip spec.unschedulable; kubectl drain cordons, then evicts every pod on
// the node, and the Deployment's pods come back on the other node.
func TestCordonUncordonAndDrain(t *testing.T) {
	c := newCluster(t)
	require.NoError(t, c.k.Cordon(c.ctx, "node-1"))
	assert.True(t, c.node("node-1").Spec.Unschedulable)
	require.NoError(t, c.k.Uncordon(c.ctx, "node-1"))
	assert.False(t, c.node("node-1").Spec.Unschedulable)

	c.applyNginx()
	c.rolledOut()
	onNode1 := func() []string {
		pods, _, err := client.For[api.Pod](c.k.Client()).List(c.ctx, "", client.ListOptions{FieldSelector: "spec.nodeName=node-1"})
		require.NoError(t, err)
		var names []string
		for _, p := range pods {
			names = append(names, p.Namespace+"/"+p.Name)
		}
		return names
	}
	want := onNode1()
	require.NotEmpty(t, want, "the scheduler spread nginx over both nodes")

	evicted, err := c.k.Drain(c.ctx, "node-1")
	require.NoError(t, err)
	assert.Equal(t, want, evicted)
	assert.True(t, c.node("node-1").Spec.Unschedulable)
	require.NoError(t, c.Driver.RunUntil(c.ctx, "node-1 empty and nginx back to 3", func() (bool, error) {
		return len(onNode1()) == 0 && c.deployment().Status.AvailableReplicas == 3, nil
	}, 0))

	assert.EqualError(t, c.k.Cordon(c.ctx, "node-9"), `nodes "node-9" not found`)
}
