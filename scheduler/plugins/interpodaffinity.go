// interpodaffinity.go: the InterPodAffinity plugin, filter half. Pod affinity says "put me where pods
// like X run"; anti-affinity "keep me away from where pods like X run"; "where" is a topology domain,
// the nodes sharing a label value (kubernetes.io/hostname: one node; topology.kubernetes.io/zone: a
// zone). PreFilter counts, once per pod, the matching pods in every domain; Filter then only looks up
// the node's domains:
//
//   - the pod's required affinity: each term needs a matching pod in the node's domain
//     (`node(s) didn't match pod affinity rules`), except for the first pod of a group that matches
//     its own terms, or it could never start;
//   - the pod's required anti-affinity: no matching pod in the node's domain
//     (`node(s) didn't match pod anti-affinity rules`);
//   - existing pods' required anti-affinity: no pod already running may object to this pod
//     (`node(s) didn't satisfy existing pods anti-affinity rules`).
//
// The scoring half is in interpodaffinity_score.go. How many of a node's pods match the incoming
// pod's terms comes from the NodeInfo's counts by pod class (framework/podcounts.go), as for
// PodTopologySpread.
package plugins

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// InterPodAffinityName is the plugin's name.
const InterPodAffinityName = "InterPodAffinity"

// The plugin's rejections.
const (
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	ErrReasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	ErrReasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
)

// hardPodAffinityWeight is what an existing pod's required affinity term adds to the score of the
// domain it points at (the HardPodAffinityWeight argument, default 1).
const hardPodAffinityWeight = 1

const interPodAffinityPreFilterKey framework.StateKey = "PreFilter" + InterPodAffinityName

// InterPodAffinity filters and scores by the pods already placed.
type InterPodAffinity struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*InterPodAffinity)(nil)
	_ framework.PreFilterExtensions = (*InterPodAffinity)(nil)
	_ framework.FilterPlugin        = (*InterPodAffinity)(nil)
	_ framework.PreScorePlugin      = (*InterPodAffinity)(nil)
	_ framework.ScorePlugin         = (*InterPodAffinity)(nil)
	_ framework.EnqueueExtensions   = (*InterPodAffinity)(nil)
)

// NewInterPodAffinity is the plugin's factory.
func NewInterPodAffinity(h framework.Handle) (framework.Plugin, error) {
	return &InterPodAffinity{handle: h}, nil
}

// Name returns InterPodAffinityName.
func (*InterPodAffinity) Name() string { return InterPodAffinityName }

// EventsToRegister: pods coming, going or relabelled change the counts; so do node labels.
func (*InterPodAffinity) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.AssignedPod, ActionType: framework.Add | framework.Delete | framework.UpdatePodLabel},
		{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel},
	}
}

// topologyPair is one domain: a topology key and its value.
type topologyPair struct{ key, value string }

// topologyToCount counts pods per domain.
type topologyToCount map[topologyPair]int64

func (m topologyToCount) clone() topologyToCount {
	out := make(topologyToCount, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (m topologyToCount) update(node *api.Node, key string, delta int64) {
	value, ok := node.Labels[key]
	if !ok {
		return
	}
	pair := topologyPair{key, value}
	m[pair] += delta
	if m[pair] == 0 {
		delete(m, pair)
	}
}

// updateWithAffinityTerms counts pod in each term's domain if it matches all the terms.
func (m topologyToCount) updateWithAffinityTerms(terms []framework.AffinityTerm, pod *api.Pod, node *api.Node, delta int64) {
	if !matchesAllTerms(terms, pod) {
		return
	}
	for i := range terms {
		m.update(node, terms[i].TopologyKey, delta)
	}
}

// updateWithAntiAffinityTerms counts pod in the domain of each term it matches.
func (m topologyToCount) updateWithAntiAffinityTerms(terms []framework.AffinityTerm, pod *api.Pod, node *api.Node, delta int64) {
	for i := range terms {
		if terms[i].Matches(pod) {
			m.update(node, terms[i].TopologyKey, delta)
		}
	}
}

func matchesAllTerms(terms []framework.AffinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].Matches(pod) {
			return false
		}
	}
	return true
}

