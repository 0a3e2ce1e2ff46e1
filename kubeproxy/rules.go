// rules.go: the rules kube-proxy builds for one node, and how iptables-save prints them.
//
//	Build(node, clusterCIDR, services, slices) *Rules
//	(*Rules).Lookup(ip, port, protocol)   the Service port a connection to ip:port hits
//	(*Rules).IptablesSave()               the filter and nat tables as `iptables-save` prints them
//
// Rules is plain data, rebuilt whole from the informers' caches at each sync, so that the tracer and
// the printer read the same thing.
package kubeproxy

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"sort"
	"strings"

	"kubesim/api"
)

// Rules are one node's Service rules.
type Rules struct {
	Node        string
	ClusterCIDR string // traffic from outside it to a cluster IP is masqueraded
	Ports       []ServicePortRules
}

// ServicePortRules are the rules of one port of one Service.
type ServicePortRules struct {
	Name      string // "default/web:http" (kube-proxy's ServicePortName; no ":port" for an unnamed port)
	Namespace string
	Service   string
	PortName  string
	Protocol  api.Protocol
	ClusterIP string
	Port      int32
	NodePort  int32  // 0: not a NodePort Service
	Chain     string // KUBE-SVC-<hash>
	ExtChain  string // KUBE-EXT-<hash>, for node ports
	// Endpoints are the endpoints used, in the order of the KUBE-SVC rules; none: REJECT.
	Endpoints []EndpointRule
	// Terminating says the endpoints are serving but terminating ones, used for lack of ready ones.
	Terminating bool
	// StickySeconds is the ClientIP session affinity's timeout; 0 without affinity. With it, each
	// endpoint's KUBE-SEP chain records the client's address (-m recent --set), and KUBE-SVC first
	// sends a client seen within that many seconds back to the same endpoint (--rcheck).
	StickySeconds int32
}

// EndpointRule is one endpoint's KUBE-SEP chain.
type EndpointRule struct {
	Chain string // KUBE-SEP-<hash>
	IP    string
	Port  int32
	Pod   string // "namespace/name" of the targetRef, "" when the endpoint names no pod
	// Probability is the --probability of its KUBE-SVC rule; "" for the last one, which always matches.
	Probability string
}

// Address is the endpoint as kube-proxy prints it, "10.244.1.3:8080".
func (e EndpointRule) Address() string { return fmt.Sprintf("%s:%d", e.IP, e.Port) }

// Build computes a node's rules from every Service and EndpointSlice. The rules are the same on every
// node (without traffic policies, nothing depends on where the endpoints run); node only names them.
func Build(node, clusterCIDR string, services []*api.Service, slices []*api.EndpointSlice) *Rules {
	bySvc := map[string][]*api.EndpointSlice{}
	for _, s := range slices {
		if svc := s.Labels[api.LabelServiceName]; svc != "" {
			bySvc[s.Namespace+"/"+svc] = append(bySvc[s.Namespace+"/"+svc], s)
		}
	}
	r := &Rules{Node: node, ClusterCIDR: clusterCIDR}
	for _, svc := range services {
		if !api.IsServiceIPSet(svc) || svc.Spec.Type == api.ServiceTypeExternalName {
			continue
		}
		for _, sp := range svc.Spec.Ports {
			r.Ports = append(r.Ports, buildPort(svc, sp, bySvc[svc.Namespace+"/"+svc.Name]))
		}
	}
	sort.Slice(r.Ports, func(i, j int) bool { return r.Ports[i].Name < r.Ports[j].Name })
	return r
}

