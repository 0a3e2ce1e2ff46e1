// network.go: the kubelet and the pod network (pkg/kubelet/kubelet_network.go).
//
//	updatePodCIDR(ctx)        pass the Node's spec.podCIDR to the runtime (CRI UpdateRuntimeConfig)
//	networkReady(ctx, pod)    nil once the runtime's CNI can give the pod an IP
//
// The node IPAM controller sets the Node's podCIDR after the kubelet registers it; the kubelet sees it
// in its Node informer and hands it to the runtime, whose CNI plugin (host-local IPAM) allocates pod
// IPs inside it. Until then the runtime reports NetworkReady=false and the kubelet creates no sandbox
// for a pod that needs the pod network: it records the event NetworkNotReady and retries.
//
// kubesim simplification: a real node is also NotReady while its network is not ready ("container
// runtime network not ready"); kubesim keeps the node Ready and holds back only the sandboxes, so a
// cluster's boot does not wait a status period for the controller manager.
package kubelet

import (
	"context"
	"fmt"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

// networkNotReadyErrorMsg prefixes the error and event while the pod network is not ready.
const networkNotReadyErrorMsg = "network is not ready"

// updatePodCIDR gives the runtime the Node's podCIDR, if the Node has one. The runtime ignores a
// range it already has, so calling it again is cheap.
func (k *Kubelet) updatePodCIDR(ctx context.Context) error {
	node, ok := k.nodes.Get(k.nodeName)
	if !ok || node.Spec.PodCIDR == "" {
		return nil
	}
	if err := k.runtime.UpdateRuntimeConfig(ctx, &fakeruntime.RuntimeConfig{
		NetworkConfig: &fakeruntime.NetworkConfig{PodCidr: node.Spec.PodCIDR}}); err != nil {
		return fmt.Errorf("failed to update pod CIDR: %w", err)
	}
	return nil
}

// networkReady reports why the pod cannot get a sandbox yet, or nil. Pods on the host's network need
// no pod network (kubesim simplification: the runtime still gives them an IP from the podCIDR).
func (k *Kubelet) networkReady(ctx context.Context, pod *api.Pod) error {
	if err := k.updatePodCIDR(ctx); err != nil || pod.Spec.HostNetwork {
		return err
	}
	status, err := k.runtime.Status(ctx)
	if err != nil {
		return err
	}
	for _, c := range status.Conditions {
		if c.Type == fakeruntime.NetworkReady && !c.Status {
			return fmt.Errorf("container runtime network not ready: NetworkReady=false reason:%s message:%s", c.Reason, c.Message)
		}
	}
	return nil
}
