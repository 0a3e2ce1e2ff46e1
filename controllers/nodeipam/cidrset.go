// cidrset.go: the cluster CIDR cut into equal per-node ranges (pkg/controller/nodeipam/ipam/cidrset).
//
//	NewCIDRSet(clusterCIDR, maskSize) (*CIDRSet, error)
//	(*CIDRSet).AllocateNext() (netip.Prefix, error)   the next free range, round-robin
//	(*CIDRSet).Occupy(prefix) error                    mark a range some Node already has
//	(*CIDRSet).Release(prefix)                         give a deleted Node's range back
//	SubnetAt(clusterCIDR, maskSize, i)                 the i-th range (0-based)
//
// Like Kubernetes' CIDRSet, allocation continues after the last range handed out rather than from the
// lowest free one, so a range released by a deleted Node is not given at once to the next Node.
package nodeipam

import (
	"errors"
	"fmt"
	"net/netip"
	"sync"
)

// ErrCIDRRangeNoCIDRsRemaining is Kubernetes' error when every range is taken.
var ErrCIDRRangeNoCIDRsRemaining = errors.New("CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range")

// maxSubnetBits bounds the number of ranges, as Kubernetes does (clusterMaskSize + 16 >= maskSize).
const maxSubnetBits = 16

// CIDRSet hands out the ranges of one cluster CIDR. It is safe for concurrent use.
type CIDRSet struct {
	cluster  netip.Prefix
	maskSize int
	max      int // number of ranges

	mu sync.Mutex
	// mu guards used and next: used holds the indexes of taken ranges; next is where the search for a
	// free range starts.
	used map[int]bool
	next int
}

// NewCIDRSet cuts clusterCIDR ("10.244.0.0/16") into ranges of maskSize bits (24).
func NewCIDRSet(clusterCIDR string, maskSize int) (*CIDRSet, error) {
	cluster, err := netip.ParsePrefix(clusterCIDR)
	if err != nil {
		return nil, fmt.Errorf("invalid --cluster-cidr %q: %w", clusterCIDR, err)
	}
	if !cluster.Addr().Is4() {
		return nil, fmt.Errorf("--cluster-cidr %q: kubesim allocates IPv4 ranges only", clusterCIDR)
	}
	cluster = cluster.Masked()
	switch {
	case maskSize < cluster.Bits() || maskSize > 30:
		return nil, fmt.Errorf("--node-cidr-mask-size %d must be between the cluster CIDR's /%d and /30", maskSize, cluster.Bits())
	case maskSize-cluster.Bits() > maxSubnetBits:
		return nil, errors.New("CIDRSet: mask size too big")
	}
	return &CIDRSet{cluster: cluster, maskSize: maskSize, max: 1 << (maskSize - cluster.Bits()), used: map[int]bool{}}, nil
}

// String names the set as the trace shows it: "10.244.0.0/16 in /24 ranges".
func (s *CIDRSet) String() string { return fmt.Sprintf("%s in /%d ranges", s.cluster, s.maskSize) }

// SubnetAt is the i-th range of clusterCIDR cut into /maskSize ranges: SubnetAt(10.244.0.0/16, 24, 3)
// is 10.244.3.0/24.
func SubnetAt(cluster netip.Prefix, maskSize, i int) netip.Prefix {
	b := cluster.Masked().Addr().As4()
	base := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v := base + uint32(i)<<(32-maskSize)
	return netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), maskSize)
}

// AllocateNext takes the next free range.
func (s *CIDRSet) AllocateNext() (netip.Prefix, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := range s.max {
		i := (s.next + n) % s.max
		if !s.used[i] {
			s.used[i] = true
			s.next = (i + 1) % s.max
			return SubnetAt(s.cluster, s.maskSize, i), nil
		}
	}
	return netip.Prefix{}, ErrCIDRRangeNoCIDRsRemaining
}

// Occupy marks a range as taken; it fails for a range that is not one of the set's.
func (s *CIDRSet) Occupy(p netip.Prefix) error {
	i, err := s.index(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used[i] = true
	return nil
}

// Release gives a range back; releasing a free or foreign range does nothing.
func (s *CIDRSet) Release(p netip.Prefix) {
	if i, err := s.index(p); err == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.used, i)
	}
}

func (s *CIDRSet) index(p netip.Prefix) (int, error) {
	if p.Bits() != s.maskSize || !s.cluster.Contains(p.Addr()) {
		return 0, fmt.Errorf("%s is not a /%d range of the cluster CIDR %s", p, s.maskSize, s.cluster)
	}
	a, c := p.Masked().Addr().As4(), s.cluster.Addr().As4()
	off := (uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])) -
		(uint32(c[0])<<24 | uint32(c[1])<<16 | uint32(c[2])<<8 | uint32(c[3]))
	return int(off >> (32 - s.maskSize)), nil
}
