// podcounts.go: how many of a node's pods a question picks, answered from counts by pod class.
// PodTopologySpread and InterPodAffinity ask every node, in every cycle, "how many of your pods does
// this selector pick?" (the pod's ReplicaSet siblings, the pods its affinity terms name). Asked
// afresh, that is every pod of the cluster for every pod scheduled: O(pods²) for a rollout.
// Kubernetes does count afresh, on 16 goroutines; kubesim indexes the pods instead.
//
// Every such question reads only three things of a pod: its namespace, its labels and whether it is
// terminating (the contract of CountPodsKey). Pods alike in these three are one class: the pods of
// a ReplicaSet are usually one class (two while some terminate), whichever nodes they run on.
// NewPodInfo finds each pod version's class once (interning: one shared podClass per distinct
// class), and a NodeInfo keeps how many of its pods are of each class, sorted by class, which
// WithPod and WithoutPod update in a copy (a node holds at most 110 pods, of few classes).
//
// A question (CountKey) remembers, once for the whole process, which classes it picks: the first
// time it is asked, it tests every class there is, and each later ask tests only the classes made
// since (each class has an increasing id, so "since" is one comparison). Then a node's answer is
// the sum of its counts of those classes: for a ReplicaSet's selector, one binary search in the
// node's few classes, with no pod looked at and nothing carried from one NodeInfo to the next (a
// rollout makes each node's NodeInfo new at every bind and status write). When a question picks
// more classes than the node has (a selector picking everything), the node's classes are looked up
// in the question's instead.
//
// Memory: a class lives as long as a PodInfo holds it (the table holds it weakly and forgets it
// when the garbage collector frees it), so classes are never more than the pods' versions the
// scheduler holds, even when every pod has labels of its own (a StatefulSet's pod names) and makes a
// class of its own. A question drops the classes that were forgotten from its list when the list has
// doubled since it last did, and at most maxCountKeys questions are remembered (a question asked
// again after it was forgotten tests every class again).
//
// Spreading over zones then still asks all the nodes, every cycle, to add their answers up per
// zone. The Snapshot keeps those sums too (DomainCounts): when it is refreshed, it takes the
// answers of each node that changed out of the old node's domain and adds the new ones, so a cycle
// pays for the nodes that changed, not for every node (a node added or removed starts the sums
// afresh). PodTopologySpread uses them where every node counts: the default constraints of a pod
// without a nodeSelector or required node affinity; otherwise it visits the nodes.
//
// Interface: CountKey, NewCountKey, CountedPod, (*NodeInfo).CountPods, (*NodeInfo).CountPodsKey,
// (*Snapshot).DomainCounts, SetPodCountMemo.
package framework

import (
	"cmp"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"weak"

	"kubesim/api"
)

// maxDomainCounts is how many sums a Snapshot keeps up to date: each costs every refresh a question
// to each node that changed.
const maxDomainCounts = 8

// maxCountKeys is how many questions the process remembers the classes of. A cluster's questions
// are its ReplicaSets' and Services' selectors and its pods' affinity terms; when more are asked, an
// arbitrary one is forgotten.
const maxCountKeys = 4096

// podCountMemo switches the index; only benchmarks turn it off, to measure it against counting afresh.
var podCountMemo atomic.Bool

func init() { podCountMemo.Store(true) }

// SetPodCountMemo turns CountPods' index and DomainCounts' sums on or off and returns the previous
// setting. It exists for the benchmarks that compare them with counting afresh (as Kubernetes does);
// the answers are the same either way.
func SetPodCountMemo(on bool) bool { return podCountMemo.Swap(on) }

// podClass is the pods with one namespace, one set of labels and one terminating or not: every
// question CountPodsKey is asked gives them the same answer.
type podClass struct {
	// id orders the classes by when they were made; a NodeInfo's counts are sorted by it.
	id uint64
	// hash is the hash of the three (classHash), the key of the table.
	hash uint64
	// pod is the class as a pod: CountedPod of the first pod of the class.
	pod *api.Pod
}

// classRef is a class in classTable.all, held weakly.
type classRef struct {
	id  uint64
	ref weak.Pointer[podClass]
}

func compareRefID(r classRef, id uint64) int { return cmp.Compare(r.id, id) }

// classTable is every class some PodInfo still holds.
type classTable struct {
	// mu guards byHash, all and dead, and classesMade's increments. byHash and all hold the same
	// classes (plus, in all, up to dead entries whose class the collector freed); all is sorted by
	// id. A class freed is removed from byHash by its cleanup, and from all when dead reaches half.
	mu     sync.Mutex
	byHash map[uint64][]weak.Pointer[podClass]
	all    []classRef
	dead   int
}

var classes = classTable{byHash: map[uint64][]weak.Pointer[podClass]{}}

