// resolvconf.go: the resolver configuration of a pod (the kubelet's dnsConfigurer).
//
//	ResolvConfFor(pod) ResolvConf   nameservers, search path and options, by dnsPolicy
//	(ResolvConf).String()           the file as `cat /etc/resolv.conf` shows it in the pod
package dns

import (
	"fmt"
	"strings"

	"kubesim/api"
)

// Cluster DNS settings, as kubeadm configures the kubelet (--cluster-dns, --cluster-domain).
const (
	ClusterDomain = "cluster.local"
	ClusterDNSIP  = "10.96.0.10" // the kube-dns Service's cluster IP
	Ndots         = 5
	// NodeNameserver stands for the node's own resolver (its /etc/resolv.conf).
	NodeNameserver = "192.168.49.1"
)

// ResolvConf is a pod's /etc/resolv.conf, with why it is what it is.
type ResolvConf struct {
	Policy      api.DNSPolicy // the policy in effect
	Nameservers []string
	Searches    []string
	Ndots       int
	// Note explains a policy that did not do what it says (hostNetwork with ClusterFirst).
	Note string
}

// ResolvConfFor is what the kubelet writes for pod.
func ResolvConfFor(pod *api.Pod) ResolvConf {
	policy := pod.Spec.DNSPolicy
	if policy == "" {
		policy = api.DNSClusterFirst
	}
	var note string
	if policy == api.DNSClusterFirst && pod.Spec.HostNetwork {
		note = "dnsPolicy ClusterFirst on a hostNetwork pod falls back to Default (the node's resolver): set ClusterFirstWithHostNet to use the cluster DNS"
		policy = api.DNSDefault
	}
	switch policy {
	case api.DNSClusterFirst, api.DNSClusterFirstWithHostNet:
		ns := pod.Namespace
		return ResolvConf{Policy: policy, Nameservers: []string{ClusterDNSIP}, Ndots: Ndots, Note: note,
			Searches: []string{ns + ".svc." + ClusterDomain, "svc." + ClusterDomain, ClusterDomain}}
	case api.DNSNone:
		return ResolvConf{Policy: policy, Ndots: 1, Note: "dnsPolicy None: only spec.dnsConfig (not simulated) configures the resolver"}
	}
	return ResolvConf{Policy: api.DNSDefault, Nameservers: []string{NodeNameserver}, Ndots: 1, Note: note}
}

// ClusterDNS reports whether the pod asks the cluster DNS.
func (r ResolvConf) ClusterDNS() bool {
	return len(r.Nameservers) > 0 && r.Nameservers[0] == ClusterDNSIP
}

// String is the file.
func (r ResolvConf) String() string {
	var b strings.Builder
	if len(r.Searches) > 0 {
		fmt.Fprintf(&b, "search %s\n", strings.Join(r.Searches, " "))
	}
	for _, ns := range r.Nameservers {
		fmt.Fprintf(&b, "nameserver %s\n", ns)
	}
	fmt.Fprintf(&b, "options ndots:%d\n", r.Ndots)
	return b.String()
}

// Candidates are the names the resolver tries for name, in order: with fewer than ndots dots, the
// search path first, then the name itself; otherwise the name first. A trailing dot means only the
// name itself.
func (r ResolvConf) Candidates(name string) []string {
	if strings.HasSuffix(name, ".") {
		return []string{strings.TrimSuffix(name, ".")}
	}
	var searched []string
	for _, s := range r.Searches {
		searched = append(searched, name+"."+s)
	}
	if strings.Count(name, ".") >= r.Ndots {
		return append([]string{name}, searched...)
	}
	return append(searched, name)
}
