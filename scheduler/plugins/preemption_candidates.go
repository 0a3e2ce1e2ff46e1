// preemption_candidates.go: how DefaultPreemption chooses. It tries the nodes where removing pods may
// help, from one chosen at random, until it has enough candidates (10% of them, at least 100, one
// breaking no PodDisruptionBudget; on a small cluster, all). On each node it imagines every pod of
// lower priority gone; if the pod still does not fit, the node is no candidate. Otherwise it puts the
// imagined-gone pods back one by one, keeping each one that still leaves room ("reprieve"): first the
// pods whose deletion would break a PodDisruptionBudget, then the others, each group most important
// first. What remains are the victims, as few, as unimportant and as budget-friendly as possible.
// Among the candidate nodes it then picks, in order of these criteria (pickOneNodeForPreemption):
//
//  1. the fewest PodDisruptionBudget violations;
//  2. the lowest priority among the most important victims;
//  3. the smallest sum of victim priorities;
//  4. the fewest victims;
//  5. the latest start time of the most important victims (disturb what started most recently);
//  6. the first such node by name.
//
// A budget only ranks: when every candidate breaks one, the scheduler still preempts (it deletes
// its victims; it does not ask the Eviction API, which would refuse).
package plugins

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/scheduler/framework"
)

// candidate is a node where preemption would work, and its victims (most important first).
type candidate struct {
	node    string
	victims []*framework.PodInfo
	// violations are the victims whose deletion breaks a budget, with the budgets they break.
	violations []violation
}

// violation is a victim whose deletion would take these budgets below zero allowed disruptions.
type violation struct {
	pod     *api.Pod
	budgets []string
}

// disruptionBudget is a PodDisruptionBudget with its selector parsed once per preemption; sel is
// nil for a budget with no, an empty or an invalid selector, which matches nothing.
type disruptionBudget struct {
	pdb *api.PodDisruptionBudget
	sel labels.Selector
}

// disruptionBudgets parses the selectors of pdbs.
func disruptionBudgets(pdbs []*api.PodDisruptionBudget) []disruptionBudget {
	out := make([]disruptionBudget, len(pdbs))
	for i, pdb := range pdbs {
		out[i].pdb = pdb
		if pdb.Spec.Selector == nil {
			continue
		}
		if sel, err := pdb.Spec.Selector.AsSelector(); err == nil && !sel.Empty() {
			out[i].sel = sel
		}
	}
	return out
}

// selectVictimsOnNode is SelectVictimsOnNode: the victims on ni, or why there are none.
func (pl *DefaultPreemption) selectVictimsOnNode(ctx context.Context, state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo, budgets []disruptionBudget) (*candidate, *framework.Status) {
	h := pl.handle
	priority := framework.PodPriority(pod)
	var potential []*framework.PodInfo
	info := ni
	for _, pi := range ni.Pods {
		if framework.PodPriority(pi.Pod) >= priority {
			continue
		}
		potential = append(potential, pi)
		info, _ = info.WithoutPod(pi.Pod.UID)
		if st := h.RunPreFilterExtensionRemovePod(ctx, state, pod, pi, info); !st.IsSuccess() {
			return nil, st
		}
	}
	if len(potential) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "No preemption victims found for incoming pod")
	}
	// With every lower-priority pod gone, does the pod fit at all?
	if st := h.RunFilterPluginsWithNominatedPods(ctx, state, pod, info); !st.IsSuccess() {
		return nil, st
	}
	now := h.Clock().Now()
	// Kubernetes sorts with sort.Slice, which is not stable: pods of equal priority and start time
	// end up in the order Go's sort leaves them, and so the victims' order too. The same input, the
	// same comparisons and the same sort give the same order here (difftest/scheduler holds it).
	sort.Slice(potential, func(i, j int) bool { return moreImportant(potential[i].Pod, potential[j].Pod, now) })
	violating, nonViolating, broken := splitByBudgetViolation(potential, budgets)
	c := &candidate{node: ni.Name()}
	// reprieve puts pi back if the pod still fits with it, and otherwise makes it a victim.
	reprieve := func(pi *framework.PodInfo) (bool, *framework.Status) {
		with := info.WithPod(pi)
		if st := h.RunPreFilterExtensionAddPod(ctx, state, pod, pi, with); !st.IsSuccess() {
			return false, st
		}
		if h.RunFilterPluginsWithNominatedPods(ctx, state, pod, with).IsSuccess() {
			info = with
			return true, nil
		}
		if st := h.RunPreFilterExtensionRemovePod(ctx, state, pod, pi, info); !st.IsSuccess() {
			return false, st
		}
		c.victims = append(c.victims, pi)
		return false, nil
	}
	// Reprieve the pods that would break a budget first, so that as few of them as possible go.
	for _, pi := range violating {
		kept, st := reprieve(pi)
		if st != nil {
			return nil, st
		}
		if !kept {
			c.violations = append(c.violations, violation{pod: pi.Pod, budgets: broken[pi]})
		}
	}
	for _, pi := range nonViolating {
		if _, st := reprieve(pi); st != nil {
			return nil, st
		}
	}
	if len(violating) > 0 && len(nonViolating) > 0 {
		sort.Slice(c.victims, func(i, j int) bool { return moreImportant(c.victims[i].Pod, c.victims[j].Pod, now) })
	}
	return c, nil
}

