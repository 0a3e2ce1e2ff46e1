package sim

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/controllers/nodeipam"
)

// A cluster chooses its pod network by size, as large clusters are configured: the default /16 holds
// 256 nodes' /24s, so more nodes get a wider cluster CIDR, and a configured one always wins.
func TestClusterCIDRIsChosenBySize(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Nodes: 3}, nodeipam.DefaultClusterCIDR},
		{Config{Nodes: 256}, nodeipam.DefaultClusterCIDR},
		{Config{Nodes: 257}, WideClusterCIDR},
		{Config{NodeSpecs: make([]NodeSpec, 5000)}, WideClusterCIDR},
		{Config{Nodes: 5000, ClusterCIDR: "10.0.0.0/8"}, "10.0.0.0/8"},
	} {
		c := &Cluster{Config: tc.cfg}
		assert.Equal(t, tc.want, c.clusterCIDR(), "%d nodes", max(tc.cfg.Nodes, len(tc.cfg.NodeSpecs)))
	}
	// The 5000th node's /24 of the wide CIDR exists and stays inside it.
	wide := netip.MustParsePrefix(WideClusterCIDR)
	last := nodeipam.SubnetAt(wide, nodeipam.DefaultNodeCIDRMaskSize, 4999)
	assert.True(t, wide.Contains(last.Addr()), last.String())
	assert.Equal(t, "10.147.135.0/24", last.String())
}