// classesMade is how many classes were ever made (the next class's id). A question that has tested
// every class with a lower id is up to date.
var classesMade atomic.Uint64

var classSeed = maphash.MakeSeed()

// classHash hashes a pod's namespace, labels (in any order) and terminating.
func classHash(pod *api.Pod) uint64 {
	var h maphash.Hash
	h.SetSeed(classSeed)
	var labels uint64
	for k, v := range pod.Labels {
		h.WriteString(k)
		h.WriteByte(0)
		h.WriteString(v)
		labels += h.Sum64() // a sum does not depend on the map's order
		h.Reset()
	}
	h.WriteString(pod.Namespace)
	if pod.DeletionTimestamp != nil {
		h.WriteByte(1)
	}
	return h.Sum64() ^ labels
}

// terminated is the deletionTimestamp of every terminating class's pod: a question may ask whether
// a pod has one, not what it says.
var terminated = &api.Time{}

// CountedPod is pod as the questions of CountPodsKey see it: its namespace, its labels and, if it is
// terminating, a deletionTimestamp (always the same one); nothing else. The pod's labels are shared.
func CountedPod(pod *api.Pod) *api.Pod {
	c := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: pod.Namespace, Labels: pod.Labels}}
	if pod.DeletionTimestamp != nil {
		c.DeletionTimestamp = terminated
	}
	return c
}

// has reports whether pod is of class c.
func (c *podClass) has(pod *api.Pod) bool {
	terminating := pod.DeletionTimestamp != nil
	return c.pod.Namespace == pod.Namespace && (c.pod.DeletionTimestamp != nil) == terminating && maps.Equal(c.pod.Labels, pod.Labels)
}

// classOf returns pod's class, making it if no PodInfo holds it yet.
func classOf(pod *api.Pod) *podClass {
	h := classHash(pod)
	t := &classes
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ref := range t.byHash[h] {
		if c := ref.Value(); c != nil && c.has(pod) {
			return c
		}
	}
	c := &podClass{id: classesMade.Load(), hash: h, pod: CountedPod(pod)}
	ref := weak.Make(c)
	t.byHash[h] = append(t.byHash[h], ref)
	t.all = append(t.all, classRef{c.id, ref})
	runtime.AddCleanup(c, t.forget, h)
	classesMade.Store(c.id + 1) // under mu: since reads all and classesMade together
	return c
}

// forget drops the freed classes of hash h: a class's cleanup, run after the collector freed it.
func (t *classTable) forget(h uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	refs := slices.DeleteFunc(t.byHash[h], func(r weak.Pointer[podClass]) bool { return r.Value() == nil })
	if len(refs) == 0 {
		delete(t.byHash, h)
	} else {
		t.byHash[h] = refs
	}
	if t.dead++; t.dead >= len(t.all)/2 {
		t.all = slices.DeleteFunc(t.all, func(r classRef) bool { return r.ref.Value() == nil })
		t.dead = 0
	}
}

// since returns the live classes with an id from id on, and classesMade: every class below it is
// either returned or below id.
func (t *classTable) since(id uint64) ([]*podClass, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, _ := slices.BinarySearchFunc(t.all, id, compareRefID)
	var out []*podClass
	for _, r := range t.all[i:] {
		if c := r.ref.Value(); c != nil {
			out = append(out, c)
		}
	}
	return out, classesMade.Load()
}

// live returns the ids of ids (ascending) whose class some PodInfo still holds.
func (t *classTable) live(ids []uint64) []uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []uint64
	for _, id := range ids {
		i, ok := slices.BinarySearchFunc(t.all, id, compareRefID)
		if ok && t.all[i].ref.Value() != nil {
			out = append(out, id)
		}
	}
	return out
}

// CountKey names a question to CountPodsKey: two keys with the same string must ask the same
// match. Make one with NewCountKey, once per question per cycle (it looks the string up).
type CountKey struct {
	key     string
	matches *classMatches
}

// classMatches is what the process remembers of one question: the classes it picks.
type classMatches struct {
	// mu serializes updates: state is replaced, never modified, so readers only load it.
	mu    sync.Mutex
	state atomic.Pointer[matchState]
}

// matchState is a question's classes as of one moment.
type matchState struct {
	// tested: every class with an id below it has been tested.
	tested uint64
	// ids are the classes the question picks, ascending; some may have been forgotten since.
	ids []uint64
	// pruned is len(ids) when the forgotten ones were last dropped.
	pruned int
}

// countKeys are the questions asked, by key string (at most maxCountKeys).
var countKeys = struct {
	mu sync.Mutex
	m  map[string]*classMatches
}{m: map[string]*classMatches{}}

