// explain.go: Explain, the scheduler showing its work for one pod without binding it: every node's
// verdict from every Filter plugin (not just the first rejection, which is all a real cycle needs),
// and for the nodes that pass, each Score plugin's raw score, normalised score, weight and weighted
// share, the total and the winner. It looks at every node, where a cycle in a large cluster stops
// after percentageOfNodesToScore, and it never preempts. Interface: Explanation, NodeExplanation,
// (*Scheduler).Explain, (*Explanation).String.
package scheduler

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"kubesim/api"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// Explanation is the full account of where a pod would go and why. It marshals to JSON.
type Explanation struct {
	Pod           string `json:"pod"`
	SchedulerName string `json:"schedulerName"`
	// PreFilter is set when a PreFilter plugin rejected the pod outright.
	PreFilter string            `json:"preFilter,omitempty"`
	Nodes     []NodeExplanation `json:"nodes"`
	Feasible  int               `json:"feasibleNodes"`
	// Winner is the node with the highest total; TiedWith lists the nodes with the same total, among
	// which a real cycle chooses at random (seeded).
	Winner   string   `json:"winner,omitempty"`
	TiedWith []string `json:"tiedWith,omitempty"`
	// Message is what FailedScheduling would say (before preemption) when no node passes.
	Message string `json:"message,omitempty"`
	// Notes say where a number or a message comes from: defaults nobody wrote in the pod, and what
	// changed after Kubernetes 1.34, the version kubesim follows.
	Notes []string `json:"notes,omitempty"`
}

// The notes Explain may add.
const (
	noteDefaultSpread = "PodTopologySpread: the pod has no constraints of its own, so the system defaults apply " +
		"(hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) over its ReplicaSet's and Services' pods"
	noteBalancedAllocation = "NodeResourcesBalancedAllocation: v1.34's formula; 1.35+ scores the improvement a placement brings"
	noteUntoleratedTaint   = "TaintToleration: v1.34 names the taint; 1.35+ says only node(s) had untolerated taint(s)"
)

// NodeExplanation is one node's account.
type NodeExplanation struct {
	Name    string                    `json:"name"`
	Filters []framework.FilterVerdict `json:"filters"`
	// Feasible is true when every filter passed; otherwise RejectedBy and Reason name the first
	// filter that did not, which is the one a real cycle reports.
	Feasible   bool                    `json:"feasible"`
	RejectedBy string                  `json:"rejectedBy,omitempty"`
	Reason     string                  `json:"reason,omitempty"`
	Scores     []framework.PluginScore `json:"scores,omitempty"`
	Total      int64                   `json:"total,omitempty"`
}

