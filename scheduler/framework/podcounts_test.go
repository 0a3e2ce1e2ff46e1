package framework

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/labels"
)

func labelledPod(name, namespace string, podLabels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace, UID: namespace + "/" + name, Labels: podLabels}}
}

func TestPodsOfOneNamespaceWithTheSameLabelsAndTerminationShareAClass(t *testing.T) {
	web := NewPodInfo(labelledPod("a", "default", map[string]string{"app": "web", "tier": "front"}))
	sibling := NewPodInfo(labelledPod("b", "default", map[string]string{"tier": "front", "app": "web"}))
	assert.Same(t, web.class, sibling.class, "the same labels, whatever the pods' names")

	other := labelledPod("c", "other", map[string]string{"app": "web", "tier": "front"})
	relabelled := labelledPod("d", "default", map[string]string{"app": "web"})
	terminating := labelledPod("e", "default", map[string]string{"app": "web", "tier": "front"})
	terminating.DeletionTimestamp = &api.Time{}
	for _, p := range []*api.Pod{other, relabelled, terminating} {
		assert.NotSame(t, web.class, NewPodInfo(p).class, p.Name)
	}
	assert.Same(t, NewPodInfo(labelledPod("f", "default", nil)).class, NewPodInfo(labelledPod("g", "default", map[string]string{})).class,
		"no labels and empty labels are the same to a selector")

	seen := CountedPod(terminating)
	assert.Equal(t, &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Labels: terminating.Labels, DeletionTimestamp: &api.Time{}}}, seen,
		"a question sees the namespace, the labels and whether the pod terminates, nothing else")
	runtime.KeepAlive(web)
	runtime.KeepAlive(sibling)
}

func TestAQuestionTestsEachClassOnceForAllNodes(t *testing.T) {
	var nodes []*NodeInfo
	for i := range 4 {
		ni := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("node-", i)}})
		for j := range 6 {
			app := []string{"web", "db", "cache"}[j%3]
			ni = ni.WithPod(NewPodInfo(labelledPod(fmt.Sprintf("%s%d%d", app, i, j), "classes-once", map[string]string{"app": app})))
		}
		nodes = append(nodes, ni)
	}
	asked := 0
	isWeb := func(p *api.Pod) bool { asked++; return p.Namespace == "classes-once" && p.Labels["app"] == "web" }
	key := NewCountKey(t.Name() + "web")
	for _, ni := range nodes {
		assert.Equal(t, int64(2), ni.CountPodsKey(key, isWeb))
	}
	tested := asked
	assert.GreaterOrEqual(t, tested, 3, "every class there is, once")
	for _, ni := range nodes {
		assert.Equal(t, int64(2), ni.CountPodsKey(NewCountKey(t.Name()+"web"), isWeb))
	}
	assert.Equal(t, tested, asked, "asked again, of every node: no pod and no class is matched again")

	more := nodes[0].WithPod(NewPodInfo(labelledPod("new", "classes-once", map[string]string{"app": "web", "version": "2"})))
	assert.Equal(t, int64(3), more.CountPodsKey(key, isWeb))
	assert.Equal(t, tested+1, asked, "a class made since is tested once")
	fewer, _ := more.WithoutPod("classes-once/web00")
	assert.Equal(t, int64(2), fewer.CountPodsKey(key, isWeb))
	assert.Equal(t, tested+1, asked)

	defer SetPodCountMemo(SetPodCountMemo(false))
	asked = 0
	assert.Equal(t, int64(2), fewer.CountPodsKey(key, isWeb))
	assert.Equal(t, len(fewer.Pods), asked, "with the index off, every call counts afresh")
}

func TestCountsByClassEqualAFreshCountWhateverTheOrderOfChangesAndQuestions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	apps := []string{"web", "db", "cache"}
	namespaces := []string{"default", "other"}
	// Questions of every shape: one class, several, every class of a namespace (more classes than
	// a node holds), and ones that care about terminating pods or not.
	type question struct {
		key string
		sel labels.Selector
		ns  string
		all bool // terminating pods count too
	}
	var questions []question
	for _, s := range []string{"app=web", "app in (db,web)", "app", "!app", "pod", "app=web,pod=3"} {
		sel, err := labels.Parse(s)
		require.NoError(t, err)
		for _, ns := range namespaces {
			questions = append(questions, question{s + ns, sel, ns, false}, question{s + ns + "+terminating", sel, ns, true})
		}
	}
	randomPod := func(name string) *api.Pod {
		p := labelledPod(name, namespaces[rng.IntN(len(namespaces))], map[string]string{})
		if rng.IntN(5) > 0 {
			p.Labels["app"] = apps[rng.IntN(len(apps))]
		}
		if rng.IntN(4) == 0 { // a label of its own, as a StatefulSet's pod has
			p.Labels["pod"] = fmt.Sprint(rng.IntN(20))
		}
		if rng.IntN(6) == 0 {
			p.DeletionTimestamp = &api.Time{}
		}
		return p
	}
	ni := NewNodeInfo(node)
	var infos []*NodeInfo // every NodeInfo made, old ones asked too
	next := 0
	for range 3000 {
		switch {
		case len(ni.Pods) > 0 && rng.IntN(3) == 0:
			victim := ni.Pods[rng.IntN(len(ni.Pods))].Pod
			ni, _ = ni.WithoutPod(victim.UID)
			if rng.IntN(2) == 0 { // an update: the new version back at once
				cp := randomPod(victim.Name)
				cp.Namespace, cp.UID = victim.Namespace, victim.UID
				ni = ni.WithPod(NewPodInfo(cp))
			}
		default:
			next++
			ni = ni.WithPod(NewPodInfo(randomPod(fmt.Sprint(next))))
		}
		infos = append(infos, ni)
		for range rng.IntN(4) {
			asked := infos[rng.IntN(len(infos))]
			q := questions[rng.IntN(len(questions))]
			match := func(p *api.Pod) bool {
				return (q.all || p.DeletionTimestamp == nil) && p.Namespace == q.ns && q.sel.Matches(labels.Set(p.Labels))
			}
			require.Equal(t, countPods(asked.Pods, match), asked.CountPods(t.Name()+q.key, match), q.key)
		}
		if rng.IntN(500) == 0 {
			runtime.GC() // classes of pods no longer held are forgotten between questions
		}
	}
}

