// nodeinfo.go: NodeInfo, the scheduler's summary of one node: the Node object, the pods on it
// (bound or assumed), and the sums precomputed from them, so that checking a pod against a node
// costs a few comparisons instead of a walk over every pod (framework.NodeInfo in Kubernetes).
// Interface: NodeInfo, NewNodeInfo, WithNode, WithPod, WithoutPod, CountPods and CountPodsKey
// (podcounts.go), HostPortInfo; the Node's fields read per node per cycle, copied when it changes: Unschedulable, NoScheduleTaints,
// PreferNoScheduleTaints, TopologyValue, ImageSize.
//
// kubesim makes a NodeInfo immutable: every change (a pod added, a node updated) builds a new one.
// Kubernetes instead mutates NodeInfos inside its cache and, at the start of each cycle, clones the
// ones that changed into a snapshot. The effect is the same: a scheduling cycle sees one consistent
// picture of the cluster while informers keep changing the cache. With immutable NodeInfos the
// snapshot is simply the current list of pointers, and preemption's "what if these pods were gone"
// is just another NodeInfo.
package framework

import (
	"hash/maphash"
	"unique"

	"kubesim/api"
)

// NodeInfo is one node as the scheduler sees it. Never modify one: use the With... methods.
type NodeInfo struct {
	// The first fields are what filters and scores read on every node in every cycle, copied out of
	// the Node object when it changes (WithNode): a cycle at 5,000 nodes visits hundreds of
	// NodeInfos, and reading the large Node object (spec, labels map) for one field of each cost a
	// cache miss per node per plugin. Here they share the NodeInfo's first cache lines.

	// name is node.Name: every filter and score asks for it.
	name string
	// unschedulable is node.spec.unschedulable (cordoned).
	unschedulable bool
	// hasHostname and hasZone say whether the node carries those labels; hostname and zone are
	// their values (PodTopologySpread's default keys, asked per node per pod).
	hasHostname, hasZone bool
	hostname, zone       string
	// noScheduleTaints are node.spec.taints with effect NoSchedule or NoExecute, in the node's
	// order (TaintToleration's Filter); preferNoScheduleTaints those with PreferNoSchedule (its
	// Score). Both nil on a node without taints.
	noScheduleTaints, preferNoScheduleTaints []api.Taint

	node *api.Node

	// Pods are the pods bound or assumed to the node, in the order they arrived.
	Pods []*PodInfo
	// PodsWithAffinity and PodsWithRequiredAntiAffinity are the subsets InterPodAffinity needs, so
	// that it can skip every node where they are empty.
	PodsWithAffinity             []*PodInfo
	PodsWithRequiredAntiAffinity []*PodInfo
	// UsedPorts are the host ports the pods claim.
	UsedPorts HostPortInfo
	// Requested is the sum of the pods' requests; NonZeroRequested the same with the scoring defaults.
	Requested        Resource
	NonZeroRequested Resource
	// Allocatable is node.status.allocatable, converted once.
	Allocatable Resource
	// ImageSizes maps every image name the node reports in status.images to its size in bytes.
	ImageSizes map[string]int64
	// images are ImageSizes again as a short list with each name's hash, for ImageSize: a scan of
	// one slice comparing hashes touches less memory than a map lookup per node per pod. The first
	// ones are held in the NodeInfo itself, beside the count: ImageLocality scores hundreds of nodes
	// per pod, and a list of its own cost a cache miss per node (3% of the full envelope's CPU).
	nImages     int
	firstImages [inlineImages]imageEntry
	moreImages  []imageEntry

	// classes count the pods by class (podcounts.go), sorted by class id, for CountPods.
	classes []classCount
	// classBits has bit classBit(id) set for every class in classes: most nodes have no pod of the
	// class a count asks about, and the answer 0 then costs no read of the list (a cache miss per
	// node, with PodTopologySpread scoring hundreds of nodes per pod).
	classBits classBits
}

// NewNodeInfo returns the NodeInfo of a node with no pods yet. node may be nil: the cache keeps pods
// whose node it has not seen (or no longer sees) in a NodeInfo without a node.
func NewNodeInfo(node *api.Node) *NodeInfo {
	return (&NodeInfo{}).WithNode(node)
}

// Node returns the Node object (shared: never modify it), or nil.
func (n *NodeInfo) Node() *api.Node { return n.node }

// Name is the node's name ("" for a NodeInfo without a node).
func (n *NodeInfo) Name() string { return n.name }

// Unschedulable is the node's spec.unschedulable.
func (n *NodeInfo) Unschedulable() bool { return n.unschedulable }