// Explain computes the explanation for pod with its profile's plugins and the scheduler's current
// view of the cluster. It binds nothing and changes nothing.
// A pod not yet through the apiserver's defaulting (no schedulerName) counts as default-scheduler's.
func (s *Scheduler) Explain(pod *api.Pod) (*Explanation, error) {
	name := pod.Spec.SchedulerName
	if name == "" {
		name = api.DefaultSchedulerName
	}
	prof := s.profiles[name]
	if prof == nil {
		return nil, fmt.Errorf("no profile for schedulerName %q in %s (profiles: %s): this scheduler ignores the pod",
			name, s.name, strings.Join(s.ProfileNames(), ", "))
	}
	s.cycleMu.Lock()
	defer s.cycleMu.Unlock()
	ctx := context.Background()
	fwk := prof.fwk
	s.cache.UpdateSnapshot(s.snapshot)
	snapshot := s.snapshot
	fwk.SetCycle(snapshot, s.queue.NominatedPods())
	ex := &Explanation{Pod: podKey(pod), SchedulerName: name}
	if snapshot.NumNodes() == 0 {
		ex.Message = errNoNodesAvailable.Error()
		return ex, nil
	}
	state := framework.NewCycleState()
	statuses := framework.NodeToStatus{}
	var feasible []*framework.NodeInfo
	pre, st, narrowedBy := fwk.RunPreFilterPlugins(ctx, state, pod)
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, st.AsError()
		}
		ex.PreFilter = fmt.Sprintf("%s: %s", st.Plugin(), st.Message())
		for _, ni := range snapshot.List() {
			ex.Nodes = append(ex.Nodes, NodeExplanation{Name: ni.Name(), RejectedBy: st.Plugin(), Reason: st.Message()})
			statuses[ni.Name()] = st
		}
	} else {
		candidates := map[string]bool{}
		for _, ni := range narrowNodes(snapshot.List(), pre, narrowedBy, statuses) {
			candidates[ni.Name()] = true
		}
		for _, ni := range snapshot.List() {
			if !candidates[ni.Name()] {
				// PreFilter left this node out: a real cycle never filters it.
				ex.Nodes = append(ex.Nodes, NodeExplanation{Name: ni.Name(), RejectedBy: strings.Join(narrowedBy, ", "),
					Reason: statuses[ni.Name()].Message()})
				continue
			}
			ne := NodeExplanation{Name: ni.Name(), Filters: fwk.RunAllFilterPlugins(ctx, state, pod, ni), Feasible: true}
			for _, v := range ne.Filters {
				if v.Code != framework.Success.String() && v.Code != framework.Skip.String() {
					ne.Feasible, ne.RejectedBy, ne.Reason = false, v.Plugin, v.Reason
					statuses[ni.Name()] = v.Status
					break
				}
			}
			if ne.Feasible {
				feasible = append(feasible, ni)
			}
			ex.Nodes = append(ex.Nodes, ne)
		}
	}
	ex.Feasible = len(feasible)
	for _, n := range ex.Nodes {
		if n.RejectedBy == plugins.TaintTolerationName {
			ex.Notes = append(ex.Notes, noteUntoleratedTaint)
			break
		}
	}
	if len(feasible) == 0 {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: snapshot.NumNodes(), Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		if ex.PreFilter != "" {
			fitErr.Diagnosis.PreFilterMsg = statuses[snapshot.List()[0].Name()].Message()
		}
		ex.Message = fitErr.Error()
		return ex, nil
	}
	if st := fwk.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		return nil, st.AsError()
	}
	scores, st := fwk.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	byName := map[string]framework.NodePluginScores{}
	for _, ns := range scores {
		byName[ns.Name] = ns
	}
	var best int64 = -1
	for i := range ex.Nodes {
		ns, ok := byName[ex.Nodes[i].Name]
		if !ok {
			continue
		}
		ex.Nodes[i].Scores, ex.Nodes[i].Total = append([]framework.PluginScore(nil), ns.Scores...), ns.TotalScore
		switch {
		case ns.TotalScore > best:
			best, ex.Winner, ex.TiedWith = ns.TotalScore, ns.Name, nil
		case ns.TotalScore == best:
			ex.TiedWith = append(ex.TiedWith, ns.Name)
		}
	}
	ex.Notes = append(ex.Notes, scoreNotes(pod, scores)...)
	return ex, nil
}

// scoreNotes explains the scores a learner might not expect.
func scoreNotes(pod *api.Pod, scores []framework.NodePluginScores) []string {
	var notes []string
	for _, ps := range scores[0].Scores {
		switch {
		case ps.Plugin == plugins.PodTopologySpreadName && len(pod.Spec.TopologySpreadConstraints) == 0:
			notes = append(notes, noteDefaultSpread)
		case ps.Plugin == plugins.BalancedAllocationName:
			notes = append(notes, noteBalancedAllocation)
		}
	}
	return notes
}

// String renders the explanation as tables: filters (nodes across, plugins down), then scores, then
// the notes.
func (e *Explanation) String() string {
	out := e.tables()
	if len(e.Notes) > 0 {
		out += "\nNotes\n  - " + strings.Join(e.Notes, "\n  - ") + "\n"
	}
	return out
}