// termCount is a question to every node: how many of its pods match term (or, with all set, every
// one of all's terms), under a key that names it to the NodeInfo's pod counts.
type termCount struct {
	term *framework.AffinityTerm
	all  []framework.AffinityTerm
	key  framework.CountKey
}

// newTermCount asks how many pods match t.
func newTermCount(t *framework.AffinityTerm) termCount {
	return termCount{term: t, key: framework.NewCountKey(InterPodAffinityName + "\x00" + termKey(t))}
}

// allTermsCount asks how many pods match every one of terms (none when there are no terms).
func allTermsCount(terms []framework.AffinityTerm) termCount {
	key := InterPodAffinityName + "\x00all"
	for i := range terms {
		key += "\x00" + termKey(&terms[i])
	}
	return termCount{all: terms, key: framework.NewCountKey(key)}
}

// termKey names the pods a term selects: its namespaces and its selector (the topology key does
// not choose pods).
func termKey(t *framework.AffinityTerm) string {
	return strings.Join(t.Namespaces, ",") + "\x01" + selectorKey(t.Selector)
}

func (q *termCount) matches(p *api.Pod) bool {
	if q.term != nil {
		return q.term.Matches(p)
	}
	return matchesAllTerms(q.all, p)
}

// count answers the question for ni's pods.
func (q *termCount) count(ni *framework.NodeInfo) int64 {
	if q.term == nil && len(q.all) == 0 {
		return 0
	}
	return ni.CountPodsKey(q.key, q.matches)
}

// affinityState is the PreFilter state.
type affinityState struct {
	podInfo *framework.PodInfo
	// existingAntiAffinityCounts: domains where an existing pod's required anti-affinity term
	// matches the incoming pod.
	existingAntiAffinityCounts topologyToCount
	// affinityCounts: domains with existing pods matching all the incoming pod's affinity terms.
	affinityCounts topologyToCount
	// antiAffinityCounts: domains with existing pods matching one of its anti-affinity terms.
	antiAffinityCounts topologyToCount
}

func (s *affinityState) Clone() framework.StateData {
	return &affinityState{podInfo: s.podInfo, existingAntiAffinityCounts: s.existingAntiAffinityCounts.clone(),
		affinityCounts: s.affinityCounts.clone(), antiAffinityCounts: s.antiAffinityCounts.clone()}
}

// updateWithPod adds (delta 1) or removes (delta -1) an existing pod on node.
func (s *affinityState) updateWithPod(existing *framework.PodInfo, node *api.Node, delta int64) {
	s.existingAntiAffinityCounts.updateWithAntiAffinityTerms(existing.RequiredAntiAffinityTerms, s.podInfo.Pod, node, delta)
	s.affinityCounts.updateWithAffinityTerms(s.podInfo.RequiredAffinityTerms, existing.Pod, node, delta)
	s.antiAffinityCounts.updateWithAntiAffinityTerms(s.podInfo.RequiredAntiAffinityTerms, existing.Pod, node, delta)
}

