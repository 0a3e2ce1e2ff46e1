// network.go: pod IPs from the node's podCIDR, the job of the CNI plugin's host-local IPAM.
//
//	newIPAM(cidr)       a pool over one IPv4 subnet such as 10.244.1.0/24
//	(*ipam).allocate()  the next free address
//	(*ipam).release(ip) give an address back
//
// The node controller gives each Node a spec.podCIDR; the kubelet hands it to the runtime, and the CNI
// plugin allocates every sandbox's IP inside it. host-local does not hand out the lowest free address:
// it continues after the last one it gave, wrapping at the end, so a just-released IP is not reused at
// once (a stale Endpoint pointing at it would reach the wrong pod). The network address, the gateway
// (.1, the bridge cni0) and the broadcast address are never given out.

package fakeruntime

import (
	"fmt"
	"net/netip"
)

// ipam is one node's pod address pool. It has no lock: the Runtime's mu guards it.
type ipam struct {
	prefix netip.Prefix
	first  netip.Addr // first assignable address (.2)
	last   netip.Addr // last assignable address (broadcast - 1)
	prev   netip.Addr // the last address handed out; allocation continues after it
	inUse  map[netip.Addr]bool
	size   int // assignable addresses
}

func newIPAM(cidr string) (*ipam, error) {
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil, fmt.Errorf("fakeruntime: invalid podCIDR %q: %w", cidr, err)
	}
	prefix = prefix.Masked()
	if !prefix.Addr().Is4() || prefix.Bits() > 30 {
		return nil, fmt.Errorf("fakeruntime: podCIDR %q must be an IPv4 subnet of at least 4 addresses", cidr)
	}
	hostBits := 32 - prefix.Bits()
	size := 1<<hostBits - 3 // minus network, gateway and broadcast
	first := prefix.Addr().Next().Next()
	last := first
	for range size - 1 {
		last = last.Next()
	}
	return &ipam{prefix: prefix, first: first, last: last, prev: first.Prev(), inUse: map[netip.Addr]bool{}, size: size}, nil
}

// gateway is the bridge's address, from which the kubelet's probes reach the pods.
func (p *ipam) gateway() netip.Addr { return p.prefix.Addr().Next() }

// allocate returns the next free address after the previous allocation, or an error when the range is
// exhausted, worded as host-local words it.
func (p *ipam) allocate() (netip.Addr, error) {
	if len(p.inUse) >= p.size {
		return netip.Addr{}, fmt.Errorf("failed to allocate for range 0: no IP addresses available in range set: %s-%s", p.first, p.last)
	}
	a := p.prev
	for {
		a = a.Next()
		if a.Compare(p.last) > 0 {
			a = p.first
		}
		if !p.inUse[a] {
			p.inUse[a] = true
			p.prev = a
			return a, nil
		}
	}
}

// release returns an address to the pool; releasing a free address does nothing.
func (p *ipam) release(a netip.Addr) { delete(p.inUse, a) }