// splitByBudgetViolation is filterPodsWithPDBViolation: it walks pods in order, spending each
// matching budget's status.disruptionsAllowed, and puts a pod among the violating ones when it takes
// some budget below zero (broken names those budgets). A pod the apiserver already let go
// (status.disruptedPods) spends nothing. The order of pods is kept within each group.
func splitByBudgetViolation(pods []*framework.PodInfo, budgets []disruptionBudget) (violating, nonViolating []*framework.PodInfo, broken map[*framework.PodInfo][]string) {
	allowed := make([]int32, len(budgets))
	for i, b := range budgets {
		allowed[i] = b.pdb.Status.DisruptionsAllowed
	}
	broken = map[*framework.PodInfo][]string{}
	for _, pi := range pods {
		p := pi.Pod
		for i, b := range budgets {
			pdb := b.pdb
			if len(p.Labels) == 0 || pdb.Namespace != p.Namespace || b.sel == nil || !b.sel.Matches(labels.Set(p.Labels)) {
				continue
			}
			if _, gone := pdb.Status.DisruptedPods[p.Name]; gone {
				continue
			}
			if allowed[i]--; allowed[i] < 0 {
				broken[pi] = append(broken[pi], pdb.Name)
			}
		}
		if len(broken[pi]) > 0 {
			violating = append(violating, pi)
		} else {
			nonViolating = append(nonViolating, pi)
		}
	}
	return violating, nonViolating, broken
}

// moreImportant is MoreImportantPod: higher priority, then earlier start. Pods equal on both keep
// the order the sort leaves them in, as in Kubernetes.
func moreImportant(a, b *api.Pod, now time.Time) bool {
	pa, pb := framework.PodPriority(a), framework.PodPriority(b)
	if pa != pb {
		return pa > pb
	}
	return startTime(a, now).Before(startTime(b, now))
}

func startTime(p *api.Pod, now time.Time) time.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime.Time
	}
	return now
}

// criterion is one rule of pickOneNodeForPreemption: a score (the lowest wins), how the trace shows
// a candidate's score (nil: it does not) and the trace line that tells the criterion decided. A format
// with values takes the pod, the number of candidates, the remaining candidates' values and the
// chosen node; one without takes the pod, the number and the node.
type criterion struct {
	score  func(c *candidate, now time.Time) int64
	show   func(c *candidate) string
	format string
}

