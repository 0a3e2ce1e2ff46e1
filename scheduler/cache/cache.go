// cache.go: the scheduler's cache (pkg/scheduler/backend/cache in Kubernetes): every node's NodeInfo,
// kept up to date from the informers, plus the pods the scheduler has assumed.
//
// Assuming is how the scheduler keeps going without waiting for the apiserver: as soon as a cycle
// picks a node, the pod is added to that node's NodeInfo ("assumed"), so the next cycle already sees
// the node as fuller, while the binding is still on its way. When the informer later reports the pod
// bound, the assumption is confirmed (AddPod); if binding fails, it is forgotten (ForgetPod).
//
//	AssumePod -> FinishBinding -> AddPod (confirmed)      the normal path
//	AssumePod -> ForgetPod                                binding failed
//
// Kubernetes also expires assumed pods whose binding never shows up; with its default (no expiry)
// it behaves as kubesim does. Interface: Cache, New and its methods.
package cache

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// Cache holds the scheduler's view of nodes and pods. It is safe for concurrent use: informer
// handlers update it while scheduling cycles refresh their snapshot from it.
type Cache struct {
	// mu guards everything below. Invariants: list holds exactly the NodeInfos of nodes that exist
	// (Node() != nil), sorted by name, each equal to nodes[name]; nodes also holds NodeInfos without
	// a node, for pods bound to a node the cache has not seen (or no longer sees). changed lists
	// the indices of list replaced since the last UpdateSnapshot, rebuild says list was reshaped;
	// imagesChanged that imageNumNodes changed (the snapshot then gets a copy). withAffinity and
	// withRequiredAntiAffinity count the nodes in list having such pods.
	mu                       sync.Mutex
	nodes                    map[string]*framework.NodeInfo
	list                     []*framework.NodeInfo
	changed                  []int
	rebuild                  bool
	imageNumNodes            map[string]int
	imagesChanged            bool
	withAffinity             int
	withRequiredAntiAffinity int
	pods                     map[string]*podState // by UID
}

// podState is a pod the cache knows, and whether it is only assumed.
type podState struct {
	pod             *api.Pod
	assumed         bool
	bindingFinished bool
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{nodes: map[string]*framework.NodeInfo{}, imageNumNodes: map[string]int{}, pods: map[string]*podState{},
		rebuild: true, imagesChanged: true}
}

// UpdateSnapshot brings s up to date: it copies the entries of the nodes that changed since the last
// call. The caller must not be using s meanwhile (the scheduler calls it at the start of a cycle).
func (c *Cache) UpdateSnapshot(s *framework.Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var images map[string]int
	if c.imagesChanged {
		images = make(map[string]int, len(c.imageNumNodes))
		for k, v := range c.imageNumNodes {
			images[k] = v
		}
	}
	s.Update(c.list, c.changed, c.rebuild, images, c.withAffinity, c.withRequiredAntiAffinity)
	c.changed, c.rebuild, c.imagesChanged = c.changed[:0], false, false
}

// Snapshot returns a fresh, independent snapshot (for Explain-like one-off views and tests).
func (c *Cache) Snapshot() *framework.Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return framework.NewSnapshot(slices.Clone(c.list))
}

// setLocked stores ni as the NodeInfo of name (nil: forget it), keeping list sorted and the
// bookkeeping for UpdateSnapshot.
func (c *Cache) setLocked(name string, ni *framework.NodeInfo) {
	i := sort.Search(len(c.list), func(i int) bool { return c.list[i].Name() >= name })
	inList := i < len(c.list) && c.list[i].Name() == name
	if inList {
		c.countAffinityLocked(c.list[i], -1)
	}
	switch {
	case ni != nil && ni.Node() != nil && inList:
		c.list[i] = ni
		c.changed = append(c.changed, i)
	case ni != nil && ni.Node() != nil:
		c.list = slices.Insert(c.list, i, ni)
		c.rebuild = true
	case inList:
		c.list = slices.Delete(c.list, i, i+1)
		c.rebuild = true
	}
	if ni != nil && ni.Node() != nil {
		c.countAffinityLocked(ni, 1)
	}
	if ni == nil {
		delete(c.nodes, name)
	} else {
		c.nodes[name] = ni
	}
}

func (c *Cache) countAffinityLocked(ni *framework.NodeInfo, delta int) {
	if len(ni.PodsWithAffinity) > 0 {
		c.withAffinity += delta
	}
	if len(ni.PodsWithRequiredAntiAffinity) > 0 {
		c.withRequiredAntiAffinity += delta
	}
}

func (c *Cache) countImagesLocked(ni *framework.NodeInfo, delta int) {
	for name := range ni.ImageSizes {
		c.imageNumNodes[name] += delta
		if c.imageNumNodes[name] <= 0 {
			delete(c.imageNumNodes, name)
		}
		c.imagesChanged = true
	}
}