// NoScheduleTaints are the node's taints with effect NoSchedule or NoExecute, in the node's order.
// The caller must not modify them.
func (n *NodeInfo) NoScheduleTaints() []api.Taint { return n.noScheduleTaints }

// PreferNoScheduleTaints are the node's taints with effect PreferNoSchedule, in the node's order.
// The caller must not modify them.
func (n *NodeInfo) PreferNoScheduleTaints() []api.Taint { return n.preferNoScheduleTaints }

// TopologyValue is the node's label key: node.Labels[key], with the hostname and zone labels read
// from the NodeInfo itself.
func (n *NodeInfo) TopologyValue(key string) (string, bool) {
	switch key {
	case api.LabelHostname:
		return n.hostname, n.hasHostname
	case api.LabelTopologyZone:
		return n.zone, n.hasZone
	}
	if n.node == nil {
		return "", false
	}
	v, ok := n.node.Labels[key]
	return v, ok
}

// clone copies n shallowly; the slices and maps stay shared until a With... method replaces them.
func (n *NodeInfo) clone() *NodeInfo {
	c := *n
	return &c
}

// WithNode returns a copy of n describing node (an updated Node object).
func (n *NodeInfo) WithNode(node *api.Node) *NodeInfo {
	c := n.clone()
	c.node, c.name = node, ""
	c.unschedulable, c.hasHostname, c.hasZone, c.hostname, c.zone = false, false, false, "", ""
	c.noScheduleTaints, c.preferNoScheduleTaints = nil, nil
	c.Allocatable = Resource{}
	c.ImageSizes, c.nImages, c.firstImages, c.moreImages = nil, 0, [inlineImages]imageEntry{}, nil
	if node != nil {
		c.name = node.Name
		c.unschedulable = node.Spec.Unschedulable
		c.hostname, c.hasHostname = node.Labels[api.LabelHostname]
		c.zone, c.hasZone = node.Labels[api.LabelTopologyZone]
		for _, t := range node.Spec.Taints {
			switch t.Effect {
			case api.TaintEffectNoSchedule, api.TaintEffectNoExecute:
				c.noScheduleTaints = append(c.noScheduleTaints, t)
			case api.TaintEffectPreferNoSchedule:
				c.preferNoScheduleTaints = append(c.preferNoScheduleTaints, t)
			}
		}
		c.Allocatable = NewResource(node.Status.Allocatable)
		if len(node.Status.Images) > 0 {
			c.ImageSizes = map[string]int64{}
			for _, img := range node.Status.Images {
				for _, name := range img.Names {
					c.ImageSizes[name] = img.SizeBytes
				}
			}
			for name, size := range c.ImageSizes {
				e := imageEntry{NewImageKey(name), size}
				if c.nImages < inlineImages {
					c.firstImages[c.nImages] = e
				} else {
					c.moreImages = append(c.moreImages, e)
				}
				c.nImages++
			}
		}
	}
	return c
}

// ImageKey is an image name with its hash, for ImageSize (make one per pod and cycle, not per node).
// Its name is interned: the nodes that report an image, and the pods that ask for it, share one copy
// of its name, so that ImageSize compares two pointers where it would read each node's own copy
// (a cache miss per node scored, at thousands of nodes).
type ImageKey struct {
	hash uint64
	key  string
}

var imageKeySeed = maphash.MakeSeed()

// NewImageKey hashes and interns name.
func NewImageKey(name string) ImageKey {
	return ImageKey{hash: maphash.String(imageKeySeed, name), key: unique.Make(name).Value()}
}

// HasImages reports whether the node reports any image (len(ImageSizes) > 0, without reading the map).
func (n *NodeInfo) HasImages() bool { return n.nImages > 0 }

// inlineImages is how many of its image names a NodeInfo holds in itself (a node running one
// workload reports its image and the pause image).
const inlineImages = 2

// imageEntry is one image name the node reports, with its size.
type imageEntry struct {
	ImageKey
	size int64
}

// ImageSize is ImageSizes[k's name]: the size of the image if the node reports it.
func (n *NodeInfo) ImageSize(k ImageKey) (int64, bool) {
	for i := range min(n.nImages, inlineImages) {
		if e := &n.firstImages[i]; e.hash == k.hash && e.key == k.key {
			return e.size, true
		}
	}
	for i := range n.moreImages {
		if e := &n.moreImages[i]; e.hash == k.hash && e.key == k.key {
			return e.size, true
		}
	}
	return 0, false
}

