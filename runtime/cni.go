// cni.go: the CNI step of a sandbox, and the CRI call that tells the runtime its node's podCIDR.
//
//	UpdateRuntimeConfig(ctx, cfg)   the kubelet passes spec.podCIDR once the node IPAM controller set it
//	(*Runtime).cniAddLocked         CNI ADD: give the sandbox's eth0 an IP from the podCIDR
//	(*Runtime).cniDelLocked         CNI DEL: release the IP
//
// containerd runs the CNI plugins named in /etc/cni/net.d for every sandbox: ADD after it creates the
// sandbox's network namespace, DEL when it tears it down. With Flannel the chain is flannel -> bridge
// -> host-local IPAM, and host-local allocates inside the node's podCIDR (network.go). Until the node
// has a podCIDR there is no network config, the runtime reports NetworkReady=false, and every sandbox
// fails: the kubelet holds pods back with "network is not ready" until then.
//
// kubesim simplification: no veth pair, bridge or routes are built; the line in the trace says what
// would be.

package fakeruntime

import (
	"context"
	"net/netip"
)

// RuntimeConfig is the CRI UpdateRuntimeConfig request: today only the pod network's range.
type RuntimeConfig struct {
	NetworkConfig *NetworkConfig
}

// NetworkConfig carries the node's podCIDR (CRI spells it PodCidr).
type NetworkConfig struct {
	PodCidr string
}

// cniNotInitialized is containerd's NetworkReady=false message while it has no network config.
const cniNotInitialized = "Network plugin returns error: cni plugin not initialized"

// UpdateRuntimeConfig gives the runtime its podCIDR. The first call sets up the pod network; later
// calls with the same range do nothing (a podCIDR never changes).
func (r *Runtime) UpdateRuntimeConfig(ctx context.Context, cfg *RuntimeConfig) error {
	if err := r.enter(ctx); err != nil {
		return err
	}
	if cfg == nil || cfg.NetworkConfig == nil || cfg.NetworkConfig.PodCidr == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ipam != nil {
		return nil
	}
	pool, err := newIPAM(cfg.NetworkConfig.PodCidr)
	if err != nil {
		return errorf(InvalidArgument, "%v", err)
	}
	r.ipam = pool
	r.record("cni-config", "nodes/"+r.opts.NodeName, "pod network configured: podCIDR %s, bridge cni0 at %s, pod IPs %s-%s (host-local IPAM)",
		pool.prefix, pool.gateway(), pool.first, pool.last)
	return nil
}

// networkConditionLocked is the NetworkReady condition.
func (r *Runtime) networkConditionLocked() RuntimeCondition {
	if r.ipam == nil {
		return RuntimeCondition{Type: NetworkReady, Status: false, Reason: "NetworkPluginNotReady", Message: cniNotInitialized}
	}
	return RuntimeCondition{Type: NetworkReady, Status: true}
}

// cniAddLocked is CNI ADD for a new sandbox: its IP from the podCIDR, or containerd's error (which the
// kubelet reports as FailedCreatePodSandBox).
func (r *Runtime) cniAddLocked(id string, config *PodSandboxConfig) (netip.Addr, error) {
	if r.ipam == nil {
		return netip.Addr{}, errorf(Unknown, "failed to setup network for sandbox %q: %s", id, cniNotInitialized)
	}
	ip, err := r.ipam.allocate()
	if err != nil {
		return netip.Addr{}, errorf(Unknown, "failed to setup network for sandbox %q: plugin type=\"bridge\" failed (add): %v", id, err)
	}
	r.record("cni-add", "pods/"+config.Metadata.Namespace+"/"+config.Metadata.Name,
		"CNI ADD for sandbox %s: eth0 gets %s/%d from podCIDR %s, default route via %s (cni0)",
		shortID(id), ip, r.ipam.prefix.Bits(), r.ipam.prefix, r.ipam.gateway())
	return ip, nil
}

// cniDelLocked is CNI DEL for a sandbox being removed: its IP goes back to the pool.
func (r *Runtime) cniDelLocked(s *sandbox) {
	r.ipam.release(s.ip)
	r.record("cni-del", s.object(), "CNI DEL for sandbox %s: released %s", shortID(s.id), s.ip)
}
