// podtopologyspread.go: the PodTopologySpread plugin. A topologySpreadConstraint keeps the number of
// matching pods in each topology domain (each zone, each node) within maxSkew of the emptiest
// domain. whenUnsatisfiable: DoNotSchedule makes it a filter
// (`node(s) didn't match pod topology spread constraints`), ScheduleAnyway a score that prefers the
// emptier domains. Only nodes the pod could land on (its nodeSelector and required node affinity)
// and that carry the topology label count as domains. The score half is in
// podtopologyspread_score.go. Each node's count of matching pods comes from its NodeInfo's counts
// by pod class (framework/podcounts.go): Kubernetes walks every pod of every node in every cycle,
// kubesim adds up the counts of the classes (namespace, labels, terminating) the selector picks.
//
// A pod with no constraints of its own gets the system default constraints (the scheduler's default
// "List" defaulting, pkg/scheduler/framework/plugins/podtopologyspread/plugin.go): spread over
// kubernetes.io/hostname with maxSkew 3 and over topology.kubernetes.io/zone with maxSkew 5, both
// ScheduleAnyway, counting as siblings the pods that the Services selecting the pod and the
// ReplicaSet controlling it select. So the pods of a Deployment prefer emptier nodes and zones even
// though nobody asked. A pod that belongs to nothing is not spread. (Kubernetes also counts
// StatefulSets and ReplicationControllers; kubesim has neither.)
package plugins

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/scheduler/framework"
)

// PodTopologySpreadName is the plugin's name.
const PodTopologySpreadName = "PodTopologySpread"

// The plugin's rejections.
const (
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	ErrReasonNodeLabelNotMatch   = ErrReasonConstraintsNotMatch + " (missing required label)"
)

const spreadPreFilterKey framework.StateKey = "PreFilter" + PodTopologySpreadName

// PodTopologySpread filters and scores by spreading.
type PodTopologySpread struct {
	handle framework.Handle
}

var (
	_ framework.PreFilterPlugin     = (*PodTopologySpread)(nil)
	_ framework.PreFilterExtensions = (*PodTopologySpread)(nil)
	_ framework.FilterPlugin        = (*PodTopologySpread)(nil)
	_ framework.PreScorePlugin      = (*PodTopologySpread)(nil)
	_ framework.ScorePlugin         = (*PodTopologySpread)(nil)
	_ framework.EnqueueExtensions   = (*PodTopologySpread)(nil)
)

// NewPodTopologySpread is the plugin's factory.
func NewPodTopologySpread(h framework.Handle) (framework.Plugin, error) {
	return &PodTopologySpread{handle: h}, nil
}

// Name returns PodTopologySpreadName.
func (*PodTopologySpread) Name() string { return PodTopologySpreadName }

// EventsToRegister: pods and nodes coming and going, and label or taint changes.
func (*PodTopologySpread) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.AssignedPod, ActionType: framework.Add | framework.Delete | framework.UpdatePodLabel},
		{Resource: framework.Node, ActionType: framework.Add | framework.Delete | framework.UpdateNodeLabel | framework.UpdateNodeTaint},
	}
}

// systemDefaultConstraints are the constraints a pod without its own gets.
var systemDefaultConstraints = []api.TopologySpreadConstraint{
	{TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
}

// spreadConstraint is a parsed TopologySpreadConstraint of a pod in namespace.
type spreadConstraint struct {
	MaxSkew     int32
	TopologyKey string
	MinDomains  int32
	Selector    labels.Selector
	namespace   string
	// countKey names the constraint's question to a node (matches) to the NodeInfo's pod counts;
	// constraints with the same selector in one namespace share it.
	countKey framework.CountKey
}

// matches picks the pods the constraint counts: in its namespace, not terminating, selected.
func (c *spreadConstraint) matches(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Namespace == c.namespace && c.Selector.Matches(labels.Set(p.Labels))
}

// countMatching counts the node's pods that the constraint counts (countPodsMatchSelector in
// Kubernetes), from the NodeInfo's counts by pod class: its pods are not walked.
func (c *spreadConstraint) countMatching(ni *framework.NodeInfo) int64 {
	return ni.CountPodsKey(c.countKey, c.matches)
}

// constraints are the pod's constraints with the given action: its own, or the system defaults.
func (pl *PodTopologySpread) constraints(pod *api.Pod, action api.UnsatisfiableConstraintAction) ([]spreadConstraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return constraintsOf(pod.Spec.TopologySpreadConstraints, action, nil, pod.Namespace)
	}
	sel := defaultSelector(pod, pl.handle.Workloads())
	if sel.Empty() {
		return nil, nil
	}
	return constraintsOf(systemDefaultConstraints, action, sel, pod.Namespace)
}

// defaultSelector picks a pod's siblings for the default constraints (helper.DefaultSelector in
// pkg/scheduler/util): the selectors of the Services that select the pod, merged, and the selector of
// the ReplicaSet that controls it. An empty selector means the pod belongs to nothing.
func defaultSelector(pod *api.Pod, w framework.WorkloadLister) labels.Selector {
	if w == nil {
		return labels.Everything()
	}
	merged := labels.Set{}
	for _, svc := range w.Services(pod.Namespace) {
		if svc.Spec.Selector != nil && labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(pod.Labels)) {
			for k, v := range svc.Spec.Selector {
				merged[k] = v
			}
		}
	}
	var parts []string
	if len(merged) > 0 {
		parts = append(parts, merged.AsSelector().String())
	}
	if ref := pod.ControllerRef(); ref != nil && ref.APIVersion == "apps/v1" && ref.Kind == "ReplicaSet" {
		if rs, ok := w.ReplicaSet(pod.Namespace, ref.Name); ok && rs.Spec.Selector != nil {
			if sel, err := rs.Spec.Selector.AsSelector(); err == nil && !sel.Empty() {
				parts = append(parts, sel.String())
			}
		}
	}
	sel, err := labels.Parse(strings.Join(parts, ","))
	if err != nil {
		return labels.Everything()
	}
	return sel
}

