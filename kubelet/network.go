// network.go: the kubelet and the pod network (pkg/kubelet/kubelet_network.go, and the network half
// of runtimeState and fastStatusUpdateOnce in pkg/kubelet).
//
//	updatePodCIDR(ctx)        pass the Node's spec.podCIDR to the runtime (CRI UpdateRuntimeConfig)
//	networkNotReady(status)   the runtime's NetworkReady=false, as the node's Ready condition words it
//	networkReady(ctx, pod)    nil once the runtime's CNI can give the pod an IP
//	networkNotReadyFailed     a sync stopped for it: NetworkNotReady, retried after 1 s (not 10 s)
//	podIPFor(pod, sandboxIP)  the pod's IP: the sandbox's, or the node's for a hostNetwork pod
//	nextStatusCheck()         10s, or 100ms while a starting kubelet waits for its node to be Ready
//
// The node IPAM controller sets the Node's podCIDR after the kubelet registers it; the kubelet sees it
// in its Node informer and hands it to the runtime, whose CNI plugin (Flannel's bridge and host-local
// IPAM) allocates pod IPs inside it. Until then the runtime reports NetworkReady=false, and so does
// the node: it registers NotReady with "container runtime network not ready: NetworkReady=false
// reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", the
// node lifecycle controller taints it node.kubernetes.io/not-ready, and the kubelet creates no
// sandbox for a pod that needs the pod network (the event NetworkNotReady). Pods on the host's
// network need none, which is how a CNI plugin's own DaemonSet starts on a node that is not Ready.
// The pod worker retries such a sync sooner than other failures: after backOffOnTransientErrorPeriod,
// 1 s plus up to 50% of jitter (on the syncLoop's 1 s tick), where any other error waits
// backOffPeriod, 10 s (pkg/kubelet/pod_workers.go completeWork matches the error's "network is not
// ready"). Each retry records NetworkNotReady again, until the event spam filter holds them back.
//
// A starting kubelet does not wait 10s between status reports for that: until its node is first
// Ready (or for at most 2 minutes) it checks its runtime and status every 100ms, so the node turns
// Ready a moment after the podCIDR arrives.
package kubelet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"kubesim/api"
	fakeruntime "kubesim/runtime"
)

const (
	// networkNotReadyErrorMsg prefixes the error and event while the pod network is not ready.
	networkNotReadyErrorMsg = "network is not ready"
	// backOffOnTransientErrorPeriod is the pod worker's wait before it retries a sync that failed
	// because the pod network was not ready (plus up to 50% of jitter).
	backOffOnTransientErrorPeriod = time.Second
	// fastStatusPeriod is how often a starting kubelet checks its runtime and computes its status
	// until its node is Ready (fastStatusUpdateOnce's wait.Until period).
	fastStatusPeriod = 100 * time.Millisecond
	// nodeReadyGracePeriod is how long it keeps checking that often before it gives up.
	nodeReadyGracePeriod = 120 * time.Second
)

// updatePodCIDR gives the runtime the Node's podCIDR, if the Node has one. The runtime ignores a
// range it already has, so calling it again is cheap.
func (k *Kubelet) updatePodCIDR(ctx context.Context) error {
	node, ok := k.nodes.Get(k.nodeName)
	if !ok || node.Spec.PodCIDR == "" {
		return nil
	}
	// The same request every time (the runtime only reads it): kept, rather than made every 5 s.
	if c := k.podCIDRConfig; c == nil || c.NetworkConfig.PodCidr != node.Spec.PodCIDR {
		k.podCIDRConfig = &fakeruntime.RuntimeConfig{NetworkConfig: &fakeruntime.NetworkConfig{PodCidr: node.Spec.PodCIDR}}
	}
	if err := k.runtime.UpdateRuntimeConfig(ctx, k.podCIDRConfig); err != nil {
		return fmt.Errorf("failed to update pod CIDR: %w", err)
	}
	return nil
}

// networkReady reports why the pod cannot get a sandbox yet, or nil. Pods on the host's network need
// no pod network: their sandbox joins the node's network namespace.
func (k *Kubelet) networkReady(ctx context.Context, pod *api.Pod) error {
	if err := k.updatePodCIDR(ctx); err != nil || pod.Spec.HostNetwork {
		return err
	}
	status, err := k.runtime.Status(ctx)
	if err != nil {
		return err
	}
	if msg := networkNotReady(status); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// networkNotReadyFailed stops a sync that found the pod network not ready (kubelet.go SyncPod): the
// event NetworkNotReady, and the pod worker's retry after backOffOnTransientErrorPeriod.
func (k *Kubelet) networkNotReadyFailed(ctx context.Context, w *podWorker, s *syncResult, err error) {
	err = fmt.Errorf("%s: %w", networkNotReadyErrorMsg, err)
	k.recorder.Event(ctx, w.pod, api.EventTypeWarning, "NetworkNotReady", err.Error())
	retry := max(k.untilSyncTick(k.jitter(backOffOnTransientErrorPeriod, workerBackOffPeriodJitterFactor)), w.busyUntil.Sub(k.clock.Now()))
	s.add("sync of %s failed: %v (retrying in %s)", w.key, err, retry.Round(time.Millisecond))
	s.failed(retry)
}

// networkNotReady is the runtime's NetworkReady condition when it is false (or missing), worded as
// updateRuntimeUp words it for the node's Ready condition, or "" when the pod network is ready.
func networkNotReady(status *fakeruntime.RuntimeStatus) string {
	for _, c := range status.Conditions {
		if c.Type == fakeruntime.NetworkReady {
			if c.Status {
				return ""
			}
			// kubecontainer.RuntimeCondition's String form.
			return fmt.Sprintf("container runtime network not ready: %s=%t reason:%s message:%s", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	return "container runtime network not ready: <nil>"
}

// podIPFor is the pod's IP as the kubelet reports it in status.podIP. A hostNetwork sandbox has no
// address of its own, so the pod's IP is the node's (generateAPIPodStatus: podIPs = hostIPs).
func (k *Kubelet) podIPFor(pod *api.Pod, sandboxIP string) string {
	if pod.Spec.HostNetwork && sandboxIP == "" {
		return k.cfg.InternalIP
	}
	return sandboxIP
}

// nextStatusCheck is the node side's delay until it computes its status again: nodeStatusUpdateFrequency,
// or fastStatusPeriod while the starting kubelet waits for its node's first Ready. That first Ready,
// or the end of nodeReadyGracePeriod, ends the fast checks for good, on both sides.
func (k *Kubelet) nextStatusCheck() time.Duration {
	ready := conditionStatus(k.node.conditions, api.NodeReady) == api.ConditionTrue
	k.mu.Lock()
	defer k.mu.Unlock()
	if ready || k.clock.Since(k.started) >= nodeReadyGracePeriod {
		k.readyExpected = true
	}
	if k.readyExpected {
		return nodeStatusUpdateFrequency
	}
	return fastStatusPeriod
}

// nextRuntimeCheck is the pod side's delay until updateRuntimeUp runs again: runtimeUpPeriod, or
// fastStatusPeriod while the node side checks fast.
func (k *Kubelet) nextRuntimeCheck() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.readyExpected || k.clock.Since(k.started) >= nodeReadyGracePeriod {
		return runtimeUpPeriod
	}
	return fastStatusPeriod
}
