// nodes.go: worker nodes. A node is a kubelet and the container runtime it drives; it joins the
// cluster the way a real one does (kubeadm join, in miniature): the kubelet registers its Node, renews
// its Lease in kube-node-lease every 10 s, and from then on runs whatever pods the scheduler binds to
// it.
package sim

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"time"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/controllers/nodeipam"
	"kubesim/kubelet"
	"kubesim/kubeproxy"
	fakeruntime "kubesim/runtime"
)

// NodeSpec is the shape of one node.
type NodeSpec struct {
	Name   string            // "node-1"
	CPU    string            // capacity, "4"
	Memory string            // capacity, "8Gi"
	Disk   string            // the node's filesystem, its ephemeral-storage capacity; "": 100Gi, unreported
	Pods   int               // --max-pods, 110 by default
	Labels map[string]string // extra labels (disktype=ssd, ...)
	Taints []api.Taint       // registered with the node (--register-with-taints)
	Zone   string            // topology.kubernetes.io/zone
	Arch   string            // amd64 (default) or arm64
	// ControlPlane makes it a kubeadm control-plane node (controlplane_node.go): its role label, the
	// control-plane NoSchedule taint, and the control plane's static pods.
	ControlPlane bool
}

// DefaultNodes are n identical nodes, node-1..node-n: 4 CPUs, 8Gi of memory, 110 pods each, spread
// over three zones (zone-a, zone-b, zone-c) as a small real cluster would be.
func DefaultNodes(n int) []NodeSpec {
	zones := []string{"zone-a", "zone-b", "zone-c"}
	specs := make([]NodeSpec, n)
	for i := range specs {
		specs[i] = NodeSpec{Name: fmt.Sprintf("node-%d", i+1), CPU: "4", Memory: "8Gi", Pods: 110, Zone: zones[i%len(zones)]}
	}
	return specs
}

// Node is a running node.
type Node struct {
	Name    string
	Kubelet *kubelet.Kubelet
	Runtime *fakeruntime.Runtime
	Proxy   *kubeproxy.Proxy
}

// WideClusterCIDR is the pod network of a cluster of more than 256 nodes, chosen by size as large
// clusters configure it: 10.128.0.0/9 in /24 ranges holds 32768 nodes, and stays clear of the nodes'
// own addresses (10.0.0.0/16) and of the service CIDR (10.96.0.0/12), which 10.0.0.0/8 would not.
const WideClusterCIDR = "10.128.0.0/9"

// clusterCIDR is the pod network, as kube-controller-manager and kube-proxy are told it: the
// configured one, else the default /16 (256 nodes) or, for more nodes, WideClusterCIDR.
func (c *Cluster) clusterCIDR() string {
	switch {
	case c.Config.ClusterCIDR != "":
		return c.Config.ClusterCIDR
	case max(c.Config.Nodes, len(c.Config.NodeSpecs)) > 256:
		return WideClusterCIDR
	}
	return nodeipam.DefaultClusterCIDR
}

// nodeCIDRMaskSize is the size of each node's podCIDR: the configured one, else /24.
func (c *Cluster) nodeCIDRMaskSize() int {
	if c.Config.NodeCIDRMaskSize != 0 {
		return c.Config.NodeCIDRMaskSize
	}
	return nodeipam.DefaultNodeCIDRMaskSize
}

// nodeUser is a kubelet's identity, which the Node authorizer keys on.
func nodeUser(name string) string { return "system:node:" + name }

