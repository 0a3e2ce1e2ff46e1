// servicealloc.go: the service registry's allocators (k8s.io/kubernetes pkg/registry/core/service:
// storage/alloc.go, ipallocator, portallocator). Creating a Service takes a cluster IP from the
// service CIDR and, for type NodePort, a node port from 30000-32767 for each port; an update that
// turns a Service into a NodePort one takes its node ports then.
//
//	ServiceClusterIPRange, ServiceNodePortRange   --service-cluster-ip-range, --service-node-port-range
//	(*Server).allocateService(ctx, svc, old)       fill in spec.clusterIP(s), ipFamilies and nodePorts, or refuse
//
// A value the user asks for must be free and in range; a conflict is refused as 422 Invalid with
// Kubernetes' words ("provided port is already allocated"). Free values are chosen at random from the
// upper part of each range first, as Kubernetes does since 1.27 (IPs) and 1.29 (ports): the lower part
// stays for the values people pick by hand, like 10.96.0.10 for cluster DNS.
//
// kubesim simplification: instead of a bitmap kept in etcd and a repair loop, the allocator reads the
// Services in the watch cache; services.mu serialises allocation with the write that records it, so
// no value is given twice and a deleted Service's values are free again at once.
package apiserver

import (
	"context"
	"fmt"
	"net/netip"
	"sync"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/field"
)

// The ranges, as kube-apiserver's defaults (kubeadm's for the service CIDR).
const (
	ServiceClusterIPRange = "10.96.0.0/12"
	NodePortMin           = 30000
	NodePortMax           = 32767
)

// ServiceNodePortRange is how Kubernetes prints the node port range.
var ServiceNodePortRange = fmt.Sprintf("%d-%d", NodePortMin, NodePortMax)

// KubernetesServiceIP is the first address of the service CIDR, which the apiserver's own Service
// "kubernetes" in "default" always has.
const KubernetesServiceIP = "10.96.0.1"

// serviceAllocator serialises Service allocations.
type serviceAllocator struct {
	mu sync.Mutex // held from reading the used values until the Service carrying new ones is written
}

// allocateService fills in what the Service needs and returns the function that ends the
// allocation: the caller calls it once the Service is written (or the request failed).
func (s *Server) allocateService(ctx context.Context, svc, old *api.Service) (func(), error) {
	s.services.mu.Lock()
	unlock := s.services.mu.Unlock
	if err := s.fresh(ctx, "services"); err != nil {
		unlock()
		return nil, apierrors.NewInternalError(err)
	}
	usedIPs, usedPorts := s.usedServiceValues(svc)
	if old != nil {
		keepAllocatedValues(svc, old)
	}
	if err := s.allocateClusterIP(svc, old, usedIPs); err != nil {
		unlock()
		return nil, err
	}
	setIPFamilies(svc)
	if err := s.allocateNodePorts(svc, usedPorts); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// keepAllocatedValues does what Kubernetes' update does with values the user left out: an update
// (kubectl apply of the same manifest) keeps each port's node port, and a Service that stops being
// a NodePort one drops its node ports and its unchanged externalTrafficPolicy
// (patchAllocatedValues, dropTypeDependentFields).
func keepAllocatedValues(svc, old *api.Service) {
	nodePorts := svc.Spec.Type == api.ServiceTypeNodePort || svc.Spec.Type == api.ServiceTypeLoadBalancer
	wasNodePorts := old.Spec.Type == api.ServiceTypeNodePort || old.Spec.Type == api.ServiceTypeLoadBalancer
	if !nodePorts && wasNodePorts && svc.Spec.ExternalTrafficPolicy == old.Spec.ExternalTrafficPolicy {
		svc.Spec.ExternalTrafficPolicy = ""
	}
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		for _, op := range old.Spec.Ports {
			if op.Port != p.Port || op.Protocol != p.Protocol {
				continue
			}
			switch {
			case nodePorts && p.NodePort == 0:
				p.NodePort = op.NodePort
			case !nodePorts && wasNodePorts && p.NodePort == op.NodePort:
				p.NodePort = 0
			}
		}
	}
}

// usedServiceValues collects the cluster IPs and node ports of every other Service.
func (s *Server) usedServiceValues(self *api.Service) (map[netip.Addr]bool, map[int32]bool) {
	res, _ := api.ResourceFor("services")
	objs, _ := s.cache.list(res, everythingSelection())
	ips, ports := map[netip.Addr]bool{}, map[int32]bool{}
	for _, o := range objs {
		svc := o.(*api.Service)
		if svc.Namespace == self.Namespace && svc.Name == self.Name {
			continue
		}
		if ip, err := netip.ParseAddr(svc.Spec.ClusterIP); err == nil {
			ips[ip] = true
		}
		for _, p := range svc.Spec.Ports {
			if p.NodePort != 0 {
				ports[p.NodePort] = true
			}
		}
	}
	return ips, ports
}

