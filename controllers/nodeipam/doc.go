// Package nodeipam is the node IPAM controller of kube-controller-manager
// (k8s.io/kubernetes/pkg/controller/nodeipam, with its default "RangeAllocator"): it gives every Node
// a slice of the cluster's pod network, spec.podCIDR, out of which the node's CNI plugin hands each
// pod its IP.
//
// Read next: cidrset.go (how the cluster CIDR is cut into per-node ranges), then nodeipam.go (the
// controller), then runtime/cni.go (the CNI step that allocates pod IPs inside a node's range) and
// kubelet/network.go (the kubelet waiting for its podCIDR).
//
// What it promises, as Kubernetes does with --allocate-node-cidrs:
//
//  1. The cluster CIDR (--cluster-cidr, kubesim's default 10.244.0.0/16, Flannel's) is cut into
//     ranges of --node-cidr-mask-size bits (default /24: 254 pod IPs per node). A wider cluster CIDR
//     holds more nodes: 10.0.0.0/8 with /24 ranges holds 65536.
//  2. A Node without a podCIDR gets the next free range, written to spec.podCIDR and spec.podCIDRs.
//     A podCIDR, once set, never changes (the apiserver refuses it).
//  3. Ranges of existing Nodes are occupied as the informer sees them, so a restarted controller
//     never gives a range twice; a deleted Node's range is released.
//  4. When no range is left, the Node gets the event CIDRNotAvailable and its pods cannot get IPs;
//     the controller retries with backoff.
//
// What it simplifies: IPv4 only, one cluster CIDR (no dual stack, no MultiCIDRRangeAllocator), and no
// NetworkUnavailable condition (that one belongs to cloud routes).
package nodeipam
