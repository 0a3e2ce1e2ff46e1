// heap.go: the activeQ's heap, ordered by the profile's QueueSort (higher priority first, then the
// pod that has waited longest), with the order of arrival as the last tie-breaker so that the order
// never depends on chance. Items are found by key for updates and deletes.
package queue

import (
	"container/heap"

	"kubesim/scheduler/framework"
)

// podHeap is a heap of queued pods with an index by key.
type podHeap struct {
	less  func(a, b *framework.QueuedPodInfo) bool
	items []*framework.QueuedPodInfo
	index map[string]int // key -> position in items
}

func newPodHeap(less func(a, b *framework.QueuedPodInfo) bool) *podHeap {
	return &podHeap{less: less, index: map[string]int{}}
}

// heap.Interface, on items.
func (h *podHeap) Len() int { return len(h.items) }
func (h *podHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if h.less(a, b) {
		return true
	}
	if h.less(b, a) {
		return false
	}
	return a.Seq < b.Seq
}
func (h *podHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.index[key(h.items[i].Pod)] = i
	h.index[key(h.items[j].Pod)] = j
}
func (h *podHeap) Push(x any) {
	pi := x.(*framework.QueuedPodInfo)
	h.index[key(pi.Pod)] = len(h.items)
	h.items = append(h.items, pi)
}
func (h *podHeap) Pop() any {
	n := len(h.items) - 1
	pi := h.items[n]
	h.items[n] = nil
	h.items = h.items[:n]
	delete(h.index, key(pi.Pod))
	return pi
}

// addOrUpdate inserts pi or replaces the item with its key.
func (h *podHeap) addOrUpdate(pi *framework.QueuedPodInfo) {
	if i, ok := h.index[key(pi.Pod)]; ok {
		h.items[i] = pi
		heap.Fix(h, i)
		return
	}
	heap.Push(h, pi)
}

func (h *podHeap) get(k string) (*framework.QueuedPodInfo, bool) {
	i, ok := h.index[k]
	if !ok {
		return nil, false
	}
	return h.items[i], true
}

func (h *podHeap) has(k string) bool {
	_, ok := h.index[k]
	return ok
}

func (h *podHeap) delete(k string) bool {
	i, ok := h.index[k]
	if ok {
		heap.Remove(h, i)
	}
	return ok
}

func (h *podHeap) pop() (*framework.QueuedPodInfo, bool) {
	if len(h.items) == 0 {
		return nil, false
	}
	return heap.Pop(h).(*framework.QueuedPodInfo), true
}
