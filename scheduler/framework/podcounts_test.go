package framework

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	assert.Equal(t, 4, asked, "built on the first: only the pod removed is matched")

	for i := range maxPodCounts + 10 {
		ni.CountPods(fmt.Sprint("key-", i), all)
	}
	assert.Len(t, ni.counts.entries, maxPodCounts, "at most maxPodCounts answers")
	_, ok := ni.counts.lookup(NewCountKey("all"))
	assert.False(t, ok, "the oldest answers are forgotten first")
	n, ok := ni.counts.lookup(NewCountKey(fmt.Sprint("key-", maxPodCounts+9)))
	assert.True(t, ok)
	assert.Equal(t, int64(3), n)

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

func TestANewNodeInfoAnswersFromItsPredecessorsMemoAndThePodsThatChanged(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	web := func(name string) *PodInfo {
		return NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: name, Labels: map[string]string{"app": "web"}}})
	}
	ni := NewNodeInfo(node)
	for i := range 10 {
		ni = ni.WithPod(web(fmt.Sprint(i)))
	}
	asked := 0
	isWeb := func(p *api.Pod) bool { asked++; return p.Labels["app"] == "web" }
	assert.Equal(t, int64(10), ni.CountPods("web", isWeb))
	assert.Equal(t, 10, asked)

	// An update as the cache makes it: the old version removed, the new one (relabelled) added.
	relabelled := web("3")
	relabelled.Pod.Labels = map[string]string{"app": "db"}
	without, _ := ni.WithoutPod("3")
	updated := without.WithPod(relabelled)
	asked = 0
	assert.Equal(t, int64(9), updated.CountPods("web", isWeb))
	assert.Equal(t, 2, asked, "the base's answer, adjusted for the pod removed and the pod added")
	assert.Nil(t, updated.counts.base.base, "a base has no base of its own")

	asked = 0
	assert.Equal(t, int64(10), ni.CountPods("web", isWeb))
	assert.Equal(t, 0, asked, "the predecessor keeps its answers")
	assert.Equal(t, int64(1), updated.CountPods("db", func(p *api.Pod) bool { asked++; return p.Labels["app"] == "db" }))
	assert.Equal(t, 10, asked, "a question the base never answered is counted afresh")

	far := updated
	for i := range maxPodChanges + 1 {
		far = far.WithPod(web(fmt.Sprint("new-", i)))
	}
	asked = 0
	assert.Equal(t, int64(9+maxPodChanges+1), far.CountPods("web", isWeb))
	assert.Equal(t, 10+maxPodChanges+1, asked, "more than maxPodChanges changes from any answer: counted afresh")
}

func TestDerivedPodCountsEqualAFreshCountWhateverTheOrderOfChangesAndQuestions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	apps := []string{"web", "db", "cache"}
	ni := NewNodeInfo(node)
	var infos []*NodeInfo // every NodeInfo made, old ones asked too
	next := 0
	for range 2000 {
		switch {
		case len(ni.Pods) > 0 && rng.IntN(3) == 0:
			victim := ni.Pods[rng.IntN(len(ni.Pods))].Pod
			ni, _ = ni.WithoutPod(victim.UID)
			if rng.IntN(2) == 0 { // an update: the new version back at once
				cp := api.DeepCopy(victim)
				cp.Labels = map[string]string{"app": apps[rng.IntN(len(apps))]}
				ni = ni.WithPod(NewPodInfo(cp))
			}
		default:
			next++
			ni = ni.WithPod(NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint(next), UID: fmt.Sprint(next),
				Labels: map[string]string{"app": apps[rng.IntN(len(apps))]}}}))
		}
		infos = append(infos, ni)
		for range rng.IntN(3) {
			asked := infos[rng.IntN(len(infos))]
			app := apps[rng.IntN(len(apps))]
			match := func(p *api.Pod) bool { return p.Labels["app"] == app }
			require.Equal(t, countPods(asked.Pods, match), asked.CountPods(app, match))
		}
	}
}
