// hostname.go: the hostname a pod's containers see (GeneratePodHostNameAndDomain in
// pkg/kubelet/kubelet_pods.go).
//
//	(*Kubelet).podHostname(pod)   spec.hostname, else the pod's name, cut to 63 characters
//
// A pod on the host network keeps the node's hostname: the kubelet leaves the sandbox's hostname
// empty and the runtime uses the node's. Kubernetes also derives the pod's domain from
// spec.subdomain (<subdomain>.<namespace>.svc.cluster.local) for /etc/hosts; kubesim writes no
// /etc/hosts, so only the hostname is modelled (`hostname`, $HOSTNAME).
package kubelet

import (
	"strings"

	"kubesim/api"
)

// hostnameMaxLen is the longest hostname Linux takes (64 bytes with the terminating NUL).
const hostnameMaxLen = 63

// podHostname is the hostname of p's sandbox.
func (k *Kubelet) podHostname(p *api.Pod) string {
	if p.Spec.HostNetwork {
		return k.nodeName
	}
	h := p.Name
	if p.Spec.Hostname != "" { // validation made it a DNS label
		h = p.Spec.Hostname
	}
	if len(h) > hostnameMaxLen {
		// A hostname must not end with '-' or '.', so the cut trims them too.
		h = strings.TrimRight(h[:hostnameMaxLen], "-.")
	}
	return h
}
