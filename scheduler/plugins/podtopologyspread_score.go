// podtopologyspread_score.go: the PodTopologySpread plugin, scoring half (ScheduleAnyway
// constraints). A node scores the matching pods of its domains, weighted by log(number of domains +
// 2) so that a constraint over many small domains (nodes) weighs more than one over a few large ones
// (zones); NormalizeScore then turns "fewest pods" into "highest score".
package plugins

import (
	"context"
	"fmt"
	"math"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

const spreadPreScoreKey framework.StateKey = "PreScore" + PodTopologySpreadName

// spreadScoreState is the PreScore state.
type spreadScoreState struct {
	constraints []spreadConstraint
	// ignored are feasible nodes without every topology key: they score 0.
	ignored map[string]bool
	// counts[i] maps a domain of constraint i to its matching pods (hostname domains are counted
	// directly on the node in Score).
	counts  []map[string]int64
	weights []float64
}

func (s *spreadScoreState) Clone() framework.StateData { return s }

// PreScore finds the domains among the feasible nodes and counts their matching pods over all nodes
// the pod could use. A pod without ScheduleAnyway constraints skips scoring. With the pod's own
// constraints a node must carry every topology key to count; with the system defaults it need not
// (a node without a zone label is still spread over by hostname, and its missing zone is a domain of
// its own, "").
func (pl *PodTopologySpread) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	requireAllTopologies := len(pod.Spec.TopologySpreadConstraints) > 0
	constraints, err := pl.constraints(pod, api.ScheduleAnyway)
	if err != nil {
		return framework.AsStatus(fmt.Errorf("parsing topology spread constraints: %w", err))
	}
	if len(constraints) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	s := &spreadScoreState{constraints: constraints, ignored: map[string]bool{},
		counts: make([]map[string]int64, len(constraints)), weights: make([]float64, len(constraints))}
	for i := range s.counts {
		s.counts[i] = map[string]int64{}
	}
	// labelled[i] says whether any node scored carries constraint i's key: Score reads the counts
	// only for such nodes, so without one they need not be summed (a cluster without zone labels
	// under the default constraints; the weights still count the domains, "" included).
	labelled := make([]bool, len(constraints))
	for _, ni := range nodes {
		if requireAllTopologies && !nodeHasKeys(ni, constraints) {
			s.ignored[ni.Name()] = true
			continue
		}
		for i, c := range constraints {
			if c.TopologyKey != api.LabelHostname {
				value, ok := ni.TopologyValue(c.TopologyKey)
				s.counts[i][value] += 0
				labelled[i] = labelled[i] || ok
			}
		}
	}
	for i, c := range constraints {
		size := len(s.counts[i])
		if c.TopologyKey == api.LabelHostname {
			size = len(nodes) - len(s.ignored)
		}
		s.weights[i] = math.Log(float64(size + 2))
	}
	snap := pl.handle.SnapshotSharedLister()
	// With the system defaults and a pod that may go to any node, every node counts: the snapshot
	// keeps the sums per domain from one cycle to the next. Otherwise the nodes that count are
	// this pod's, and their counts are added up here.
	everyNode := !requireAllTopologies && selectsEveryNode(pod)
	for i := range constraints {
		c := &constraints[i]
		if c.TopologyKey == api.LabelHostname || !labelled[i] {
			continue // each node is its own domain: Score counts it; or Score reads no count
		}
		if everyNode {
			for value, n := range snap.DomainCounts(c.countKey.String(), c.TopologyKey, c.matches) {
				if hasKey(s.counts[i], value) {
					s.counts[i][value] += n
				}
			}
			continue
		}
		for _, ni := range snap.List() {
			if !podMatchesNodeSelectorAndAffinity(pod, ni.Node()) || (requireAllTopologies && !nodeHasKeys(ni, constraints)) {
				continue
			}
			if value, _ := ni.TopologyValue(c.TopologyKey); hasKey(s.counts[i], value) {
				s.counts[i][value] += c.countMatching(ni)
			}
		}
	}
	state.Write(spreadPreScoreKey, s)
	return nil
}

// Score sums, over the constraints, count * weight + (maxSkew - 1).
func (pl *PodTopologySpread) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	data, err := state.Read(spreadPreScoreKey)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	s := data.(*spreadScoreState)
	if s.ignored[ni.Name()] {
		return 0, nil
	}
	var score float64
	for i := range s.constraints {
		c := &s.constraints[i]
		value, ok := ni.TopologyValue(c.TopologyKey)
		if !ok {
			continue
		}
		cnt := s.counts[i][value]
		if c.TopologyKey == api.LabelHostname {
			cnt = c.countMatching(ni)
		}
		score += float64(cnt)*s.weights[i] + float64(c.MaxSkew-1)
	}
	return int64(math.Round(score)), nil
}

// ScoreExtensions returns the plugin itself.
func (pl *PodTopologySpread) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the most crowded node to the lowest score; ignored nodes get 0.
func (pl *PodTopologySpread) NormalizeScore(_ context.Context, state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	data, err := state.Read(spreadPreScoreKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	s := data.(*spreadScoreState)
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, sc := range scores {
		if s.ignored[sc.Name] {
			continue
		}
		lo, hi = min(lo, sc.Score), max(hi, sc.Score)
	}
	for i := range scores {
		switch {
		case s.ignored[scores[i].Name]:
			scores[i].Score = 0
		case hi == 0:
			scores[i].Score = framework.MaxNodeScore
		default:
			scores[i].Score = framework.MaxNodeScore * (hi + lo - scores[i].Score) / hi
		}
	}
	return nil
}

func hasKey(m map[string]int64, key string) bool {
	_, ok := m[key]
	return ok
}