// WithPod returns a copy of n with pi added.
func (n *NodeInfo) WithPod(pi *PodInfo) *NodeInfo {
	if pi.class == nil { // not made by NewPodInfo: a copy holds its class, as long as the node counts it
		cp := *pi
		cp.class = classOf(pi.Pod)
		pi = &cp
	}
	c := n.clone()
	c.countClass(pi.class.id, 1)
	c.Pods = appendCopy(n.Pods, pi)
	if len(pi.RequiredAffinityTerms)+len(pi.PreferredAffinityTerms)+len(pi.RequiredAntiAffinityTerms)+len(pi.PreferredAntiAffinityTerms) > 0 {
		c.PodsWithAffinity = appendCopy(n.PodsWithAffinity, pi)
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		c.PodsWithRequiredAntiAffinity = appendCopy(n.PodsWithRequiredAntiAffinity, pi)
	}
	c.account(pi, 1)
	return c
}

// WithoutPod returns a copy of n without the pod with this UID, and whether it was there.
func (n *NodeInfo) WithoutPod(uid string) (*NodeInfo, bool) {
	idx := -1
	for i, p := range n.Pods {
		if p.Pod.UID == uid {
			idx = i
			break
		}
	}
	if idx < 0 {
		return n, false
	}
	pi := n.Pods[idx]
	c := n.clone()
	c.countClass(pi.class.id, -1)
	c.Pods = removeCopy(n.Pods, uid)
	c.PodsWithAffinity = removeCopy(n.PodsWithAffinity, uid)
	c.PodsWithRequiredAntiAffinity = removeCopy(n.PodsWithRequiredAntiAffinity, uid)
	c.account(pi, -1)
	return c, true
}

// account adds (sign 1) or removes (sign -1) a pod's requests and ports.
func (n *NodeInfo) account(pi *PodInfo, sign int64) {
	n.Requested.add(&pi.Requests, sign)
	n.NonZeroRequested.MilliCPU += sign * pi.NonZeroCPU
	n.NonZeroRequested.Memory += sign * pi.NonZeroMem
	ports := HostPorts(pi.Pod)
	if len(ports) == 0 {
		return
	}
	used := n.UsedPorts.clone()
	for _, p := range ports {
		if sign > 0 {
			used.add(p)
		} else {
			used.remove(p)
		}
	}
	n.UsedPorts = used
}

func appendCopy(s []*PodInfo, pi *PodInfo) []*PodInfo {
	out := make([]*PodInfo, len(s), len(s)+1)
	copy(out, s)
	return append(out, pi)
}

func removeCopy(s []*PodInfo, uid string) []*PodInfo {
	var out []*PodInfo
	for _, p := range s {
		if p.Pod.UID != uid {
			out = append(out, p)
		}
	}
	return out
}

// HostPort is one host port a container claims: IP (default 0.0.0.0), protocol, port.
type HostPort struct {
	IP       string
	Protocol api.Protocol
	Port     int32
}

// HostPorts lists the host ports a pod's containers claim.
func HostPorts(pod *api.Pod) []HostPort {
	var out []HostPort
	for i := range pod.Spec.Containers {
		for _, p := range pod.Spec.Containers[i].Ports {
			if p.HostPort <= 0 {
				continue
			}
			ip, proto := p.HostIP, p.Protocol
			if ip == "" {
				ip = "0.0.0.0"
			}
			if proto == "" {
				proto = api.ProtocolTCP
			}
			out = append(out, HostPort{IP: ip, Protocol: proto, Port: p.HostPort})
		}
	}
	return out
}

// HostPortInfo is the set of host ports a node's pods claim. It is a set, as Kubernetes' is (not a
// count): when two pods on a node claim the same port (possible only for pods that bypassed the
// scheduler), removing either frees the port, which preemption's "what if these pods were gone" sees
// as Kubernetes does (difftest/scheduler holds it).
type HostPortInfo map[HostPort]struct{}

func (h HostPortInfo) clone() HostPortInfo {
	out := make(HostPortInfo, len(h)+1)
	for k := range h {
		out[k] = struct{}{}
	}
	return out
}

func (h HostPortInfo) add(p HostPort) { h[p] = struct{}{} }

func (h HostPortInfo) remove(p HostPort) { delete(h, p) }

// Conflicts reports whether p collides with a port already claimed: the same protocol and port on
// the same IP, where 0.0.0.0 (every address) collides with any IP.
func (h HostPortInfo) Conflicts(p HostPort) bool {
	if len(h) == 0 {
		return false
	}
	if p.IP == "0.0.0.0" {
		for used := range h {
			if used.Protocol == p.Protocol && used.Port == p.Port {
				return true
			}
		}
		return false
	}
	_, same := h[p]
	_, any := h[HostPort{IP: "0.0.0.0", Protocol: p.Protocol, Port: p.Port}]
	return same || any
}
