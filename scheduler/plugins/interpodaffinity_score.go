// interpodaffinity_score.go: the InterPodAffinity plugin, scoring half. Every preferred term adds its
// weight to (or, for anti-affinity, takes it from) the domains where matching pods run; so do the
// terms of the pods already running that mention the incoming pod, with a required affinity term of
// theirs counting 1. A node's score is the sum over its domains, rescaled between the worst node (0)
// and the best (100).
package plugins

import (
	"context"
	"math"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

const interPodAffinityPreScoreKey framework.StateKey = "PreScore" + InterPodAffinityName

// scoreMap is topology key -> value -> score.
type scoreMap map[string]map[string]int64

func (m scoreMap) Clone() framework.StateData { return m }

func (m scoreMap) processTerm(t *framework.AffinityTerm, weight int64, pod *api.Pod, node *api.Node) {
	if t.Matches(pod) {
		m.add(t.TopologyKey, node, weight)
	}
}

// add adds weight to node's domain of key, if the node has that label.
func (m scoreMap) add(key string, node *api.Node, weight int64) {
	value, ok := node.Labels[key]
	if !ok {
		return
	}
	if m[key] == nil {
		m[key] = map[string]int64{}
	}
	m[key][value] += weight
}

// weightedCount is a preferred term of the incoming pod, asked of every node, with its signed weight.
type weightedCount struct {
	termCount
	weight int64
}

func (m scoreMap) processTerms(terms []framework.WeightedAffinityTerm, pod *api.Pod, node *api.Node, sign int64) {
	for i := range terms {
		m.processTerm(&terms[i].AffinityTerm, sign*int64(terms[i].Weight), pod, node)
	}
}

// PreScore builds the score of every domain. Without preferred terms of its own, the pod only needs
// the nodes whose pods have affinity terms; if no term matches anywhere the plugin skips.
func (pl *InterPodAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*framework.NodeInfo) *framework.Status {
	pi := framework.NewPodInfo(pod)
	hasPreferred := len(pi.PreferredAffinityTerms)+len(pi.PreferredAntiAffinityTerms) > 0
	snap := pl.handle.SnapshotSharedLister()
	if !hasPreferred && !snap.HavePodsWithAffinity() {
		return framework.NewStatus(framework.Skip)
	}
	// The pod's preferred terms ask each node how many of its pods match (the NodeInfo's counts by
	// pod class answer, framework/podcounts.go); the terms of the pods already there are
	// matched against the pod, on the nodes that have such pods.
	var preferred []weightedCount
	for i := range pi.PreferredAffinityTerms {
		t := &pi.PreferredAffinityTerms[i]
		preferred = append(preferred, weightedCount{termCount: newTermCount(&t.AffinityTerm), weight: int64(t.Weight)})
	}
	for i := range pi.PreferredAntiAffinityTerms {
		t := &pi.PreferredAntiAffinityTerms[i]
		preferred = append(preferred, weightedCount{termCount: newTermCount(&t.AffinityTerm), weight: -int64(t.Weight)})
	}
	m := scoreMap{}
	for _, ni := range snap.List() {
		node := ni.Node()
		if len(node.Labels) == 0 {
			continue
		}
		for i := range preferred {
			q := &preferred[i]
			if n := q.count(ni); n > 0 {
				m.add(q.term.TopologyKey, node, n*q.weight)
			}
		}
		for _, existing := range ni.PodsWithAffinity {
			for i := range existing.RequiredAffinityTerms {
				m.processTerm(&existing.RequiredAffinityTerms[i], hardPodAffinityWeight, pod, node)
			}
			m.processTerms(existing.PreferredAffinityTerms, pod, node, 1)
			m.processTerms(existing.PreferredAntiAffinityTerms, pod, node, -1)
		}
	}
	if len(m) == 0 {
		return framework.NewStatus(framework.Skip) // no term matched anywhere: nothing to score
	}
	state.Write(interPodAffinityPreScoreKey, m)
	return nil
}

// Score sums the scores of the node's domains.
func (pl *InterPodAffinity) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	data, err := state.Read(interPodAffinityPreScoreKey)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	var score int64
	for key, values := range data.(scoreMap) {
		if v, ok := ni.Node().Labels[key]; ok {
			score += values[v]
		}
	}
	return score, nil
}

// ScoreExtensions returns the plugin itself.
func (pl *InterPodAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the lowest score to 0 and the highest to 100.
func (pl *InterPodAffinity) NormalizeScore(_ context.Context, state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	data, err := state.Read(interPodAffinityPreScoreKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	if len(data.(scoreMap)) == 0 {
		return nil
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range scores {
		lo, hi = min(lo, scores[i].Score), max(hi, scores[i].Score)
	}
	for i := range scores {
		var f float64
		if hi > lo {
			f = float64(framework.MaxNodeScore) * float64(scores[i].Score-lo) / float64(hi-lo)
		}
		scores[i].Score = int64(f)
	}
	return nil
}
