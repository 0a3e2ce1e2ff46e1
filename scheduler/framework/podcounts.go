// podcounts.go: a NodeInfo's memo of pod counts. PodTopologySpread and InterPodAffinity ask every
// node, in every cycle, "how many of your pods does this selector pick?" (the pod's ReplicaSet
// siblings, the pods its affinity terms name). Asked afresh, that is every pod of the cluster for
// every pod scheduled: O(pods²) for a rollout. Kubernetes does count afresh, on 16 goroutines;
// kubesim remembers each answer in the NodeInfo that gave it.
//
// An answer cannot go stale, because a NodeInfo never changes: a pod added, removed or relabelled
// builds a new NodeInfo with a new memo. That memo starts from its predecessor's (its base) and the
// pod changes between the two: a question the base answered is answered by adjusting that answer
// for the pods added and removed (one or two matches), not by matching every pod of the node again
// (during a rollout every bind and every pod status write makes a node new, and a node holds up to
// 110 pods). A memo answers only from a base that has no base of its own (taking a memo as a base
// makes it forget its own), and from at most maxPodChanges changes, so it holds on to at most one
// other memo and a few pods. A new Node object (labels, status) keeps the memo, since a count reads
// only the pods. The memo holds at most maxPodCounts answers and forgets the oldest first, and it
// lives and dies with its NodeInfo, so its memory is bounded by the nodes.
//
// Spreading over zones then still asks all the nodes, every cycle, to add their answers up per
// zone. The Snapshot keeps those sums too (DomainCounts): when it is refreshed, it takes the
// answers of each node that changed out of the old node's domain and adds the new ones, so a cycle
// pays for the nodes that changed, not for every node (a node added or removed starts the sums
// afresh). PodTopologySpread uses them where every node counts: the default constraints of a pod
// without a nodeSelector or required node affinity; otherwise it visits the nodes, and each answers
// from its memo.
//
// A question is named by a CountKey: its key string with the string's hash, computed once per
// cycle by the plugin that asks, so that asking hundreds of nodes costs each a short scan of its
// answers comparing hashes (and then the same string, usually the same pointer), not a hash of a
// 40-byte key and a map lookup per node. Interface: CountKey, NewCountKey, (*NodeInfo).CountPods,
// (*NodeInfo).CountPodsKey, (*Snapshot).DomainCounts, SetPodCountMemo.
package framework

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"kubesim/api"
)

// maxPodCounts is how many answers a NodeInfo remembers: a cycle asks one to four questions (the
// default spread constraints share one), so this covers a few dozen workloads scheduled in turns.
const maxPodCounts = 32

// maxDomainCounts is how many sums a Snapshot keeps up to date: each costs every refresh a question
// to each node that changed.
const maxDomainCounts = 8

// podCountMemo switches the memo; only benchmarks turn it off, to measure it against counting afresh.
var podCountMemo atomic.Bool

func init() { podCountMemo.Store(true) }

// SetPodCountMemo turns CountPods' and DomainCounts' memos on or off and returns the previous setting. It exists for
// the benchmarks that compare the memo with counting afresh; the answers are the same either way.
func SetPodCountMemo(on bool) bool { return podCountMemo.Swap(on) }

// CountKey names a question to CountPodsKey: two keys with the same string must ask the same
// match. Make one with NewCountKey, once per question per cycle (it hashes the string).
type CountKey struct {
	hash uint64
	key  string
}

var countKeySeed = maphash.MakeSeed()

// NewCountKey names the question key.
func NewCountKey(key string) CountKey {
	return CountKey{hash: maphash.String(countKeySeed, key), key: key}
}

// String is the key's string.
func (k CountKey) String() string { return k.key }

// countEntry is one remembered answer.
type countEntry struct {
	CountKey
	n int64
}

// podCounts is the memo of one NodeInfo's pods (and of the NodeInfos WithNode made from it, which
// have the same pods).
type podCounts struct {
	// mu guards everything below: Score runs CountPods on several goroutines, and Explain may run
	// beside a cycle. entries are the answers, oldest first, each key at most once; hashes[i] is
	// entries[i]'s key's hash, apart so that a search reads 8 bytes per answer, not 32.
	mu      sync.Mutex
	entries []countEntry
	hashes  []uint64
	// base, if not nil, is the memo of the NodeInfo this one's was made from, by changes; base has
	// no base of its own. A goroutine holding mu may lock base.mu, never the other way round.
	base    *podCounts
	changes []podChange
}

// podChange is a pod added to (sign 1) or removed from (sign -1) a node.
type podChange struct {
	pod  *api.Pod
	sign int64
}

// maxPodChanges is how many pod changes a memo may be from its base: a NodeInfo further from any
// memo that answered something starts empty.
const maxPodChanges = 4