func buildPort(svc *api.Service, sp api.ServicePort, slices []*api.EndpointSlice) ServicePortRules {
	proto := sp.Protocol
	if proto == "" {
		proto = api.ProtocolTCP
	}
	name := svc.Namespace + "/" + svc.Name
	if sp.Name != "" {
		name += ":" + sp.Name
	}
	lower := strings.ToLower(string(proto))
	p := ServicePortRules{Name: name, Namespace: svc.Namespace, Service: svc.Name, PortName: sp.Name, Protocol: proto,
		ClusterIP: svc.Spec.ClusterIP, Port: sp.Port, NodePort: sp.NodePort,
		Chain: "KUBE-SVC-" + portProtoHash(name, lower), ExtChain: "KUBE-EXT-" + portProtoHash(name, lower)}
	if cfg := svc.Spec.SessionAffinityConfig; svc.Spec.SessionAffinity == api.ServiceAffinityClientIP && cfg != nil &&
		cfg.ClientIP != nil && cfg.ClientIP.TimeoutSeconds != nil {
		p.StickySeconds = *cfg.ClientIP.TimeoutSeconds
	}
	ready, terminating := endpointsFor(sp.Name, proto, slices)
	eps := ready
	if len(eps) == 0 {
		eps, p.Terminating = terminating, len(terminating) > 0
	}
	for i, e := range eps {
		e.Chain = "KUBE-SEP-" + portProtoHash(name, lower+e.Address())
		if i < len(eps)-1 {
			e.Probability = fmt.Sprintf("%0.10f", 1.0/float64(len(eps)-i))
		}
		p.Endpoints = append(p.Endpoints, e)
	}
	return p
}

// endpointsFor collects the endpoints of a Service port from its slices: the ready ones, and the
// serving-but-terminating ones, each sorted by address.
func endpointsFor(portName string, proto api.Protocol, slices []*api.EndpointSlice) (ready, terminating []EndpointRule) {
	seen := map[string]bool{}
	for _, s := range slices {
		var port *int32
		for _, p := range s.Ports {
			if p.Name != nil && *p.Name == portName && p.Port != nil && (p.Protocol == nil || *p.Protocol == proto) {
				port = p.Port
			}
		}
		if port == nil {
			continue // the pods of this slice do not serve this port
		}
		for _, ep := range s.Endpoints {
			c := ep.Conditions
			isReady := c.Ready == nil || *c.Ready
			fallback := !isReady && c.Serving != nil && *c.Serving && c.Terminating != nil && *c.Terminating
			for _, ip := range ep.Addresses {
				e := EndpointRule{IP: ip, Port: *port}
				if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" {
					e.Pod = ep.TargetRef.Namespace + "/" + ep.TargetRef.Name
				}
				switch {
				case seen[e.Address()]:
				case isReady:
					ready = append(ready, e)
				case fallback:
					terminating = append(terminating, e)
				}
				seen[e.Address()] = true
			}
		}
	}
	byAddr := func(es []EndpointRule) {
		sort.Slice(es, func(i, j int) bool { return es[i].Address() < es[j].Address() })
	}
	byAddr(ready)
	byAddr(terminating)
	return ready, terminating
}

// portProtoHash names chains as kube-proxy does: base32 of sha256, first 16 characters.
func portProtoHash(servicePortName, protocol string) string {
	sum := sha256.Sum256([]byte(servicePortName + protocol))
	return base32.StdEncoding.EncodeToString(sum[:])[:16]
}

// Lookup finds the Service port whose cluster IP and port a connection targets.
func (r *Rules) Lookup(ip string, port int32, proto api.Protocol) (*ServicePortRules, bool) {
	for i := range r.Ports {
		p := &r.Ports[i]
		if p.ClusterIP == ip && p.Port == port && p.Protocol == proto {
			return p, true
		}
	}
	return nil, false
}

// LookupNodePort finds the Service port a node port belongs to.
func (r *Rules) LookupNodePort(nodePort int32, proto api.Protocol) (*ServicePortRules, bool) {
	for i := range r.Ports {
		p := &r.Ports[i]
		if p.NodePort == nodePort && p.Protocol == proto {
			return p, true
		}
	}
	return nil, false
}