// NewCountKey names the question key.
func NewCountKey(key string) CountKey {
	countKeys.mu.Lock()
	defer countKeys.mu.Unlock()
	m := countKeys.m[key]
	if m == nil {
		if len(countKeys.m) >= maxCountKeys {
			for k := range countKeys.m { // an arbitrary one: keys already made keep theirs
				delete(countKeys.m, k)
				break
			}
		}
		m = &classMatches{}
		m.state.Store(&matchState{})
		countKeys.m[key] = m
	}
	return CountKey{key: key, matches: m}
}

// String is the key's string.
func (k CountKey) String() string { return k.key }

// ids returns the classes match picks, testing the classes made since the question last looked.
func (m *classMatches) ids(match func(*api.Pod) bool) []uint64 {
	if st := m.state.Load(); st.tested == classesMade.Load() {
		return st.ids
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.state.Load()
	newer, made := classes.since(st.tested)
	ids := slices.Clip(st.ids) // readers of st keep theirs
	for _, c := range newer {
		if match(c.pod) {
			ids = append(ids, c.id)
		}
	}
	pruned := st.pruned
	if len(ids) >= 2*max(pruned, 8) {
		ids = classes.live(ids)
		pruned = len(ids)
	}
	m.state.Store(&matchState{tested: made, ids: ids, pruned: pruned})
	return ids
}

// classCount is how many of a node's pods are of one class.
type classCount struct {
	id uint64
	n  int64
}

func compareCountID(c classCount, id uint64) int { return cmp.Compare(c.id, id) }

// countClass counts sign (1 or -1) pods of class id more in n, a copy being built (WithPod,
// WithoutPod): its classes and the bits that summarise them change together.
func (n *NodeInfo) countClass(id uint64, sign int64) {
	n.classes = withClass(n.classes, id, sign)
	n.classBits = classBitsOf(n.classes)
}

// withClass returns counts (sorted by id) with sign (1 or -1) pods of class id more, in a copy.
func withClass(counts []classCount, id uint64, sign int64) []classCount {
	i, found := slices.BinarySearchFunc(counts, id, compareCountID)
	switch {
	case found && counts[i].n+sign == 0:
		return slices.Delete(slices.Clone(counts), i, i+1)
	case found:
		out := slices.Clone(counts)
		out[i].n += sign
		return out
	}
	out := make([]classCount, 0, len(counts)+1)
	out = append(append(append(out, counts[:i]...), classCount{id, sign}), counts[i:]...)
	return out
}

// CountPods returns how many of the node's pods match. key must name the question exactly: two
// calls with the same key must ask the same match (the plugins build it from the selector's printed
// form and the namespaces), because which classes of pods match is remembered under the key. It is
// CountPodsKey(NewCountKey(key), match): a caller asking many nodes makes the key once.
func (n *NodeInfo) CountPods(key string, match func(*api.Pod) bool) int64 {
	return n.CountPodsKey(NewCountKey(key), match)
}

// CountPodsKey is CountPods with the question's key made already. match must read nothing of a pod
// but its namespace, its labels and whether its deletionTimestamp is set (it is given the pods of
// CountedPod), and must give the same answer whenever asked: then pods of one class are all
// matched or all not, and the answer is a sum of the node's counts by class.
func (n *NodeInfo) CountPodsKey(key CountKey, match func(*api.Pod) bool) int64 {
	if key.matches == nil || !podCountMemo.Load() {
		return countPods(n.Pods, match)
	}
	ids := key.matches.ids(match)
	var c int64
	if len(ids) <= len(n.classes) {
		for _, id := range ids {
			if n.classBits.mayHave(id) {
				c += n.classCount(id)
			}
		}
		return c
	}
	for _, cc := range n.classes {
		if _, ok := slices.BinarySearch(ids, cc.id); ok {
			c += cc.n
		}
	}
	return c
}

// classBits is a one-hash Bloom filter of a node's class ids: a clear bit says the node has no pod
// of that class; a set one, that it may have.
type classBits [2]uint64

// classBit spreads the ids, which are made in sequence, over the 128 bits (Fibonacci hashing).
func classBit(id uint64) uint { return uint((id * 0x9E3779B97F4A7C15) >> 57) }

func classBitsOf(counts []classCount) classBits {
	var b classBits
	for _, cc := range counts {
		i := classBit(cc.id)
		b[i>>6] |= 1 << (i & 63)
	}
	return b
}

func (b *classBits) mayHave(id uint64) bool {
	i := classBit(id)
	return b[i>>6]&(1<<(i&63)) != 0
}

// classCount is how many of n's pods are of class id: a binary search written out, because this is
// the innermost step of every count (slices.BinarySearchFunc calls its comparison, not inlined).
func (n *NodeInfo) classCount(id uint64) int64 {
	counts := n.classes
	lo, hi := 0, len(counts)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); counts[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(counts) && counts[lo].id == id {
		return counts[lo].n
	}
	return 0
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
