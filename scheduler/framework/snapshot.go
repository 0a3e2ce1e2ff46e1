// snapshot.go: Snapshot, the cluster as one scheduling cycle sees it: every node's NodeInfo, sorted
// by name, plus the cluster-wide facts some plugins need (how many nodes have an image, whether any
// pod has affinity terms at all). The cache hands out a new Snapshot after every change; a cycle
// keeps the one it started with. Interface: Snapshot, NewSnapshot.
package framework

import (
	"fmt"
	"sort"
)

// Snapshot is a view of the nodes that does not change while a scheduling cycle uses it: the cache
// refreshes it (Update) only between cycles. The NodeInfos in it are immutable, so refreshing costs
// only the entries of the nodes that changed since the last cycle, usually one: the node the last
// pod was assumed on. This is Kubernetes' UpdateSnapshot, which compares generation numbers to the
// same end.
type Snapshot struct {
	nodes         []*NodeInfo    // sorted by name
	imageNumNodes map[string]int // image name -> number of nodes that have it
	// withAffinity and withRequiredAntiAffinity count the nodes that have such pods, so the
	// InterPodAffinity plugin can skip its work entirely in the common case.
	withAffinity, withRequiredAntiAffinity int
	// domains are DomainCounts' sums over nodes, which Update keeps equal to the sums over the
	// current nodes (podcounts.go).
	domains []*domainCounts
	// generation counts the calls to Update: what a plugin derived from the snapshot (ImageLocality's
	// image spread) holds as long as the snapshot and its generation are the same.
	generation uint64
}

// NewSnapshot builds a snapshot from NodeInfos sorted by name (for tests and one-off views; the
// scheduler keeps one Snapshot and refreshes it).
func NewSnapshot(nodes []*NodeInfo) *Snapshot {
	s := &Snapshot{nodes: nodes, imageNumNodes: map[string]int{}}
	for _, n := range nodes {
		for name := range n.ImageSizes {
			s.imageNumNodes[name]++
		}
		if len(n.PodsWithAffinity) > 0 {
			s.withAffinity++
		}
		if len(n.PodsWithRequiredAntiAffinity) > 0 {
			s.withRequiredAntiAffinity++
		}
	}
	return s
}

// Update refreshes s from the cache's sorted list: only the entries at the changed indices, or the
// whole list when rebuild (nodes were added or removed). images, when not nil, replaces the image
// counts (the caller must not change it afterwards); the two counts are the cache's current figures.
func (s *Snapshot) Update(list []*NodeInfo, changed []int, rebuild bool, images map[string]int, withAffinity, withRequiredAntiAffinity int) {
	s.generation++
	if rebuild || len(s.nodes) != len(list) {
		s.nodes = append(s.nodes[:0], list...)
		s.domains = nil // nodes came or went: the sums start again when next asked
	} else {
		for _, i := range changed {
			if s.nodes[i] != list[i] { // an index may be listed more than once
				s.updateDomainCounts(s.nodes[i], list[i])
				s.nodes[i] = list[i]
			}
		}
	}
	if images != nil {
		s.imageNumNodes = images
	}
	s.withAffinity, s.withRequiredAntiAffinity = withAffinity, withRequiredAntiAffinity
}

// List returns every node, sorted by name. The caller must not modify the slice.
func (s *Snapshot) List() []*NodeInfo { return s.nodes }

// NumNodes is the number of nodes.
func (s *Snapshot) NumNodes() int { return len(s.nodes) }

// Get returns the named node's NodeInfo.
func (s *Snapshot) Get(name string) (*NodeInfo, error) {
	i := sort.Search(len(s.nodes), func(i int) bool { return s.nodes[i].Name() >= name })
	if i < len(s.nodes) && s.nodes[i].Name() == name {
		return s.nodes[i], nil
	}
	return nil, fmt.Errorf("node %q not found", name)
}

// Generation changes whenever Update refreshes the snapshot (see the field).
func (s *Snapshot) Generation() uint64 { return s.generation }

// ImageNumNodes is how many nodes report having the image.
func (s *Snapshot) ImageNumNodes(image string) int { return s.imageNumNodes[image] }

// HavePodsWithAffinity reports whether any pod on any node has pod (anti-)affinity terms.
func (s *Snapshot) HavePodsWithAffinity() bool { return s.withAffinity > 0 }

// HavePodsWithRequiredAntiAffinity reports whether any pod has required anti-affinity terms.
func (s *Snapshot) HavePodsWithRequiredAntiAffinity() bool { return s.withRequiredAntiAffinity > 0 }
