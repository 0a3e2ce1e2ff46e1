// podcounts.go: a NodeInfo's memo of pod counts. PodTopologySpread and InterPodAffinity ask every
// node, in every cycle, "how many of your pods does this selector pick?" (the pod's ReplicaSet
// siblings, the pods its affinity terms name). Asked afresh, that is every pod of the cluster for
// every pod scheduled: O(pods²) for a rollout. Kubernetes does count afresh, on 16 goroutines;
// kubesim remembers each answer in the NodeInfo that gave it.
//
// An answer cannot go stale, because a NodeInfo never changes: a pod added, removed or relabelled
// builds a new NodeInfo with a new memo. That memo starts from its predecessor's (its base) and the
// pod changes between the two: at its first question it takes all the base's answers, each
// adjusted for the pods added and removed (a match per answer and change: one or two pods, not
// every pod of the node again), and lets go of the base. So the answers outlive the NodeInfos: in
// `kubesim bench envelope` hundreds of ReplicaSets take turns, a node is asked about each again only
// after the others, and by then it has a pod or two more (during a rollout every bind and every pod
// status write makes a node new, and a node holds up to 110 pods). A memo that answered nothing
// builds on its predecessor's base, with at most maxPodChanges changes, so it holds on to at most
// one other memo and a few pods. A new Node object (labels, status) keeps the memo, since a count
// reads only the pods. The memo holds at most maxPodCounts answers, in a map by the key's hash (a
// lookup, not a scan; when full it forgets an arbitrary answer), and it lives and dies with its
// NodeInfo, so its memory is bounded by the nodes: about 60 bytes an answer, 15 KiB a node when
// full, 75 MiB for 5,000 nodes, plus the memos of NodeInfos the cache replaced and a snapshot or a
// cycle still holds.
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
// cycle by the plugin that asks, so that asking hundreds of nodes costs each a lookup of a uint64
// (and then comparing the same string, usually the same pointer), not a hash of a 40-byte key per
// node. Interface: CountKey, NewCountKey, (*NodeInfo).CountPods,
// (*NodeInfo).CountPodsKey, (*Snapshot).DomainCounts, SetPodCountMemo.
package framework

import (
	"hash/maphash"
	"maps"
	"sync"
	"sync/atomic"

	"kubesim/api"
)

// maxPodCounts is how many answers a NodeInfo remembers: a cycle asks one to four questions (the
// default spread constraints share one), so this covers a couple of hundred workloads scheduled in
// turns (the full envelope's queue has about 200 ReplicaSets in each round of bursts).
const maxPodCounts = 256

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

// podCounts is the memo of one NodeInfo's pods (and of the NodeInfos WithNode made from it, which
// have the same pods).
type podCounts struct {
	// mu guards everything below: Score runs CountPods on several goroutines, and Explain may run
	// beside a cycle. answers are the answers by their key's hash (an entry whose key differs under
	// the same hash is replaced, as if forgotten).
	mu      sync.Mutex
	answers map[uint64]countEntry
	// base, if not nil, is the memo of the NodeInfo this one's was made from, by changes; then this
	// memo has answered nothing yet, and base has no base of its own. The first question takes all
	// of base's answers, adjusted for the changes, and lets go of base. A goroutine holding mu may
	// lock base.mu, never the other way round.
	base    *podCounts
	changes []podChange
}

// countEntry is one remembered answer, with the match that gave it, so that it can be carried
// over to the memo of a NodeInfo with a pod more or less.
type countEntry struct {
	key   string
	n     int64
	match func(*api.Pod) bool
}

// podChange is a pod added to (sign 1) or removed from (sign -1) a node.
type podChange struct {
	pod  *api.Pod
	sign int64
}

// maxPodChanges is how many pod changes a memo may be from its base: a NodeInfo further from any
// memo that answered something starts empty.
const maxPodChanges = 8

// derive returns the memo of a NodeInfo made from m's by adding (sign 1) or removing (sign -1) pod.
func (m *podCounts) derive(pod *api.Pod, sign int64) *podCounts {
	if m == nil {
		return &podCounts{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case len(m.answers) > 0:
		// m has answers (and so no base): build on them.
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

// takeBase makes m's answers its base's, adjusted for the pods added and removed since, and lets
// go of the base, so that memos never form a chain. m.mu is held. It costs a match per answer and
// change, of pods just added or removed; a question asks a node's every pod.
func (m *podCounts) takeBase() {
	b := m.base
	if b == nil {
		return
	}
	b.mu.Lock()
	m.answers = maps.Clone(b.answers)
	b.mu.Unlock()
	for h, e := range m.answers {
		delta := int64(0)
		for _, ch := range m.changes {
			if e.match(ch.pod) {
				delta += ch.sign
			}
		}
		if delta != 0 {
			e.n += delta
			m.answers[h] = e
		}
	}
	m.base, m.changes = nil, nil
}

// CountPods returns how many of the node's pods match. key must name the question exactly: two
// calls with the same key must ask the same match (the plugins build it from the selector's printed
// form and the namespaces), because the first answer is remembered and given to the second, and
// match must depend on the pod alone, because the memo of a NodeInfo with a pod more or less asks
// it of that pod to carry the answer over. It is CountPodsKey(NewCountKey(key), match): a caller
// asking many nodes makes the key once.
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
	m.takeBase()
	e, ok := m.answers[key.hash]
	if ok && e.key == key.key {
		return e.n
	}
	c := countPods(n.Pods, match)
	switch {
	case m.answers == nil:
		m.answers = make(map[uint64]countEntry)
	case !ok && len(m.answers) >= maxPodCounts:
		for h := range m.answers { // forget one, whichever the map gives first
			delete(m.answers, h)
			break
		}
	}
	m.answers[key.hash] = countEntry{key: key.key, n: c, match: match}
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