// IptablesSave prints the rules as `iptables-save` shows kube-proxy's part of them on the node.
func (r *Rules) IptablesSave() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# kube-proxy rules on %s (iptables mode), as iptables-save prints them\n", r.Node)
	b.WriteString("*filter\n:KUBE-SERVICES - [0:0]\n")
	for _, p := range r.Ports {
		if len(p.Endpoints) == 0 {
			proto := strings.ToLower(string(p.Protocol))
			fmt.Fprintf(&b, "-A KUBE-SERVICES -d %s/32 -p %s -m comment --comment \"%s has no endpoints\" -m %s --dport %d -j REJECT --reject-with icmp-port-unreachable\n",
				p.ClusterIP, proto, p.Name, proto, p.Port)
		}
	}
	b.WriteString("COMMIT\n*nat\n")
	chains := []string{"KUBE-MARK-MASQ", "KUBE-NODEPORTS", "KUBE-POSTROUTING", "KUBE-SERVICES"}
	for _, p := range r.Ports {
		if len(p.Endpoints) == 0 {
			continue
		}
		chains = append(chains, p.Chain)
		if p.NodePort != 0 {
			chains = append(chains, p.ExtChain)
		}
		for _, e := range p.Endpoints {
			chains = append(chains, e.Chain)
		}
	}
	sort.Strings(chains[4:])
	for _, c := range chains {
		fmt.Fprintf(&b, ":%s - [0:0]\n", c)
	}
	b.WriteString("-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000\n")
	b.WriteString("-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN\n")
	b.WriteString("-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0\n")
	b.WriteString("-A KUBE-POSTROUTING -m comment --comment \"kubernetes service traffic requiring SNAT\" -j MASQUERADE --random-fully\n")
	for _, p := range r.Ports {
		if len(p.Endpoints) == 0 {
			continue
		}
		proto := strings.ToLower(string(p.Protocol))
		fmt.Fprintf(&b, "-A KUBE-SERVICES -d %s/32 -p %s -m comment --comment \"%s cluster IP\" -m %s --dport %d -j %s\n",
			p.ClusterIP, proto, p.Name, proto, p.Port, p.Chain)
	}
	b.WriteString("-A KUBE-SERVICES -m comment --comment \"kubernetes service nodeports; NOTE: this must be the last rule in this chain\" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS\n")
	for _, p := range r.Ports {
		if len(p.Endpoints) == 0 || p.NodePort == 0 {
			continue
		}
		proto := strings.ToLower(string(p.Protocol))
		fmt.Fprintf(&b, "-A KUBE-NODEPORTS -p %s -m comment --comment %s -m %s --dport %d -j %s\n", proto, p.Name, proto, p.NodePort, p.ExtChain)
		fmt.Fprintf(&b, "-A %s -m comment --comment \"masquerade traffic for %s external destinations\" -j KUBE-MARK-MASQ\n", p.ExtChain, p.Name)
		fmt.Fprintf(&b, "-A %s -j %s\n", p.ExtChain, p.Chain)
	}
	for _, p := range r.Ports {
		proto := strings.ToLower(string(p.Protocol))
		if len(p.Endpoints) > 0 && r.ClusterCIDR != "" {
			fmt.Fprintf(&b, "-A %s ! -s %s -d %s/32 -p %s -m comment --comment \"%s cluster IP\" -m %s --dport %d -j KUBE-MARK-MASQ\n",
				p.Chain, r.ClusterCIDR, p.ClusterIP, proto, p.Name, proto, p.Port)
		}
		for _, e := range p.Endpoints {
			if p.StickySeconds > 0 {
				fmt.Fprintf(&b, "-A %s -m comment --comment \"%s -> %s\" -m recent --rcheck --seconds %d --reap --name %s --mask 255.255.255.255 --rsource -j %s\n",
					p.Chain, p.Name, e.Address(), p.StickySeconds, e.Chain, e.Chain)
			}
		}
		for _, e := range p.Endpoints {
			fmt.Fprintf(&b, "-A %s -m comment --comment \"%s -> %s\"", p.Chain, p.Name, e.Address())
			if e.Probability != "" {
				fmt.Fprintf(&b, " -m statistic --mode random --probability %s", e.Probability)
			}
			fmt.Fprintf(&b, " -j %s\n", e.Chain)
		}
		for _, e := range p.Endpoints {
			fmt.Fprintf(&b, "-A %s -s %s/32 -m comment --comment %s -j KUBE-MARK-MASQ\n", e.Chain, e.IP, p.Name)
			recent := ""
			if p.StickySeconds > 0 {
				recent = fmt.Sprintf(" -m recent --set --name %s --mask 255.255.255.255 --rsource", e.Chain)
			}
			fmt.Fprintf(&b, "-A %s -p %s -m comment --comment %s%s -m %s -j DNAT --to-destination %s\n", e.Chain, proto, p.Name, recent, proto, e.Address())
		}
	}
	b.WriteString("COMMIT\n")
	return b.String()
}