// constraintsOf parses the constraints with the given action of a pod in namespace; selector, if
// set, replaces each one's labelSelector (as it does for the system defaults, which have none).
func constraintsOf(all []api.TopologySpreadConstraint, action api.UnsatisfiableConstraintAction, selector labels.Selector, namespace string) ([]spreadConstraint, error) {
	var out []spreadConstraint
	for _, c := range all {
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel := selector
		if sel == nil {
			var err error
			if sel, err = c.LabelSelector.AsSelector(); err != nil {
				return nil, err
			}
		}
		minDomains := int32(1)
		if c.MinDomains != nil {
			minDomains = *c.MinDomains
		}
		out = append(out, spreadConstraint{MaxSkew: c.MaxSkew, TopologyKey: c.TopologyKey, MinDomains: minDomains, Selector: sel,
			namespace: namespace, countKey: framework.NewCountKey(PodTopologySpreadName + "\x00" + namespace + "\x00" + selectorKey(sel))})
	}
	return out, nil
}

// nodeHasKeys reports whether the node carries every constraint's topology key.
func nodeHasKeys(ni *framework.NodeInfo, constraints []spreadConstraint) bool {
	for i := range constraints {
		if _, ok := ni.TopologyValue(constraints[i].TopologyKey); !ok {
			return false
		}
	}
	return true
}

// spreadState is the PreFilter state: per constraint, the matching pods per domain.
type spreadState struct {
	constraints []spreadConstraint
	counts      []map[string]int64
}

func (s *spreadState) Clone() framework.StateData {
	out := &spreadState{constraints: s.constraints, counts: make([]map[string]int64, len(s.counts))}
	for i, m := range s.counts {
		out.counts[i] = make(map[string]int64, len(m))
		for k, v := range m {
			out.counts[i][k] = v
		}
	}
	return out
}

// minMatch is the count of the emptiest domain, or 0 when there are fewer domains than minDomains.
func (s *spreadState) minMatch(i int) int64 {
	if int32(len(s.counts[i])) < s.constraints[i].MinDomains {
		return 0
	}
	first := true
	var lo int64
	for _, n := range s.counts[i] {
		if first || n < lo {
			lo, first = n, false
		}
	}
	return lo
}

// PreFilter counts the matching pods of every domain. A pod without DoNotSchedule constraints skips
// the filter.
func (pl *PodTopologySpread) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	constraints, err := pl.constraints(pod, api.DoNotSchedule)
	if err != nil {
		return nil, framework.AsStatus(fmt.Errorf("parsing topology spread constraints: %w", err))
	}
	if len(constraints) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	s := &spreadState{constraints: constraints, counts: make([]map[string]int64, len(constraints))}
	for i := range s.counts {
		s.counts[i] = map[string]int64{}
	}
	for _, ni := range pl.handle.SnapshotSharedLister().List() {
		if !podMatchesNodeSelectorAndAffinity(pod, ni.Node()) || !nodeHasKeys(ni, constraints) {
			continue
		}
		for i := range constraints {
			c := &constraints[i]
			value, _ := ni.TopologyValue(c.TopologyKey)
			s.counts[i][value] += c.countMatching(ni)
		}
	}
	state.Write(spreadPreFilterKey, s)
	return nil, nil
}

// PreFilterExtensions returns the plugin itself.
func (pl *PodTopologySpread) PreFilterExtensions() framework.PreFilterExtensions { return pl }

// AddPod counts a pod imagined onto nodeInfo's node.
func (pl *PodTopologySpread) AddPod(_ context.Context, state *framework.CycleState, pod *api.Pod, podToAdd *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	return updateSpreadState(state, pod, podToAdd, ni, 1)
}

// RemovePod uncounts a pod imagined gone from nodeInfo's node.
func (pl *PodTopologySpread) RemovePod(_ context.Context, state *framework.CycleState, pod *api.Pod, podToRemove *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	return updateSpreadState(state, pod, podToRemove, ni, -1)
}

func updateSpreadState(state *framework.CycleState, pod *api.Pod, changed *framework.PodInfo, ni *framework.NodeInfo, delta int64) *framework.Status {
	data, err := state.Read(spreadPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	s := data.(*spreadState)
	if changed.Pod.Namespace != pod.Namespace || !podMatchesNodeSelectorAndAffinity(pod, ni.Node()) || !nodeHasKeys(ni, s.constraints) {
		return nil
	}
	for i, c := range s.constraints {
		if c.Selector.Matches(labels.Set(changed.Pod.Labels)) {
			value, _ := ni.TopologyValue(c.TopologyKey)
			s.counts[i][value] += delta
		}
	}
	return nil
}

// Filter checks, for every constraint, matching pods in the node's domain + this pod (if it matches
// itself) - the emptiest domain <= maxSkew.
func (pl *PodTopologySpread) Filter(_ context.Context, state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	data, err := state.Read(spreadPreFilterKey)
	if err != nil {
		return framework.AsStatus(err)
	}
	s := data.(*spreadState)
	for i, c := range s.constraints {
		value, ok := ni.TopologyValue(c.TopologyKey)
		if !ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch)
		}
		var self int64
		if c.Selector.Matches(labels.Set(pod.Labels)) {
			self = 1
		}
		if s.counts[i][value]+self-s.minMatch(i) > int64(c.MaxSkew) {
			return framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch)
		}
	}
	return nil
}