// tables renders the verdicts and the scores.
func (e *Explanation) tables() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Pod %s (schedulerName %s): %d of %d nodes pass Filter", e.Pod, e.SchedulerName, e.Feasible, len(e.Nodes))
	switch {
	case e.Winner != "" && len(e.TiedWith) > 0:
		tied := append([]string{e.Winner}, e.TiedWith...)
		fmt.Fprintf(&b, "; best total shared by %s and %s: the scheduler picks one at random (seeded)\n",
			strings.Join(tied[:len(tied)-1], ", "), tied[len(tied)-1])
	case e.Winner != "":
		fmt.Fprintf(&b, "; winner %s\n", e.Winner)
	default:
		fmt.Fprintf(&b, "\n%s\n", e.Message)
	}
	if e.PreFilter != "" {
		fmt.Fprintf(&b, "\nPreFilter rejected the pod on every node: %s\n", e.PreFilter)
		return b.String()
	}
	names := make([]string, len(e.Nodes))
	for i, n := range e.Nodes {
		names[i] = n.Name
	}
	b.WriteString("\nFilter\n")
	tw := tabwriter.NewWriter(&b, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  PLUGIN\t%s\n", strings.Join(names, "\t"))
	var plugins []string // the filter plugins, from any node PreFilter left in
	for _, n := range e.Nodes {
		if len(n.Filters) > 0 {
			for _, v := range n.Filters {
				plugins = append(plugins, v.Plugin)
			}
			break
		}
	}
	for p, name := range plugins {
		row := []string{name}
		for _, n := range e.Nodes {
			cell := "-" // left out at PreFilter: never filtered
			if len(n.Filters) > 0 {
				cell = verdictCell(n.Filters[p])
			}
			row = append(row, cell)
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	var reasons []string
	for _, n := range e.Nodes {
		if len(n.Filters) == 0 && n.Reason != "" {
			reasons = append(reasons, fmt.Sprintf("  %s, PreFilter %s: %s", n.Name, n.RejectedBy, n.Reason))
		}
		for _, v := range n.Filters {
			if v.Reason != "" {
				reasons = append(reasons, fmt.Sprintf("  %s, %s: %s", n.Name, v.Plugin, v.Reason))
			}
		}
	}
	b.WriteString(strings.Join(reasons, "\n"))
	if len(reasons) > 0 {
		b.WriteString("\n")
	}
	if e.Feasible == 0 {
		return b.String()
	}
	var scored []NodeExplanation
	for _, n := range e.Nodes {
		if n.Feasible {
			scored = append(scored, n)
		}
	}
	b.WriteString("\nScore (raw→normalised, weight; total = Σ normalised × weight)\n")
	tw = tabwriter.NewWriter(&b, 2, 4, 2, ' ', 0)
	header := []string{"PLUGIN", "WEIGHT"}
	for _, n := range scored {
		header = append(header, n.Name)
	}
	fmt.Fprintf(tw, "  %s\n", strings.Join(header, "\t"))
	for p, ps := range scored[0].Scores {
		row := []string{ps.Plugin, fmt.Sprint(ps.Weight)}
		for _, n := range scored {
			row = append(row, fmt.Sprintf("%d→%d", n.Scores[p].Raw, n.Scores[p].Score))
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(row, "\t"))
	}
	totals := []string{"TOTAL", ""}
	for _, n := range scored {
		totals = append(totals, fmt.Sprint(n.Total))
	}
	fmt.Fprintf(tw, "  %s\n", strings.Join(totals, "\t"))
	tw.Flush()
	return b.String()
}

func verdictCell(v framework.FilterVerdict) string {
	switch v.Code {
	case framework.Success.String():
		return "pass"
	case framework.Skip.String():
		return "skip"
	}
	return "FAIL"
}