// StartNode builds the node's runtime and kubelet and adds the kubelet to the cluster. index (from 1)
// chooses its address in 10.0.0.0/16. Its pod network, spec.podCIDR, comes from the node IPAM
// controller once the Node is registered; a cluster without a controller manager gives the kubelet
// the index-th range itself (--pod-cidr, as a standalone kubelet has it).
func (c *Cluster) StartNode(ctx context.Context, spec NodeSpec, index int) (*Node, error) {
	if spec.Name == "" {
		return nil, fmt.Errorf("a node needs a name")
	}
	capacity := resource.ResourceList{resource.ResourcePods: resource.NewQuantity(int64(max(spec.Pods, 1)), resource.DecimalSI)}
	for name, v := range map[resource.ResourceName]string{resource.ResourceCPU: spec.CPU, resource.ResourceMemory: spec.Memory,
		resource.ResourceEphemeralStorage: spec.Disk} {
		if v == "" {
			continue
		}
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("node %s: %s %q: %w", spec.Name, name, v, err)
		}
		capacity[name] = q
	}
	podCIDR := ""
	if !c.Config.ControllerManager {
		podCIDR = nodeipam.SubnetAt(netip.MustParsePrefix(c.clusterCIDR()), c.nodeCIDRMaskSize(), index-1).String()
	}
	criClock := kubelet.NewCRIClock(c.Clock)
	disk := capacity[resource.ResourceEphemeralStorage]
	ip := fmt.Sprintf("10.0.%d.%d", index>>8, index&0xff)
	labels, taints, static, preloaded := spec.Labels, spec.Taints, []*api.Pod(nil), []string(nil)
	if spec.ControlPlane {
		// The apiserver advertises its node's address: the endpoint of Service "kubernetes".
		ip = apiserver.AdvertiseAddress
		labels, taints = controlPlaneRole(labels, taints)
		static = c.controlPlaneManifests(spec.Name, ip)
		for _, p := range static {
			preloaded = append(preloaded, p.Spec.Containers[0].Image)
		}
	}
	rt, err := fakeruntime.New(fakeruntime.Options{Clock: criClock, NodeName: spec.Name, PodCIDR: podCIDR, Arch: spec.Arch,
		ImageFsCapacityBytes: uint64(disk.Value()), Trace: c.Trace, Preloaded: preloaded, ServerLog: func(server string, until time.Time) []fakeruntime.LogLine {
			return c.componentLog(spec.Name, server, until)
		}})
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", spec.Name, err)
	}
	// The kubelet's client certificate, and its serving one (pki.go).
	c.issueKubeletCredential(spec.Name)
	cl := c.Client(nodeUser(spec.Name), "kubelet/"+spec.Name, apiserver.GroupNodes)
	k := kubelet.New(kubelet.Options{
		NodeName: spec.Name, Client: cl, Clock: c.Clock, Trace: c.Trace,
		Recorder: client.NewEventRecorder(cl, "kubelet", spec.Name, c.Clock, c.Trace),
		Runtime:  breakingRuntime{rt, c, spec.Name}, RuntimeClock: criClock,
		Config: kubelet.NodeConfig{Capacity: capacity, Labels: labels, Arch: spec.Arch, Zone: spec.Zone,
			Taints: taints, PodCIDR: podCIDR, InternalIP: ip, StaticPods: static,
			CrashLoopBackOff: c.Config.CrashLoopBackOff, ProbeThreshold: c.Config.ProbeThreshold},
		// The pod workers' jitter: from the cluster's seed, different on each node.
		Seed: c.Config.Seed*10007 + int64(index),
	})
	if err := c.Add(ctx, k); err != nil {
		return nil, err
	}
	// kube-proxy: the node's Service rules, under kube-proxy's own ServiceAccount.
	proxy := kubeproxy.New(kubeproxy.Options{NodeName: spec.Name, Clock: c.Clock, Trace: c.Trace, ClusterCIDR: c.clusterCIDR(),
		Client: c.Client(kubeproxy.Identity, "kube-proxy/"+spec.Name, kubeproxy.Groups...)})
	if err := c.Add(ctx, proxy); err != nil {
		return nil, err
	}
	n := &Node{Name: spec.Name, Kubelet: k, Runtime: rt, Proxy: proxy}
	c.nodes[spec.Name] = n
	c.nodeOrder = append(c.nodeOrder, spec.Name)
	return n, nil
}

// Node returns a running node by name.
func (c *Cluster) Node(name string) (*Node, bool) {
	n, ok := c.nodes[name]
	return n, ok
}

// NodeNames lists the running nodes, in the order they joined.
func (c *Cluster) NodeNames() []string {
	return append([]string(nil), c.nodeOrder...)
}

// NodesReady reports whether exactly n nodes have registered and every one reports Ready, without the
// not-ready taint the node lifecycle controller put on it while it waited for its podCIDR: the end
// of the boot sequence.
func (c *Cluster) NodesReady(ctx context.Context, n int) (bool, error) {
	nodes, err := List[api.Node](ctx, c, "", "", "")
	if err != nil || len(nodes) != n {
		return false, err
	}
	for _, node := range nodes {
		ready := false
		for _, cond := range node.Status.Conditions {
			if cond.Type == api.NodeReady {
				ready = cond.Status == api.ConditionTrue
			}
		}
		if !ready || slices.ContainsFunc(node.Spec.Taints, func(t api.Taint) bool { return t.Key == api.TaintNodeNotReady }) {
			return false, nil
		}
	}
	return true, nil
}

// nodesHavePodCIDRs reports whether every registered Node has its spec.podCIDR (the node IPAM
// controller's work, or the kubelet's own --pod-cidr without a controller manager).
func (c *Cluster) nodesHavePodCIDRs(ctx context.Context) (bool, error) {
	nodes, _, err := client.For[api.Node](c.Kubectl.Client().Quiet()).List(ctx, "", client.ListOptions{})
	if err != nil {
		return false, err
	}
	for _, n := range nodes {
		if n.Spec.PodCIDR == "" {
			return false, nil
		}
	}
	return true, nil
}