// allocateClusterIP gives the Service its virtual IP: the one asked for if it is free and in range,
// else a free one; none for a headless Service (clusterIP None) or an ExternalName one.
func (s *Server) allocateClusterIP(svc, old *api.Service, used map[netip.Addr]bool) error {
	spec := &svc.Spec
	if spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if old != nil && old.Spec.ClusterIP != "" {
		if spec.ClusterIP == "" { // an update that left it out keeps it, as an apply would
			spec.ClusterIP, spec.ClusterIPs = old.Spec.ClusterIP, old.Spec.ClusterIPs
		}
		return nil // validation refuses a change
	}
	if spec.ClusterIP == "" && len(spec.ClusterIPs) > 0 {
		spec.ClusterIP = spec.ClusterIPs[0]
	}
	switch spec.ClusterIP {
	case api.ClusterIPNone:
		spec.ClusterIPs = []string{api.ClusterIPNone}
		return nil
	case "":
		ip, err := s.nextServiceIP(used)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("failed to allocate a serviceIP: %v", err))
		}
		spec.ClusterIP, spec.ClusterIPs = ip.String(), []string{ip.String()}
		return nil
	}
	ip, err := netip.ParseAddr(spec.ClusterIP)
	if err != nil {
		return nil // validation says why
	}
	invalid := func(msg string) error {
		return apierrors.NewInvalid("Service", svc.Name, field.ErrorList{field.Invalid(field.NewPath("spec", "clusterIPs"), spec.ClusterIPs,
			fmt.Sprintf("failed to allocate IP %s: %s", ip, msg))})
	}
	if len(spec.ClusterIPs) == 0 {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
	cidr := netip.MustParsePrefix(ServiceClusterIPRange)
	switch {
	case !cidr.Contains(ip) || ip == cidr.Addr():
		return invalid(fmt.Sprintf("the provided IP (%s) is not in the valid range. The range of valid IPs is %s", ip, cidr))
	case used[ip]:
		return invalid("provided IP is already allocated")
	}
	return nil
}

// setIPFamilies records the family of the cluster IPs, as the registry does when it allocates them
// (a single-stack IPv4 cluster: [IPv4], SingleStack); an ExternalName Service has none.
func setIPFamilies(svc *api.Service) {
	if svc.Spec.Type == api.ServiceTypeExternalName || len(svc.Spec.ClusterIPs) == 0 {
		return
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
	}
	if svc.Spec.IPFamilyPolicy == nil {
		svc.Spec.IPFamilyPolicy = api.Ptr(api.IPFamilyPolicySingleStack)
	}
}

// nextServiceIP picks a free IP: at random in the upper band of the range, then anywhere.
func (s *Server) nextServiceIP(used map[netip.Addr]bool) (netip.Addr, error) {
	cidr := netip.MustParsePrefix(ServiceClusterIPRange)
	size := 1<<(32-cidr.Bits()) - 2 // without the network and broadcast addresses
	offset := rangeOffset(size, 16, 16, 256)
	at := func(i int) netip.Addr { // the i-th assignable address, from 0
		b := cidr.Addr().As4()
		v := (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) + uint32(i) + 1
		return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
	}
	i, ok := pickFree(size, offset, int(s.random63()%int64(size-offset)), func(i int) bool { return !used[at(i)] })
	if !ok {
		return netip.Addr{}, fmt.Errorf("range is full")
	}
	return at(i), nil
}

// allocateNodePorts gives each port of a NodePort (or LoadBalancer) Service its node port; a port
// that names one must name a free one in range.
func (s *Server) allocateNodePorts(svc *api.Service, used map[int32]bool) error {
	if svc.Spec.Type != api.ServiceTypeNodePort && svc.Spec.Type != api.ServiceTypeLoadBalancer {
		return nil
	}
	size := NodePortMax - NodePortMin + 1
	offset := rangeOffset(size, 32, 16, 128)
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		path := field.NewPath("spec", "ports").Index(i).Child("nodePort")
		if p.NodePort != 0 {
			var msg string
			switch {
			case p.NodePort < NodePortMin || p.NodePort > NodePortMax:
				msg = "provided port is not in the valid range. The range of valid ports is " + ServiceNodePortRange
			case used[p.NodePort]:
				msg = "provided port is already allocated"
			}
			if msg != "" {
				return apierrors.NewInvalid("Service", svc.Name, field.ErrorList{field.Invalid(path, p.NodePort, msg)})
			}
			used[p.NodePort] = true
			continue
		}
		n, ok := pickFree(size, offset, int(s.random63()%int64(size-offset)), func(n int) bool { return !used[int32(NodePortMin+n)] })
		if !ok {
			return apierrors.NewInternalError(fmt.Errorf("failed to allocate a nodePort: range is full"))
		}
		p.NodePort = int32(NodePortMin + n)
		used[p.NodePort] = true
	}
	return nil
}

// rangeOffset is where the dynamic band of a range of size values starts (Kubernetes'
// calculateRangeOffset): size/step, bounded by lo and hi; 0 for a range smaller than lo.
func rangeOffset(size, step, lo, hi int) int {
	if size < lo {
		return 0
	}
	return min(max(size/step, lo), hi)
}

// pickFree scans for a free index: from offset+start to the end of the upper band, then from offset,
// then the lower band.
func pickFree(size, offset, start int, free func(int) bool) (int, bool) {
	upper := size - offset
	for n := range upper {
		if i := offset + (start+n)%upper; free(i) {
			return i, true
		}
	}
	for i := range offset {
		if free(i) {
			return i, true
		}
	}
	return 0, false
}
