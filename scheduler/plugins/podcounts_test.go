// podcounts_test.go: the questions PodTopologySpread and InterPodAffinity ask a NodeInfo's pod
// counts read only what the counts index by (framework.CountedPod): a pod's namespace, its labels
// and whether it is terminating. A question that read more would get, from the index, the answer of
// the first pod of each class for all of them.
package plugins

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

func TestPodCountQuestionsReadOnlyNamespaceLabelsAndTermination(t *testing.T) {
	app := func(v string) *api.LabelSelector { return &api.LabelSelector{MatchLabels: map[string]string{"app": v}} }
	// Every kind of question: a pod's own constraints and the defaults' (a given selector), and
	// one affinity term, all terms, an anti-affinity term with other namespaces.
	spreads, err := constraintsOf([]api.TopologySpreadConstraint{
		{MaxSkew: 1, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: app("web")},
		{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{
			MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"web", "db"}},
				{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist}}}},
	}, api.DoNotSchedule, nil, "default")
	require.NoError(t, err)
	dbSelector, err := app("db").AsSelector()
	require.NoError(t, err)
	defaults, err := constraintsOf(systemDefaultConstraints, api.ScheduleAnyway, dbSelector, "default")
	require.NoError(t, err)
	incoming := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "incoming", Namespace: "default"}, Spec: api.PodSpec{Affinity: &api.Affinity{
		PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
			{TopologyKey: api.LabelHostname, LabelSelector: app("web")},
			{TopologyKey: api.LabelTopologyZone, LabelSelector: &api.LabelSelector{
				MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpExists}}}},
		}},
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
			{TopologyKey: api.LabelHostname, LabelSelector: app("db"), Namespaces: []string{"default", "other"}},
		}},
	}}}
	pi := framework.NewPodInfo(incoming)
	questions := map[string]func(*api.Pod) bool{}
	for i := range spreads {
		questions[fmt.Sprint("spread ", i)] = spreads[i].matches
	}
	for i := range defaults {
		questions[fmt.Sprint("default spread ", i)] = defaults[i].matches
	}
	for i := range pi.RequiredAffinityTerms {
		q := newTermCount(&pi.RequiredAffinityTerms[i])
		questions[fmt.Sprint("affinity term ", i)] = q.matches
	}
	all := allTermsCount(pi.RequiredAffinityTerms)
	questions["all affinity terms"] = all.matches
	anti := newTermCount(&pi.RequiredAntiAffinityTerms[0])
	questions["anti-affinity term"] = anti.matches

	var pods []*api.Pod
	for i, l := range []map[string]string{{"app": "web"}, {"app": "web", "tier": "front"}, {"app": "db"}, {"app": "db", "canary": "1"}, nil} {
		for j, ns := range []string{"default", "other", "third"} {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("p", i, ns), Namespace: ns, UID: fmt.Sprint(i, j), Labels: l,
				Annotations: map[string]string{"a": "b"}, ResourceVersion: "7"},
				Spec:   api.PodSpec{NodeName: "node-1", Priority: api.Ptr(int32(i))},
				Status: api.PodStatus{Phase: api.PodRunning}}
			terminating := api.DeepCopy(p)
			terminating.DeletionTimestamp = &api.Time{}
			terminating.DeletionTimestamp.Time = terminating.DeletionTimestamp.Add(1e9)
			pods = append(pods, p, terminating)
		}
	}
	for name, match := range questions {
		picked := 0
		for _, p := range pods {
			got := match(p)
			require.Equal(t, got, match(framework.CountedPod(p)), "%s of %s (terminating: %v)", name, p.Name, p.DeletionTimestamp != nil)
			if got {
				picked++
			}
		}
		assert.True(t, picked > 0 && picked < len(pods), "%s picks some pods and not others: %d of %d", name, picked, len(pods))
	}
}