// AddNode adds or replaces a node.
func (c *Cache) AddNode(node *api.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putNodeLocked(node)
}

// UpdateNode replaces a node.
func (c *Cache) UpdateNode(_, node *api.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putNodeLocked(node)
}

func (c *Cache) putNodeLocked(node *api.Node) {
	old, ok := c.nodes[node.Name]
	if !ok {
		old = framework.NewNodeInfo(nil)
	}
	ni := old.WithNode(node)
	c.setLocked(node.Name, ni)
	if old.Node() != nil {
		c.countImagesLocked(old, -1)
	}
	c.countImagesLocked(ni, 1)
}

// RemoveNode removes a node. Its pods, if any remain, stay accounted until they are deleted too.
func (c *Cache) RemoveNode(node *api.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.nodes[node.Name]
	if !ok || old.Node() == nil {
		return
	}
	c.countImagesLocked(old, -1)
	if len(old.Pods) > 0 {
		c.setLocked(node.Name, old.WithNode(nil))
	} else {
		c.setLocked(node.Name, nil)
	}
}

func (c *Cache) addPodLocked(pod *api.Pod) {
	ni, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		ni = framework.NewNodeInfo(nil)
	}
	c.setLocked(pod.Spec.NodeName, ni.WithPod(framework.NewPodInfo(pod)))
}

func (c *Cache) removePodLocked(pod *api.Pod) {
	ni, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		return
	}
	ni, removed := ni.WithoutPod(pod.UID)
	if !removed {
		return
	}
	if ni.Node() == nil && len(ni.Pods) == 0 {
		ni = nil
	}
	c.setLocked(pod.Spec.NodeName, ni)
}

// AssumePod adds pod, whose spec.nodeName the scheduler has just set, as if it were bound.
func (c *Cache) AssumePod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pods[pod.UID]; ok {
		return fmt.Errorf("pod %s/%s (%s) is already in the cache, so can't be assumed", pod.Namespace, pod.Name, pod.UID)
	}
	c.addPodLocked(pod)
	c.pods[pod.UID] = &podState{pod: pod, assumed: true}
	return nil
}

// FinishBinding records that the binding request for an assumed pod has returned.
func (c *Cache) FinishBinding(pod *api.Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ps, ok := c.pods[pod.UID]; ok && ps.assumed {
		ps.bindingFinished = true
	}
}

// ForgetPod undoes AssumePod.
func (c *Cache) ForgetPod(pod *api.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	if !ok || !ps.assumed {
		return fmt.Errorf("pod %s/%s (%s) is not assumed, so can't be forgotten", pod.Namespace, pod.Name, pod.UID)
	}
	c.removePodLocked(ps.pod)
	delete(c.pods, pod.UID)
	return nil
}

// AddPod records a pod the informer reports bound. For an assumed pod this is the confirmation; if
// it landed elsewhere than assumed (another scheduler won), it moves.
func (c *Cache) AddPod(pod *api.Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ps, ok := c.pods[pod.UID]; ok {
		c.removePodLocked(ps.pod)
	}
	c.addPodLocked(pod)
	c.pods[pod.UID] = &podState{pod: pod}
}

// UpdatePod replaces a bound pod (its labels or requests may have changed).
func (c *Cache) UpdatePod(_, pod *api.Pod) {
	c.AddPod(pod)
}

// RemovePod forgets a pod that was deleted.
func (c *Cache) RemovePod(pod *api.Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	if !ok {
		return
	}
	c.removePodLocked(ps.pod)
	delete(c.pods, pod.UID)
}

// IsAssumedPod reports whether the pod is assumed and not yet confirmed.
func (c *Cache) IsAssumedPod(pod *api.Pod) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	return ok && ps.assumed
}

// PodCount counts the pods (bound and assumed).
func (c *Cache) PodCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pods)
}

// Dump describes the cache in one line per node, for debugging and tests:
// "node-1: 2 pods (1 assumed), cpu 600m/4000m, memory 512Mi/8192Mi".
func (c *Cache) Dump() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, ni := range c.list {
		assumed := 0
		for _, p := range ni.Pods {
			if ps := c.pods[p.Pod.UID]; ps != nil && ps.assumed {
				assumed++
			}
		}
		fmt.Fprintf(&b, "%s: %d pods (%d assumed), cpu %dm/%dm, memory %dMi/%dMi\n", ni.Name(), len(ni.Pods), assumed,
			ni.Requested.MilliCPU, ni.Allocatable.MilliCPU, ni.Requested.Memory>>20, ni.Allocatable.Memory>>20)
	}
	return b.String()
}
