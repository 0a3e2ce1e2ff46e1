// preemption_candidates.go: how DefaultPreemption chooses. On each node it imagines every pod of
// lower priority gone; if the pod still does not fit, the node is no candidate. Otherwise it puts the
// imagined-gone pods back one by one, most important first, keeping each one that still leaves room
// ("reprieve"): what remains are the victims, as few and as unimportant as possible. Among the
// candidate nodes it then picks, in order of these criteria (pickOneNodeForPreemption):
//
//  1. the fewest PodDisruptionBudget violations (always 0 in kubesim);
//  2. the lowest priority among the most important victims;
//  3. the smallest sum of victim priorities;
//  4. the fewest victims;
//  5. the latest start time of the most important victims (disturb what started most recently);
//  6. the first such node by name.
package plugins

import (
	"context"
	"math"
	"sort"
	"time"

	"kubesim/api"
	"kubesim/scheduler/framework"
)

// candidate is a node where preemption would work, and its victims (most important first).
type candidate struct {
	node    string
	victims []*framework.PodInfo
}

// selectVictimsOnNode returns the victims on ni, or why there are none.
func (pl *DefaultPreemption) selectVictimsOnNode(ctx context.Context, state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) ([]*framework.PodInfo, *framework.Status) {
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
	sort.SliceStable(potential, func(i, j int) bool { return moreImportant(potential[i].Pod, potential[j].Pod, now) })
	var victims []*framework.PodInfo
	for _, pi := range potential {
		with := info.WithPod(pi)
		if st := h.RunPreFilterExtensionAddPod(ctx, state, pod, pi, with); !st.IsSuccess() {
			return nil, st
		}
		if h.RunFilterPluginsWithNominatedPods(ctx, state, pod, with).IsSuccess() {
			info = with // reprieved: it stays
			continue
		}
		if st := h.RunPreFilterExtensionRemovePod(ctx, state, pod, pi, info); !st.IsSuccess() {
			return nil, st
		}
		victims = append(victims, pi)
	}
	return victims, nil
}

// moreImportant is MoreImportantPod: higher priority, then earlier start; kubesim adds the name as
// a last tie-breaker so the order never depends on chance.
func moreImportant(a, b *api.Pod, now time.Time) bool {
	pa, pb := framework.PodPriority(a), framework.PodPriority(b)
	if pa != pb {
		return pa > pb
	}
	sa, sb := startTime(a, now), startTime(b, now)
	if !sa.Equal(sb) {
		return sa.Before(sb)
	}
	return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
}

// startTime is status.startTime, or now for a pod that has not started (as Kubernetes counts it).
func startTime(p *api.Pod, now time.Time) time.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime.Time
	}
	return now
}

// pickOneNodeForPreemption applies the criteria above, narrowing the candidates at each step.
func pickOneNodeForPreemption(cands []*candidate, now time.Time) *candidate {
	keepMin := func(score func(*candidate) int64) {
		best := int64(math.MaxInt64)
		var kept []*candidate
		for _, c := range cands {
			switch s := score(c); {
			case s < best:
				best, kept = s, []*candidate{c}
			case s == best:
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	keepMin(func(c *candidate) int64 { return int64(framework.PodPriority(c.victims[0].Pod)) })
	keepMin(func(c *candidate) int64 {
		var sum int64
		for _, v := range c.victims {
			// Shifted so that negative priorities still add up to a positive sum.
			sum += int64(framework.PodPriority(v.Pod)) + math.MaxInt32 + 1
		}
		return sum
	})
	keepMin(func(c *candidate) int64 { return int64(len(c.victims)) })
	// Latest "earliest start time of the most important victims" wins: minimise its negation.
	keepMin(func(c *candidate) int64 {
		top := framework.PodPriority(c.victims[0].Pod)
		earliest := startTime(c.victims[0].Pod, now)
		for _, v := range c.victims {
			if framework.PodPriority(v.Pod) == top && startTime(v.Pod, now).Before(earliest) {
				earliest = startTime(v.Pod, now)
			}
		}
		return -earliest.UnixNano()
	})
	return cands[0]
}
