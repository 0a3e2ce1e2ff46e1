// podcounts.go: a NodeInfo's memo of pod counts. PodTopologySpread and InterPodAffinity ask every
// node, in every cycle, "how many of your pods does this selector pick?" (the pod's ReplicaSet
// siblings, the pods its affinity terms name). Asked afresh, that is every pod of the cluster for
// every pod scheduled: O(pods²) for a rollout. Kubernetes does count afresh, on 16 goroutines;
// kubesim remembers each answer in the NodeInfo that gave it.
//
// An answer cannot go stale, because a NodeInfo never changes: a pod added, removed or relabelled
// builds a new NodeInfo with an empty memo, so a cycle recounts only the nodes whose pods changed
// since the answer was given (usually one: where the last pod went). A new Node object (labels,
// status) keeps the memo, since a count reads only the pods. The memo holds at most maxPodCounts
// answers and forgets the oldest first, and it lives and dies with its NodeInfo, so its memory is
// bounded by the nodes. Interface: (*NodeInfo).CountPods, SetPodCountMemo.
package framework

import (
	"sync"
	"sync/atomic"

	"kubesim/api"
)

// maxPodCounts is how many answers a NodeInfo remembers: a cycle asks one to four questions (the
// default spread constraints share one), so this covers a few dozen workloads scheduled in turns.
const maxPodCounts = 32

// podCountMemo switches the memo; only benchmarks turn it off, to measure it against counting afresh.
var podCountMemo atomic.Bool

func init() { podCountMemo.Store(true) }

// SetPodCountMemo turns CountPods' memo on or off and returns the previous setting. It exists for
// the benchmarks that compare the memo with counting afresh; the answers are the same either way.
func SetPodCountMemo(on bool) bool { return podCountMemo.Swap(on) }

// podCounts is the memo of one NodeInfo's pods (and of the NodeInfos WithNode made from it, which
// have the same pods).
type podCounts struct {
	// mu guards counts and order: Score runs CountPods on several goroutines, and Explain may run
	// beside a cycle. A key is in counts iff it is in order, which lists the keys oldest first.
	mu     sync.Mutex
	counts map[string]int64
	order  []string
}

// CountPods returns how many of the node's pods match. key must name the question exactly: two
// calls with the same key must ask the same match (the plugins build it from the selector's printed
// form and the namespaces), because the first answer is remembered and given to the second.
func (n *NodeInfo) CountPods(key string, match func(*api.Pod) bool) int64 {
	m := n.counts
	if m == nil || !podCountMemo.Load() {
		return countPods(n.Pods, match)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.counts[key]; ok {
		return c
	}
	c := countPods(n.Pods, match)
	if m.counts == nil {
		m.counts = map[string]int64{}
	}
	if len(m.order) == maxPodCounts {
		delete(m.counts, m.order[0])
		m.order = append(m.order[:0], m.order[1:]...)
	}
	m.counts[key] = c
	m.order = append(m.order, key)
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