// derive returns the memo of a NodeInfo made from m's by adding (sign 1) or removing (sign -1) pod.
func (m *podCounts) derive(pod *api.Pod, sign int64) *podCounts {
	if m == nil {
		return &podCounts{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case len(m.entries) > 0:
		// m has answers to build on. It forgets its own base, so that memos never form a chain;
		// a question it has not answered yet is then counted afresh.
		m.base, m.changes = nil, nil
		return &podCounts{base: m, changes: []podChange{{pod, sign}}}
	case m.base != nil && len(m.changes) < maxPodChanges:
		// m answered nothing (no cycle looked at its NodeInfo): build on its base, with its
		// changes and this one.
		changes := make([]podChange, len(m.changes), len(m.changes)+1)
		copy(changes, m.changes)
		return &podCounts{base: m.base, changes: append(changes, podChange{pod, sign})}
	}
	return &podCounts{}
}

// lookup returns the remembered answer to k. m.mu is held. It looks from the newest answer back:
// the question a cycle asks was most likely asked in the last few.
func (m *podCounts) lookup(k CountKey) (int64, bool) {
	for i := len(m.hashes) - 1; i >= 0; i-- {
		if m.hashes[i] == k.hash && m.entries[i].key == k.key {
			return m.entries[i].n, true
		}
	}
	return 0, false
}

// fromBase answers key from the base's answer and the changes since, if the base has one. m.mu is
// held.
func (m *podCounts) fromBase(key CountKey, match func(*api.Pod) bool) (int64, bool) {
	if m.base == nil {
		return 0, false
	}
	m.base.mu.Lock()
	c, ok := m.base.lookup(key)
	m.base.mu.Unlock()
	if !ok {
		return 0, false
	}
	for _, ch := range m.changes {
		if match(ch.pod) {
			c += ch.sign
		}
	}
	return c, true
}

// CountPods returns how many of the node's pods match. key must name the question exactly: two
// calls with the same key must ask the same match (the plugins build it from the selector's printed
// form and the namespaces), because the first answer is remembered and given to the second. It is
// CountPodsKey(NewCountKey(key), match): a caller asking many nodes makes the key once.
func (n *NodeInfo) CountPods(key string, match func(*api.Pod) bool) int64 {
	return n.CountPodsKey(NewCountKey(key), match)
}

// CountPodsKey is CountPods with the question's key made already.
func (n *NodeInfo) CountPodsKey(key CountKey, match func(*api.Pod) bool) int64 {
	m := n.counts
	if m == nil || !podCountMemo.Load() {
		return countPods(n.Pods, match)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.lookup(key); ok {
		return c
	}
	c, ok := m.fromBase(key, match)
	if !ok {
		c = countPods(n.Pods, match)
	}
	if len(m.entries) == maxPodCounts {
		m.entries = append(m.entries[:0], m.entries[1:]...)
		m.hashes = append(m.hashes[:0], m.hashes[1:]...)
	}
	m.entries = append(m.entries, countEntry{key, c})
	m.hashes = append(m.hashes, key.hash)
	return c
}

func countPods(pods []*PodInfo, match func(*api.Pod) bool) int64 {
	var c int64
	for _, pi := range pods {
		if match(pi.Pod) {
			c++
		}
	}
	return c
}

// domainCounts is a sum DomainCounts keeps: per value of topologyKey, the pods match picks on the
// nodes with that value.
type domainCounts struct {
	key         CountKey
	topologyKey string
	match       func(*api.Pod) bool
	sums        map[string]int64
}

// add adds (sign 1) or takes away (sign -1) ni's answer to the sum of its domain.
func (d *domainCounts) add(ni *NodeInfo, sign int64) {
	value, _ := ni.TopologyValue(d.topologyKey)
	if d.sums[value] += sign * ni.CountPodsKey(d.key, d.match); d.sums[value] == 0 {
		delete(d.sums, value)
	}
}

// DomainCounts returns, for each value of topologyKey, the sum of CountPods(key, match) over the
// snapshot's nodes with that value (nodes without the label count under ""); a value with no
// matching pod may be absent. The snapshot keeps the sums while it is refreshed (see Update), for at
// most maxDomainCounts questions, forgetting the oldest first. The caller must not modify the map,
// and must not call this while the snapshot is being refreshed.
func (s *Snapshot) DomainCounts(key, topologyKey string, match func(*api.Pod) bool) map[string]int64 {
	memo := podCountMemo.Load()
	if memo {
		for _, d := range s.domains {
			if d.key.key == key && d.topologyKey == topologyKey {
				return d.sums
			}
		}
	}
	d := &domainCounts{key: NewCountKey(key), topologyKey: topologyKey, match: match, sums: map[string]int64{}}
	for _, ni := range s.nodes {
		d.add(ni, 1)
	}
	if !memo {
		return d.sums
	}
	if len(s.domains) == maxDomainCounts {
		s.domains = append(s.domains[:0], s.domains[1:]...)
	}
	s.domains = append(s.domains, d)
	return d.sums
}

// updateDomainCounts moves the answers of a node whose NodeInfo changed from old to ni.
func (s *Snapshot) updateDomainCounts(old, ni *NodeInfo) {
	for _, d := range s.domains {
		d.add(old, -1)
		d.add(ni, 1)
	}
}