// classesHeld counts the classes the table holds (weakly) and those still alive.
func classesHeld() (all, byHash int) {
	classes.mu.Lock()
	defer classes.mu.Unlock()
	for _, refs := range classes.byHash {
		byHash += len(refs)
	}
	return len(classes.all), byHash
}

func TestClassesNoPodHoldsAreForgottenAndSoAreTheirIDs(t *testing.T) {
	key := NewCountKey(t.Name())
	everyPod := func(p *api.Pod) bool { return p.Namespace == "forgotten" }
	node := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	_, before := classesHeld()
	// A StatefulSet-like churn: every pod has a label of its own, so a class of its own; the node
	// holds at most 10 at a time.
	ni := node
	for i := range 2000 {
		ni = ni.WithPod(NewPodInfo(labelledPod(fmt.Sprint(i), "forgotten", map[string]string{"pod": fmt.Sprint(i)})))
		if i >= 10 {
			ni, _ = ni.WithoutPod(fmt.Sprint("forgotten/", i-10))
		}
		require.Equal(t, int64(min(i+1, 10)), ni.CountPodsKey(key, everyPod))
		if i%50 == 0 {
			runtime.GC()
		}
	}
	// The cleanups run on their own goroutine after a collection: collect until they have.
	all, byHash := classesHeld()
	for i := 0; i < 100 && byHash-before > 100; i++ {
		runtime.GC()
		runtime.Gosched()
		all, byHash = classesHeld()
	}
	assert.Less(t, byHash-before, 100, "of 2,000 classes made, the 10 a node holds stay (and any not collected yet)")
	assert.Less(t, all, 2*byHash+2, "the table's list drops the forgotten ones")
	assert.Equal(t, int64(10), ni.CountPodsKey(key, everyPod))
	// A question drops them from its list when the list has doubled since it last did: so the list
	// is at most twice what was held or not yet collected then (a few hundred), not 2,000.
	assert.Less(t, len(key.matches.state.Load().ids), 500, "a question drops the forgotten classes from its list")
	runtime.KeepAlive(ni)
}

func TestQuestionsAndSumsAreBounded(t *testing.T) {
	ni := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	for i := range 3 {
		ni = ni.WithPod(NewPodInfo(labelledPod(fmt.Sprint(i), "default", nil)))
	}
	all := func(*api.Pod) bool { return true }
	for i := range maxCountKeys + 10 {
		require.Equal(t, int64(3), ni.CountPods(fmt.Sprint("bounded-", i), all))
	}
	countKeys.mu.Lock()
	assert.Len(t, countKeys.m, maxCountKeys, "at most maxCountKeys questions")
	countKeys.mu.Unlock()

	snap := NewSnapshot([]*NodeInfo{ni})
	for i := range maxDomainCounts + 2 {
		assert.Equal(t, map[string]int64{"": 3}, snap.DomainCounts(fmt.Sprint("bounded-", i), api.LabelTopologyZone, all))
	}
	assert.Len(t, snap.domains, maxDomainCounts, "at most maxDomainCounts sums")
}

// A node's class bits never rule out a class it counts, and for a node of one class they rule out
// nearly every other: the count is then 0 without a look at the node's list.
func TestClassBitsNeverRuleOutAClassTheNodeHas(t *testing.T) {
	var counts []classCount
	for id := uint64(0); id < 300; id += 7 {
		counts = append(counts, classCount{id: id, n: 1})
	}
	b := classBitsOf(counts)
	for _, cc := range counts {
		assert.True(t, b.mayHave(cc.id), "class %d", cc.id)
	}
	one := classBitsOf([]classCount{{id: 5, n: 1}})
	ruledOut := 0
	for id := uint64(0); id < 1000; id++ {
		if id != 5 && !one.mayHave(id) {
			ruledOut++
		}
	}
	assert.Greater(t, ruledOut, 980, "of 999 other classes")

	ni := NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	web := NewPodInfo(labelledPod("web", "default", map[string]string{"app": "web"}))
	ni = ni.WithPod(web)
	assert.True(t, ni.classBits.mayHave(web.class.id), "WithPod sets the bit")
	ni, _ = ni.WithoutPod(web.Pod.UID)
	assert.Equal(t, classBits{}, ni.classBits, "WithoutPod clears it with the last pod of the class")
}