// PreFilter counts the matching pods per domain. It skips the Filter when the pod has no required
// terms and no running pod has required anti-affinity: then there is nothing to check.
func (pl *InterPodAffinity) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	pi := framework.NewPodInfo(pod)
	if pi.ParseError != nil {
		return nil, framework.AsStatus(fmt.Errorf("parsing pod: %w", pi.ParseError))
	}
	snap := pl.handle.SnapshotSharedLister()
	hasTerms := len(pi.RequiredAffinityTerms)+len(pi.RequiredAntiAffinityTerms) > 0
	if !hasTerms && !snap.HavePodsWithRequiredAntiAffinity() {
		return nil, framework.NewStatus(framework.Skip)
	}
	s := &affinityState{podInfo: pi, existingAntiAffinityCounts: topologyToCount{},
		affinityCounts: topologyToCount{}, antiAffinityCounts: topologyToCount{}}
	// The pod's own terms ask each node how many of its pods match (all its affinity terms, each of
	// its anti-affinity terms): questions the NodeInfo's counts by pod class answer without looking
	// at the pods.
	all := allTermsCount(pi.RequiredAffinityTerms)
	anti := make([]termCount, len(pi.RequiredAntiAffinityTerms))
	for i := range anti {
		anti[i] = newTermCount(&pi.RequiredAntiAffinityTerms[i])
	}
	for _, ni := range snap.List() {
		node := ni.Node()
		for _, existing := range ni.PodsWithRequiredAntiAffinity {
			s.existingAntiAffinityCounts.updateWithAntiAffinityTerms(existing.RequiredAntiAffinityTerms, pod, node, 1)
		}
		if n := all.count(ni); n > 0 {
			for i := range pi.RequiredAffinityTerms {
				s.affinityCounts.update(node, pi.RequiredAffinityTerms[i].TopologyKey, n)
			}
		}
		for i := range anti {
			if n := anti[i].count(ni); n > 0 {
				s.antiAffinityCounts.update(node, anti[i].term.TopologyKey, n)
			}
		}
	}
	if !hasTerms && len(s.existingAntiAffinityCounts) == 0 {
		// No existing pod's anti-affinity selects this pod: nothing to check, as in Kubernetes.
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(interPodAffinityPreFilterKey, s)
	return nil, nil
}

// PreFilterExtensions returns the plugin itself: preemption and nominated pods change the counts.
func (pl *InterPodAffinity) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts a pod imagined onto nodeInfo's node.
func (pl *InterPodAffinity) AddPod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToAdd *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	return updateAffinityState(state, podToAdd, ni, 1)
}

// RemovePod uncounts a pod imagined gone from nodeInfo's node.
func (pl *InterPodAffinity) RemovePod(_ context.Context, state *framework.CycleState, _ *api.Pod, podToRemove *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	return updateAffinityState(state, podToRemove, ni, -1)
}

func updateAffinityState(state *framework.CycleState, pi *framework.PodInfo, ni *framework.NodeInfo, delta int64) *framework.Status {
	data, err := state.Read(interPodAffinityPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	data.(*affinityState).updateWithPod(pi, ni.Node(), delta)
	return nil
}

// Filter checks the three rules in Kubernetes' order.
func (pl *InterPodAffinity) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, ni *framework.NodeInfo) *framework.Status {
	data, err := state.Read(interPodAffinityPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	s := data.(*affinityState)
	node := ni.Node()
	if !s.satisfiesPodAffinity(node) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	}
	if !s.satisfiesPodAntiAffinity(node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	}
	if !s.satisfiesExistingPodsAntiAffinity(node) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	}
	return nil
}

func (s *affinityState) satisfiesPodAffinity(node *api.Node) bool {
	podsExist := true
	for _, t := range s.podInfo.RequiredAffinityTerms {
		value, ok := node.Labels[t.TopologyKey]
		if !ok {
			return false // the node must have every topology key
		}
		if s.affinityCounts[topologyPair{t.TopologyKey, value}] <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	// The first pod of a group with affinity to itself: no pod anywhere matches yet, but the pod
	// matches its own terms. Let it in, or the group could never start.
	return len(s.affinityCounts) == 0 && matchesAllTerms(s.podInfo.RequiredAffinityTerms, s.podInfo.Pod)
}

func (s *affinityState) satisfiesPodAntiAffinity(node *api.Node) bool {
	if len(s.antiAffinityCounts) == 0 {
		return true
	}
	for _, t := range s.podInfo.RequiredAntiAffinityTerms {
		if value, ok := node.Labels[t.TopologyKey]; ok && s.antiAffinityCounts[topologyPair{t.TopologyKey, value}] > 0 {
			return false
		}
	}
	return true
}

func (s *affinityState) satisfiesExistingPodsAntiAffinity(node *api.Node) bool {
	if len(s.existingAntiAffinityCounts) == 0 {
		return true
	}
	for key, value := range node.Labels {
		if s.existingAntiAffinityCounts[topologyPair{key, value}] > 0 {
			return false
		}
	}
	return true
}