// pickCriteria are the rules in Kubernetes' order; after the last, the first node by name wins.
var pickCriteria = []criterion{
	{score: numViolations, show: shown(numViolations),
		format: "preempt for %s: %d candidate nodes; PodDisruptionBudget violations %s -> %s (the fewest)"},
	{score: topPriority, show: shown(topPriority),
		format: "preempt for %s: %d candidate nodes; priority of the most important victim %s -> %s (the lowest)"},
	// Each priority is counted from -2^31 (plus 2^31), so that negative priorities never make more
	// victims look cheaper; it also means that, for the priorities people use, fewer victims win
	// here before the sums are compared, and the next criterion rarely gets to decide.
	{score: func(c *candidate, _ time.Time) int64 {
		return sumPriorities(c) + numVictims(c, time.Time{})*(math.MaxInt32+1)
	},
		show:   func(c *candidate) string { return fmt.Sprintf("%d×2^31%+d", len(c.victims), sumPriorities(c)) },
		format: "preempt for %s: %d candidate nodes; sum of victim priorities (each plus 2^31) %s -> %s (the smallest)"},
	{score: numVictims, show: shown(numVictims),
		format: "preempt for %s: %d candidate nodes; victims %s -> %s (the fewest)"},
	// The latest "earliest start among the most important victims" wins: minimise its negation.
	{score: func(c *candidate, now time.Time) int64 {
		top := framework.PodPriority(c.victims[0].Pod)
		earliest := startTime(c.victims[0].Pod, now)
		for _, v := range c.victims {
			if framework.PodPriority(v.Pod) == top && startTime(v.Pod, now).Before(earliest) {
				earliest = startTime(v.Pod, now)
			}
		}
		return -earliest.UnixNano()
	}, format: "preempt for %s: %d candidate nodes; the most important victims started last -> %s"},
}

func numViolations(c *candidate, _ time.Time) int64 { return int64(len(c.violations)) }
func topPriority(c *candidate, _ time.Time) int64 {
	return int64(framework.PodPriority(c.victims[0].Pod))
}
func numVictims(c *candidate, _ time.Time) int64 { return int64(len(c.victims)) }

// shown shows a score as it is.
func shown(score func(*candidate, time.Time) int64) func(*candidate) string {
	return func(c *candidate) string { return fmt.Sprint(score(c, time.Time{})) }
}

func sumPriorities(c *candidate) int64 {
	var sum int64
	for _, v := range c.victims {
		sum += int64(framework.PodPriority(v.Pod))
	}
	return sum
}

// tiedFormat tells that every criterion tied.
const tiedFormat = "preempt for %s: %d candidate nodes, equal on every criterion -> %s (the first by name)"

// pick is pickOneNodeForPreemption's answer: the node, the criterion that decided (nil when there
// was one candidate, or everything tied) and the values the deciding round compared.
type pick struct {
	chosen *candidate
	by     *criterion
	values string
	all    []*candidate // every candidate, by node name (set by choose)
}

// maxListedValues caps the candidates whose value a trace line lists.
const maxListedValues = 5

// pickOneNodeForPreemption applies the criteria above to the candidates (sorted by node name),
// narrowing them at each step, and stops as soon as one is left.
func pickOneNodeForPreemption(cands []*candidate, now time.Time) pick {
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].node < cands[j].node })
	for i := 0; i < len(pickCriteria) && len(cands) > 1; i++ {
		cr := &pickCriteria[i]
		scores := make([]int64, len(cands))
		best := int64(math.MaxInt64)
		for j, c := range cands {
			scores[j] = cr.score(c, now)
			best = min(best, scores[j])
		}
		var kept []*candidate
		var listed []string
		for j, c := range cands {
			if scores[j] == best {
				kept = append(kept, c)
			}
			if cr.show != nil && j < maxListedValues {
				listed = append(listed, c.node+" "+cr.show(c))
			}
		}
		if len(kept) == 1 {
			if cr.show != nil && len(cands) > maxListedValues {
				listed = append(listed, "...")
			}
			return pick{chosen: kept[0], by: cr, values: strings.Join(listed, ", ")}
		}
		cands = kept
	}
	return pick{chosen: cands[0]}
}
