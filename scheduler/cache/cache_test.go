package cache_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/api/resource"
	"kubesim/scheduler/cache"
	"kubesim/scheduler/framework"
)

func node(name string) *api.Node {
	alloc := resource.ResourceList{resource.ResourceCPU: resource.MustParse("4"), resource.ResourceMemory: resource.MustParse("8Gi"),
		resource.ResourcePods: resource.MustParse("110")}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Allocatable: alloc}}
}

func pod(name, nodeName, cpu string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: nodeName, Containers: []api.Container{{Name: "c",
			Resources: api.ResourceRequirements{Requests: resource.ResourceList{resource.ResourceCPU: resource.MustParse(cpu)}}}}}}
}

func TestAssumedPodCountsUntilConfirmedOrForgotten(t *testing.T) {
	c := cache.New()
	c.AddNode(node("node-1"))
	p := pod("web", "node-1", "500m")
	require.NoError(t, c.AssumePod(p))
	assert.True(t, c.IsAssumedPod(p))
	assert.Error(t, c.AssumePod(p), "a pod is assumed once")
	assert.Equal(t, "node-1: 1 pods (1 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())

	c.FinishBinding(p)
	c.AddPod(p) // the informer reports it bound
	assert.False(t, c.IsAssumedPod(p))
	assert.Equal(t, "node-1: 1 pods (0 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())
	assert.Error(t, c.ForgetPod(p), "a confirmed pod cannot be forgotten")

	q := pod("db", "node-1", "1")
	require.NoError(t, c.AssumePod(q))
	require.NoError(t, c.ForgetPod(q))
	assert.Equal(t, "node-1: 1 pods (0 assumed), cpu 500m/4000m, memory 0Mi/8192Mi\n", c.Dump())
}

func TestAssumedPodThatLandsElsewhereMoves(t *testing.T) {
	c := cache.New()
	c.AddNode(node("node-1"))
	c.AddNode(node("node-2"))
	require.NoError(t, c.AssumePod(pod("web", "node-1", "1")))
	c.AddPod(pod("web", "node-2", "1"))
	assert.Equal(t, "node-1: 0 pods (0 assumed), cpu 0m/4000m, memory 0Mi/8192Mi\nnode-2: 1 pods (0 assumed), cpu 1000m/4000m, memory 0Mi/8192Mi\n", c.Dump())
}

func TestUpdateSnapshotCopiesOnlyWhatChangedAndMatchesAFreshSnapshot(t *testing.T) {
	c := cache.New()
	for i := 0; i < 5; i++ {
		c.AddNode(node(fmt.Sprintf("node-%d", i)))
	}
	s := &framework.Snapshot{}
	c.UpdateSnapshot(s)
	assert.Equal(t, 5, s.NumNodes())
	before := s.List()[3]

	c.AddPod(pod("a", "node-1", "1"))
	c.AddPod(pod("ghost", "node-9", "1")) // a node the cache has not seen: not in the snapshot
	c.UpdateSnapshot(s)
	assert.Same(t, before, s.List()[3], "unchanged nodes are not copied")
	ni, err := s.Get("node-1")
	require.NoError(t, err)
	assert.Len(t, ni.Pods, 1)
	assert.Equal(t, 5, s.NumNodes())

	c.AddNode(node("node-9"))
	c.RemoveNode(node("node-0"))
	c.UpdateSnapshot(s)
	fresh := c.Snapshot()
	require.Equal(t, fresh.NumNodes(), s.NumNodes())
	for i, n := range fresh.List() {
		assert.Same(t, n, s.List()[i])
	}
	ni, err = s.Get("node-9")
	require.NoError(t, err)
	assert.Len(t, ni.Pods, 1, "the pod that arrived before its node is counted")
}

func ExampleCache() {
	c := cache.New()
	c.AddNode(node("node-1"))
	web := pod("web", "node-1", "1500m")
	_ = c.AssumePod(web) // the scheduler chose node-1; the binding is on its way
	fmt.Print(c.Dump())
	_ = c.ForgetPod(web) // the binding failed
	fmt.Print(c.Dump())
	// Output:
	// node-1: 1 pods (1 assumed), cpu 1500m/4000m, memory 0Mi/8192Mi
	// node-1: 0 pods (0 assumed), cpu 0m/4000m, memory 0Mi/8192Mi
}

// podCountsCluster is the test's own record of where each pod is, to count against.
type podCountsCluster struct {
	t     *testing.T
	c     *cache.Cache
	snap  *framework.Snapshot
	pods  map[string]*api.Pod // by UID: the current version of every pod the cache holds
	zones map[string]string   // node name -> its zone label
}

// A question a plugin asks a node: how many pods in namespace, not terminating, the selector picks.
type podQuestion struct {
	key       string
	namespace string
	sel       labels.Selector
}

func (q podQuestion) matches(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Namespace == q.namespace && q.sel.Matches(labels.Set(p.Labels))
}

var podQuestions = func() []podQuestion {
	var out []podQuestion
	for _, ns := range []string{"default", "other"} {
		for _, s := range []string{"app=web", "app=db", "app in (db,web)", "app", "!app"} {
			sel, err := labels.Parse(s)
			if err != nil {
				panic(err)
			}
			out = append(out, podQuestion{key: ns + "/" + s, namespace: ns, sel: sel})
		}
	}
	return out
}()

// check refreshes the snapshot as a scheduling cycle does and asks every node every question, and
// the snapshot each question's sums per zone, twice (the second answer comes from what the first remembered): each
// answer must equal a count of the pods the test put there. A NodeInfo that kept an answer after its
// pods changed fails here, and so does a sum the refresh did not keep up to date.
func (pc *podCountsCluster) check(step string) {
	pc.t.Helper()
	pc.c.UpdateSnapshot(pc.snap)
	require.Len(pc.t, pc.snap.List(), len(pc.zones), step)
	// The questions of one namespace: fewer than the snapshot keeps sums for, so that each sum is
	// kept from one check to the next.
	for _, q := range podQuestions[:5] {
		want := map[string]int64{}
		for _, p := range pc.pods {
			if q.matches(p) {
				want[pc.zones[p.Spec.NodeName]]++
			}
		}
		for range 2 {
			require.Equal(pc.t, want, pc.snap.DomainCounts(q.key, api.LabelTopologyZone, q.matches), "%s: %s per zone", step, q.key)
		}
	}
	for _, ni := range pc.snap.List() {
		for _, q := range podQuestions {
			var want int64
			for _, p := range pc.pods {
				if p.Spec.NodeName == ni.Name() && q.matches(p) {
					want++
				}
			}
			for range 2 {
				require.Equal(pc.t, want, ni.CountPods(q.key, q.matches), "%s: %s on %s", step, q.key, ni.Name())
			}
		}
	}
}

func (pc *podCountsCluster) add(name, namespace, nodeName, app string) *api.Pod {
	p := pod(name, nodeName, "100m")
	p.Namespace, p.UID = namespace, "uid-"+namespace+"-"+name
	if app != "" {
		p.Labels = map[string]string{"app": app}
	}
	pc.c.AddPod(p)
	pc.pods[p.UID] = p
	return p
}

// update replaces a pod with a changed copy, as the informer reports an update.
func (pc *podCountsCluster) update(p *api.Pod, change func(*api.Pod)) *api.Pod {
	q := api.DeepCopy(p)
	change(q)
	pc.c.UpdatePod(p, q)
	pc.pods[q.UID] = q
	return q
}

func TestPodCountsEqualAFreshCountAfterEveryChange(t *testing.T) {
	pc := &podCountsCluster{t: t, c: cache.New(), snap: &framework.Snapshot{}, pods: map[string]*api.Pod{}, zones: map[string]string{}}
	for i := range 3 {
		pc.addNode(fmt.Sprintf("node-%d", i+1), fmt.Sprintf("zone-%d", i%2))
	}
	web1 := pc.add("web-1", "default", "node-1", "web")
	pc.add("web-2", "default", "node-2", "web")
	db := pc.add("db-1", "default", "node-1", "db")
	pc.add("web-1", "other", "node-1", "web")
	pc.add("plain", "default", "node-3", "")
	pc.check("start")

	web3 := pc.add("web-3", "default", "node-1", "web")
	pc.check("a pod added")

	web1 = pc.update(web1, func(p *api.Pod) { p.Labels["app"] = "db" })
	pc.check("a pod relabelled web -> db")
	pc.update(web1, func(p *api.Pod) { delete(p.Labels, "app") })
	pc.check("a pod's label removed")

	pc.addNode("node-2", "zone-9")
	pc.check("a node moved to another zone")

	pc.c.RemovePod(db)
	delete(pc.pods, db.UID)
	pc.check("a pod removed")

	pc.update(web3, func(p *api.Pod) { p.DeletionTimestamp = &api.Time{} })
	pc.check("a pod terminating")

	assumed := pod("web-4", "node-3", "100m")
	assumed.Labels = map[string]string{"app": "web"}
	require.NoError(t, pc.c.AssumePod(assumed))
	pc.pods[assumed.UID] = assumed
	pc.check("a pod assumed")
	require.NoError(t, pc.c.ForgetPod(assumed))
	delete(pc.pods, assumed.UID)
	pc.check("an assumed pod forgotten")

	moved := pc.add("web-5", "default", "node-2", "web")
	moved = api.DeepCopy(moved)
	moved.Spec.NodeName = "node-3"
	pc.c.AddPod(moved) // bound elsewhere than the cache thought
	pc.pods[moved.UID] = moved
	pc.check("a pod moved")

	pc.addNode("node-4", "zone-1")
	pc.add("web-6", "default", "node-4", "web")
	pc.check("a node added")
}

// addNode adds or updates a node in a zone.
func (pc *podCountsCluster) addNode(name, zone string) {
	n := node(name)
	n.Labels = map[string]string{api.LabelTopologyZone: zone}
	pc.c.AddNode(n)
	pc.zones[name] = zone
}
