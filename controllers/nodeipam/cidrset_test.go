package nodeipam_test

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/controllers/nodeipam"
)

// pkg/controller/nodeipam/ipam/cidrset: ranges are handed out in order, round-robin, never twice.
func TestCIDRSetHandsOutConsecutiveRangesAndNeverTwice(t *testing.T) {
	s, err := nodeipam.NewCIDRSet("10.244.0.0/16", 24)
	require.NoError(t, err)
	first, _ := s.AllocateNext()
	second, _ := s.AllocateNext()
	assert.Equal(t, "10.244.0.0/24", first.String())
	assert.Equal(t, "10.244.1.0/24", second.String())

	s.Release(first)
	third, _ := s.AllocateNext()
	assert.Equal(t, "10.244.2.0/24", third.String(), "a released range is not reused at once")
}

func TestCIDRSetOccupiesExistingRangesAndRunsOut(t *testing.T) {
	s, err := nodeipam.NewCIDRSet("10.244.0.0/22", 24) // 4 ranges
	require.NoError(t, err)
	require.NoError(t, s.Occupy(netip.MustParsePrefix("10.244.0.0/24")))
	require.NoError(t, s.Occupy(netip.MustParsePrefix("10.244.2.0/24")))
	assert.Error(t, s.Occupy(netip.MustParsePrefix("10.245.0.0/24")), "not a range of this set")
	var got []string
	for range 2 {
		p, err := s.AllocateNext()
		require.NoError(t, err)
		got = append(got, p.String())
	}
	assert.Equal(t, []string{"10.244.1.0/24", "10.244.3.0/24"}, got)
	_, err = s.AllocateNext()
	assert.ErrorIs(t, err, nodeipam.ErrCIDRRangeNoCIDRsRemaining)
}

// A /16 holds 256 nodes of /24; a /8 holds 65536, so a cluster can grow past 255 nodes.
func TestAWiderClusterCIDRHoldsMoreThan255Nodes(t *testing.T) {
	s, err := nodeipam.NewCIDRSet("10.0.0.0/8", 24)
	require.NoError(t, err)
	seen := map[netip.Prefix]bool{}
	var last netip.Prefix
	for range 300 {
		p, err := s.AllocateNext()
		require.NoError(t, err)
		require.False(t, seen[p])
		seen[p] = true
		last = p
	}
	assert.Equal(t, "10.1.43.0/24", last.String(), "the 300th range")

	_, err = nodeipam.NewCIDRSet("10.0.0.0/8", 26)
	assert.EqualError(t, err, "CIDRSet: mask size too big", "more than 2^16 ranges, as Kubernetes refuses")
}
