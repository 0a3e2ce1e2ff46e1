// narrate.go: how a scheduling decision reads in the trace. One story-level line per decision:
//
//	schedule default/web-1: 3 of 3 nodes pass Filter; Score node-1 612, node-2 640, node-3 640 -> node-3 (tie broken by seed)
//
// and one detail line per node: the filter that rejected it, or every plugin's raw score, normalised
// score and weight. Large clusters show the first maxDetailNodes nodes; Explain shows them all.
package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"kubesim/api"
	"kubesim/scheduler/framework"
	"kubesim/trace"
)

// maxDetailNodes caps the per-node detail lines of one decision.
const maxDetailNodes = 20

// maxListedScores caps the scores listed in the story line.
const maxListedScores = 5

func (s *Scheduler) traceScheduled(pod *api.Pod, res *scheduleResult) {
	if !s.tracer.Enabled() {
		return
	}
	e := trace.Event{Action: "schedule", Object: podObject(pod), ResourceVersion: pod.ResourceVersion}
	key := podKey(pod)
	switch {
	case res.Nominated:
		s.record(e.Msgf("schedule %s: its nominated node %s still fits -> %s", key, res.SuggestedHost, res.SuggestedHost))
	case res.Scores == nil:
		s.record(e.Msgf("schedule %s: %d of %d nodes pass Filter -> %s (the only feasible node: Score skipped)",
			key, res.FeasibleNodes, res.EvaluatedNodes, res.SuggestedHost))
	case res.Tie:
		s.record(e.Msgf("schedule %s: %d of %d nodes pass Filter; Score %s -> %s (tie broken by seed)",
			key, res.FeasibleNodes, res.EvaluatedNodes, scoreList(res.Scores), res.SuggestedHost))
	default:
		s.record(e.Msgf("schedule %s: %d of %d nodes pass Filter; Score %s -> %s",
			key, res.FeasibleNodes, res.EvaluatedNodes, scoreList(res.Scores), res.SuggestedHost))
	}
	s.traceDetails(pod, res)
}

func (s *Scheduler) traceUnschedulable(pod *api.Pod, fitErr *framework.FitError, res scheduleResult) {
	if !s.tracer.Enabled() {
		return
	}
	e := trace.Event{Action: "schedule", Object: podObject(pod), ResourceVersion: pod.ResourceVersion}
	if fitErr.Diagnosis.PreFilterMsg != "" {
		s.record(e.Msgf("schedule %s: PreFilter rejected the pod -> unschedulable: %s", podKey(pod), fitErr.Error()))
		return
	}
	s.record(e.Msgf("schedule %s: 0 of %d nodes pass Filter -> unschedulable: %s", podKey(pod), res.EvaluatedNodes, fitErr.Error()))
	s.traceDetails(pod, &res)
}

// traceDetails records one detail line per evaluated node, in name order.
func (s *Scheduler) traceDetails(pod *api.Pod, res *scheduleResult) {
	type line struct {
		format string
		args   []any
	}
	lines := map[string]line{}
	for name, st := range res.Diagnosis.NodeToStatus {
		lines[name] = line{"  %s: Filter %s rejected it: %s", []any{name, st.Plugin(), st.Message()}}
	}
	for _, ns := range res.Scores {
		lines[ns.Name] = line{"  %s: passed Filter; Score %s", []any{ns.Name, pluginScores(ns)}}
	}
	if res.Scores == nil && res.SuggestedHost != "" {
		lines[res.SuggestedHost] = line{"  %s: passed Filter", []any{res.SuggestedHost}}
	}
	names := make([]string, 0, len(lines))
	for name := range lines {
		names = append(names, name)
	}
	sort.Strings(names)
	e := trace.Event{Action: "schedule", Object: podObject(pod), Detail: true}
	for i, name := range names {
		if i == maxDetailNodes {
			s.record(e.Msgf("  ... and %d more nodes (Explain shows them all)", len(names)-i))
			break
		}
		s.record(e.Msgf(lines[name].format, lines[name].args...))
	}
	if res.EvaluatedNodes < res.TotalNodes && !res.Nominated {
		s.record(e.Msgf("  percentageOfNodesToScore: evaluated %d of %d nodes, enough to find %d feasible ones",
			res.EvaluatedNodes, res.TotalNodes, res.FeasibleNodes))
	}
}

// pluginScores renders "NodeResourcesFit 85→85×1, TaintToleration 0→100×3 = 385".
func pluginScores(ns framework.NodePluginScores) string {
	parts := make([]string, len(ns.Scores))
	for i, p := range ns.Scores {
		parts[i] = fmt.Sprintf("%s %d→%d×%d", p.Plugin, p.Raw, p.Score, p.Weight)
	}
	return fmt.Sprintf("%s = %d", strings.Join(parts, ", "), ns.TotalScore)
}

// scoreList renders the totals: every node by name for a few, the best few for many.
func scoreList(scores []framework.NodePluginScores) string {
	sorted := append([]framework.NodePluginScores(nil), scores...)
	if len(sorted) <= maxListedScores {
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
		parts := make([]string, len(sorted))
		for i, ns := range sorted {
			parts[i] = fmt.Sprintf("%s %d", ns.Name, ns.TotalScore)
		}
		return strings.Join(parts, ", ")
	}
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].TotalScore != sorted[j].TotalScore {
			return sorted[i].TotalScore > sorted[j].TotalScore
		}
		return sorted[i].Name < sorted[j].Name
	})
	parts := make([]string, 3)
	for i := range parts {
		parts[i] = fmt.Sprintf("%s %d", sorted[i].Name, sorted[i].TotalScore)
	}
	return fmt.Sprintf("%s, ... (best 3 of %d)", strings.Join(parts, ", "), len(sorted))
}
