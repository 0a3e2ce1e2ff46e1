package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/kubelet"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

// A control-plane node runs the control plane as static pods: kube-system lists their mirror pods,
// Running on the node with its IP; the node's taint keeps workloads off it; a deleted mirror pod comes
// back; and the apiserver's pod's log is the apiserver's lines.
func TestControlPlaneNodeRunsTheControlPlaneAsStaticPods(t *testing.T) {
	ctx := context.Background()
	cfg := sim.FullCluster(0)
	cfg.Mode, cfg.Seed, cfg.JournalLines = sim.StepMode, 1, 200
	cfg.NodeSpecs = []sim.NodeSpec{sim.ControlPlaneNode(), sim.DefaultNodes(1)[0]}
	c, err := sim.New(ctx, cfg)
	require.NoError(t, err)
	defer c.Close()
	pods := client.For[api.Pod](c.Kubectl.Client())
	components := []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"}
	running := func() (bool, error) {
		list, _, err := pods.List(ctx, api.NamespaceSystem, client.ListOptions{LabelSelector: "tier=control-plane"})
		if err != nil || len(list) != len(components) {
			return false, err
		}
		for _, p := range list {
			if p.Status.Phase != api.PodRunning {
				return false, nil
			}
		}
		return true, nil
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "the control plane's pods are Running", running, 2000))

	node, err := client.For[api.Node](c.Kubectl.Client()).Get(ctx, "", sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Contains(t, node.Labels, api.LabelNodeRoleControlPlane)
	assert.Equal(t, apiserver.AdvertiseAddress, node.Status.Addresses[0].Address, "the address the apiserver advertises, Service kubernetes' endpoint")
	require.Len(t, node.Spec.Taints, 1)
	assert.Equal(t, api.Taint{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}, node.Spec.Taints[0])
	for _, comp := range components {
		p, err := pods.Get(ctx, api.NamespaceSystem, comp+"-"+sim.ControlPlaneNodeName)
		require.NoError(t, err, comp)
		assert.Equal(t, sim.ControlPlaneNodeName, p.Spec.NodeName, comp)
		assert.Equal(t, p.Annotations[kubelet.ConfigHashAnnotation], p.Annotations[kubelet.ConfigMirrorAnnotation], comp)
		assert.Equal(t, "file", p.Annotations[kubelet.ConfigSourceAnnotation], comp)
		require.Len(t, p.OwnerReferences, 1, comp)
		assert.Equal(t, api.OwnerReference{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: api.Ptr(true)}, p.OwnerReferences[0], comp)
		assert.Equal(t, api.Ptr(int32(2000001000)), p.Spec.Priority, comp)
		assert.Equal(t, node.Status.Addresses[0].Address, p.Status.PodIP, comp+": hostNetwork")
		assert.Empty(t, p.Spec.ServiceAccountName, comp+": a mirror pod gets no service account")
		require.NotNil(t, p.Spec.Containers[0].LivenessProbe, comp)
		assert.Equal(t, api.FromString("probe-port"), p.Spec.Containers[0].LivenessProbe.HTTPGet.Port, comp)
		require.Len(t, p.Status.ContainerStatuses, 1, comp)
	}
	// kubeadm's probes, as describe shows them; and they pass: the pods become Ready.
	described, err := c.Kubectl.Describe(ctx, "pod", api.NamespaceSystem, "kube-apiserver-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^    Liveness: +http-get https://192\.168\.49\.2:probe-port/livez delay=10s timeout=15s period=10s #success=1 #failure=8$`, described)
	assert.Regexp(t, `(?m)^    Readiness: +http-get https://192\.168\.49\.2:probe-port/readyz delay=0s timeout=15s period=1s #success=1 #failure=3$`, described)
	assert.Regexp(t, `(?m)^    Startup: +http-get https://192\.168\.49\.2:probe-port/livez delay=10s timeout=15s period=10s #success=1 #failure=24$`, described)
	assert.Regexp(t, `(?m)^    Port: +6443/TCP \(probe-port\)$`, described)
	described, err = c.Kubectl.Describe(ctx, "pod", api.NamespaceSystem, "etcd-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^    Liveness: +http-get http://127\.0\.0\.1:probe-port/livez `, described)
	ready := func() (bool, error) {
		list, _, err := pods.List(ctx, api.NamespaceSystem, client.ListOptions{LabelSelector: "tier=control-plane"})
		for _, p := range list {
			if s := p.Status.ContainerStatuses; len(s) != 1 || !s[0].Ready {
				return false, err
			}
		}
		return len(list) == len(components), err
	}
	require.NoError(t, c.Driver.RunUntil(ctx, "the control plane's pods are Ready", ready, 5000))

	// kubeadm's add-ons: CoreDNS behind the kube-dns Service, kube-proxy on every node (New waits for
	// them), each pod's log its component's.
	dnsPods, _, err := pods.List(ctx, api.NamespaceSystem, client.ListOptions{LabelSelector: "k8s-app=kube-dns"})
	require.NoError(t, err)
	require.Len(t, dnsPods, 2)
	slices, _, err := client.For[api.EndpointSlice](c.Kubectl.Client()).List(ctx, api.NamespaceSystem, client.ListOptions{LabelSelector: "kubernetes.io/service-name=kube-dns"})
	require.NoError(t, err)
	require.Len(t, slices, 1)
	var ips []string
	for _, ep := range slices[0].Endpoints {
		ips = append(ips, ep.Addresses...)
	}
	assert.ElementsMatch(t, []string{dnsPods[0].Status.PodIP, dnsPods[1].Status.PodIP}, ips, "kube-dns serves from the coredns pods")
	proxies, _, err := pods.List(ctx, api.NamespaceSystem, client.ListOptions{LabelSelector: "k8s-app=kube-proxy"})
	require.NoError(t, err)
	require.Len(t, proxies, 2)
	var proxyOn1 string
	for _, p := range proxies {
		assert.Equal(t, api.PodRunning, p.Status.Phase, p.Name)
		if p.Spec.NodeName == "node-1" {
			proxyOn1 = p.Name
		}
	}
	require.NotEmpty(t, proxyOn1, "a kube-proxy pod on node-1")

	// Workloads land on the worker only.
	_, err = c.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment))
	require.NoError(t, err)
	require.NoError(t, c.Driver.RunUntil(ctx, "nginx is scheduled", func() (bool, error) {
		list, _, err := pods.List(ctx, "default", client.ListOptions{LabelSelector: "app=nginx"})
		if err != nil || len(list) != 3 {
			return false, err
		}
		for _, p := range list {
			if p.Spec.NodeName == "" {
				return false, nil
			}
			assert.Equal(t, "node-1", p.Spec.NodeName, p.Name)
		}
		return true, nil
	}, 2000))

	// A deleted mirror pod is made again.
	old, err := pods.Get(ctx, api.NamespaceSystem, "kube-scheduler-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	require.NoError(t, c.Kubectl.Delete(ctx, "pods", api.NamespaceSystem, old.Name, client.DeleteOptions{}))
	require.NoError(t, c.Driver.RunUntil(ctx, "the mirror pod is back", func() (bool, error) {
		p, err := pods.Get(ctx, api.NamespaceSystem, old.Name)
		if err != nil {
			return false, nil
		}
		return p.UID != old.UID && p.Status.Phase == api.PodRunning, nil
	}, 5000))

	// The apiserver's pod logs the apiserver's lines, in klog's format (a refusal as a warning), and
	// its controller manager's the ReplicaSet controller's.
	_, err = c.Kubectl.As("alice").List(ctx, "secrets", "default", "")
	require.Error(t, err)
	var out strings.Builder
	_, err = c.Inspect(ctx, &out, "logs -n kube-system kube-apiserver-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^\[kube-apiserver\] W\d{4} \d\d:\d\d:\d\d\.\d{6}       1 kube-apiserver\] .*secrets is forbidden: User "alice" cannot list resource "secrets"`, out.String())
	out.Reset()
	_, err = c.Inspect(ctx, &out, "logs -n kube-system kube-controller-manager-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)\] I\d{4} [0-9:.]+ +1 replicaset-controller\] reconcile default/nginx-`, out.String())
	out.Reset()
	_, err = c.Inspect(ctx, &out, "logs -n kube-system etcd-"+sim.ControlPlaneNodeName)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^\[etcd\] \{"level":"info","ts":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z","msg":"put /registry/\S+ -> revision \d+"\}$`, out.String())
	out.Reset()
	_, err = c.Inspect(ctx, &out, "logs -n kube-system "+proxyOn1)
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^\[kube-proxy\] I\d{4} [0-9:.]+ +1 kube-proxy\] `, out.String())
	assert.NotContains(t, out.String(), "node-2", "node-1's kube-proxy only")
}
