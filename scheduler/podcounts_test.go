// podcounts_test.go: PodTopologySpread and InterPodAffinity give the same verdicts and scores
// whether the NodeInfos answer from their counts by pod class (framework/podcounts.go) or count
// afresh, as the cluster changes under a scheduler whose questions remember the classes they pick.
package scheduler

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

func appPod(name, nodeName string, app string) *api.Pod {
	p := perfPod(0)
	p.Name, p.UID, p.Spec.NodeName = name, "uid-"+name, nodeName
	p.Labels = map[string]string{"app": app}
	return p
}

func selectApp(app string) *api.LabelSelector {
	return &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

// memoIncomingPods ask every question the two plugins ask: the default constraints of a
// ReplicaSet's pod, a pod's own DoNotSchedule and ScheduleAnyway constraints, and every kind of
// pod affinity term.
func memoIncomingPods() []*api.Pod {
	rsPod := perfReplicaSetPod(99, 1000) // in ReplicaSet web-000, app=web-000
	spread := appPod("spread", "", "web-000")
	spread.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: selectApp("web-000")},
		{MaxSkew: 1, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: selectApp("db")},
	}
	affine := appPod("affine", "", "cache")
	affine.Spec.Affinity = &api.Affinity{
		PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{TopologyKey: api.LabelTopologyZone, LabelSelector: selectApp("db")}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
				{Weight: 10, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: api.LabelHostname, LabelSelector: selectApp("web-000")}}},
		},
		PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{TopologyKey: api.LabelHostname, LabelSelector: selectApp("cache")}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
				{Weight: 7, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: api.LabelTopologyZone, LabelSelector: selectApp("db")}}},
		},
	}
	return []*api.Pod{rsPod, spread, affine}
}

func TestVerdictsAndScoresAreTheSameWithTheMemoOfPodCountsAsWithout(t *testing.T) {
	s, err := newScheduler(Options{Seed: 1, Parallelism: 2})
	require.NoError(t, err)
	s.fixed = &FixedCluster{ReplicaSets: []*api.ReplicaSet{perfReplicaSet(0)}}
	for i := range 6 {
		n := perfNode(i)
		n.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", i%3)
		s.cache.AddNode(n)
	}
	spreadScores := map[int64]bool{}
	explainBoth := func(step string) {
		t.Helper()
		for _, p := range memoIncomingPods() {
			remembered, err := s.Explain(p)
			require.NoError(t, err)
			framework.SetPodCountMemo(false)
			fresh, err := s.Explain(p)
			framework.SetPodCountMemo(true)
			require.NoError(t, err)
			require.Equal(t, fresh, remembered, "%s: %s", step, p.Name)
			for _, n := range remembered.Nodes {
				for _, sc := range n.Scores {
					if sc.Plugin == "PodTopologySpread" {
						spreadScores[sc.Raw] = true
					}
				}
			}
		}
	}
	var pods []*api.Pod
	for i := range 12 {
		app := []string{"web-000", "db", "cache"}[i%3]
		p := appPod(fmt.Sprintf("%s-%d", app, i), fmt.Sprintf("node-%05d", i%5), app)
		s.cache.AddPod(p)
		pods = append(pods, p)
	}
	explainBoth("start")

	s.cache.AddPod(appPod("web-new", "node-00001", "web-000"))
	explainBoth("a pod added")

	relabelled := api.DeepCopy(pods[0])
	relabelled.Labels["app"] = "db"
	s.cache.UpdatePod(pods[0], relabelled)
	explainBoth("a pod relabelled")

	n := perfNode(2)
	n.Labels[api.LabelTopologyZone] = "zone-0"
	s.cache.UpdateNode(nil, n)
	explainBoth("a node moved to another zone")

	s.cache.RemovePod(pods[4])
	explainBoth("a pod removed")

	terminating := api.DeepCopy(pods[3])
	terminating.DeletionTimestamp = &api.Time{}
	s.cache.UpdatePod(pods[3], terminating)
	explainBoth("a pod terminating")

	assert.Greater(t, len(spreadScores), 2, "the spread scores differ between nodes: the test compares something")
}
