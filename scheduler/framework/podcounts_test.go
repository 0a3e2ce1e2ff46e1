package framework

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubesim/api"
)

func TestPodCountsAreRememberedPerNodeInfoAndBounded(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	ni := NewNodeInfo(node)
	for i := range 3 {
		ni = ni.WithPod(NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint(i), UID: fmt.Sprint(i)}}))
	}
	asked := 0
	all := func(*api.Pod) bool { asked++; return true }
	assert.Equal(t, int64(3), ni.CountPods("all", all))
	assert.Equal(t, int64(3), ni.CountPods("all", all))
	assert.Equal(t, 3, asked, "the second answer comes from the memo")

	relabelled := ni.WithNode(node)
	assert.Equal(t, int64(3), relabelled.CountPods("all", all))
	assert.Equal(t, 3, asked, "a new Node object has the same pods, and keeps the memo")

	fewer, _ := ni.WithoutPod("1")
	assert.Equal(t, int64(2), fewer.CountPods("all", all), "other pods, another memo")
	assert.Equal(t, 5, asked)

	for i := range maxPodCounts + 10 {
		ni.CountPods(fmt.Sprint("key-", i), all)
	}
	assert.Len(t, ni.counts.order, maxPodCounts, "at most maxPodCounts answers")
	assert.Len(t, ni.counts.counts, maxPodCounts)
	assert.NotContains(t, ni.counts.counts, "all", "the oldest answers are forgotten first")
	assert.Contains(t, ni.counts.counts, fmt.Sprint("key-", maxPodCounts+9))

	snap := NewSnapshot([]*NodeInfo{ni})
	for i := range maxDomainCounts + 2 {
		assert.Equal(t, map[string]int64{"": 3}, snap.DomainCounts(fmt.Sprint("key-", i), api.LabelTopologyZone, all))
	}
	assert.Len(t, snap.domains, maxDomainCounts, "at most maxDomainCounts sums")

	defer SetPodCountMemo(SetPodCountMemo(false))
	asked = 0
	assert.Equal(t, int64(3), ni.CountPods(fmt.Sprint("key-", maxPodCounts+9), all))
	assert.Equal(t, 3, asked, "with the memo off, every call counts afresh")
}
