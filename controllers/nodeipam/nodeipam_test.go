package nodeipam_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/client"
	"kubesim/controllers/nodeipam"
	"kubesim/sim"
)

// With --cluster-cidr 10.0.0.0/8, 300 Nodes all get a distinct /24: the 255-node ceiling of a /16 is
// the cluster CIDR's, not kubesim's.
func TestThreeHundredNodesGetDistinctPodCIDRs(t *testing.T) {
	ctx := context.Background()
	c, err := sim.New(ctx, sim.Config{Mode: sim.StepMode, Seed: 1})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	cl := c.Client(nodeipam.Identity, nodeipam.Name)
	ctrl, err := nodeipam.New(cl, client.NewInformerFactory(cl, c.Clock, c.Trace), c.Clock, c.Trace,
		client.NewEventRecorder(cl, nodeipam.Name, "", c.Clock, c.Trace), nodeipam.Options{ClusterCIDR: "10.0.0.0/8"})
	require.NoError(t, err)
	require.NoError(t, c.Add(ctx, ctrl))
	nodes := client.For[api.Node](c.Kubectl.Client())
	for i := range 300 {
		_, err := nodes.Create(ctx, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i+1)}})
		require.NoError(t, err)
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "every node has a podCIDR", func() (bool, error) {
		list, _, err := nodes.List(ctx, "", client.ListOptions{})
		for _, n := range list {
			if n.Spec.PodCIDR == "" {
				return false, err
			}
		}
		return len(list) == 300, err
	}, 0))
	list, _, err := nodes.List(ctx, "", client.ListOptions{})
	require.NoError(t, err)
	seen := map[string]string{}
	for _, n := range list {
		assert.Empty(t, seen[n.Spec.PodCIDR], "%s and %s share %s", seen[n.Spec.PodCIDR], n.Name, n.Spec.PodCIDR)
		seen[n.Spec.PodCIDR] = n.Name
		assert.Equal(t, []string{n.Spec.PodCIDR}, n.Spec.PodCIDRs)
	}
	assert.Len(t, seen, 300)
}
