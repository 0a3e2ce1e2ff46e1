// defaultpreemption.go: the DefaultPreemption plugin, the PostFilter that runs when no node fits. It
// looks for a node where removing some pods of lower priority would let the pod fit, picks the
// best such node, deletes those pods (the victims) gracefully and nominates the node: the pod's
// status.nominatedNodeName says where it will go once the victims are gone. The pod itself is not
// bound in this cycle; it is retried when a victim's deletion frees the room.
//
// Nodes rejected as UnschedulableAndUnresolvable are not tried ("Preemption is not helpful for
// scheduling"), nor nodes without lower-priority pods ("No preemption victims found for incoming
// pod"). How victims and the node are chosen, PodDisruptionBudgets included, is in
// preemption_candidates.go; the trace tells which criterion chose the node.
//
// kubesim simplifications: every potential node is examined (Kubernetes stops after a sample of 10%
// or 100 candidates, at least one of them breaking no budget); victims are deleted synchronously
// (Kubernetes can do it asynchronously).
package plugins

import (
	"context"
	"fmt"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/client"
	"kubesim/scheduler/framework"
	"kubesim/trace"
)

// DefaultPreemptionName is the plugin's name.
const DefaultPreemptionName = "DefaultPreemption"

// The DisruptionTarget condition the scheduler sets on a victim before deleting it, so that whoever
// watches the pod knows why it is going away.
const (
	ConditionDisruptionTarget   api.PodConditionType = "DisruptionTarget"
	ReasonPreemptionByScheduler                      = "PreemptionByScheduler"
)

// DefaultPreemption preempts lower-priority pods.
type DefaultPreemption struct {
	handle framework.Handle
}

var _ framework.PostFilterPlugin = (*DefaultPreemption)(nil)

// NewDefaultPreemption is the plugin's factory.
func NewDefaultPreemption(h framework.Handle) (framework.Plugin, error) {
	return &DefaultPreemption{handle: h}, nil
}

// Name returns DefaultPreemptionName.
func (*DefaultPreemption) Name() string { return DefaultPreemptionName }

// PostFilter tries to make room for pod. Its message, prefixed "preemption: ", ends the FitError.
func (pl *DefaultPreemption) PostFilter(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatus) (*framework.PostFilterResult, *framework.Status) {
	p, res, st := pl.choose(ctx, state, pod, m)
	if p == nil {
		return res, st
	}
	pl.tracePick(pod, *p, len(p.all))
	if pl.handle.ClientSet() == nil {
		// A fixed cluster (fixed.go) has no apiserver to evict through: it only nominates.
		return &framework.PostFilterResult{NominatedNodeName: p.chosen.node}, nil
	}
	if st := pl.prepareCandidate(ctx, p.chosen, pod); !st.IsSuccess() {
		return nil, st
	}
	return &framework.PostFilterResult{NominatedNodeName: p.chosen.node}, nil
}

// choose is PostFilter up to the eviction: the candidate nodes and the pick among them, or, when
// there is no candidate, PostFilter's answer.
func (pl *DefaultPreemption) choose(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatus) (*pick, *framework.PostFilterResult, *framework.Status) {
	if ok, msg := pl.eligible(pod, m); !ok {
		return nil, nil, framework.NewStatus(framework.Unschedulable, "preemption: "+msg)
	}
	var budgets []disruptionBudget
	if l := pl.handle.DisruptionBudgets(); l != nil {
		budgets = disruptionBudgets(l.PodDisruptionBudgets())
	}
	statuses := framework.NodeToStatus{}
	var potential []*framework.NodeInfo
	for _, ni := range pl.handle.SnapshotSharedLister().List() {
		if m[ni.Name()].Code() == framework.UnschedulableAndUnresolvable {
			statuses[ni.Name()] = framework.NewStatus(framework.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling")
			continue
		}
		potential = append(potential, ni)
	}
	// DryRunPreemption: from a random node on, until enough candidates are found, one of them
	// breaking no budget. Below numCandidates nodes every node is tried, and where the walk starts
	// does not matter (the pick sorts by name), so no chance is drawn.
	want, offset := numCandidates(len(potential)), 0
	if want < len(potential) {
		offset = pl.handle.Rand().Intn(len(potential))
	}
	var candidates []*candidate
	keepsBudgets := false
	for i := range potential {
		ni := potential[(offset+i)%len(potential)]
		c, st := pl.selectVictimsOnNode(ctx, state.Clone(), pod, ni, budgets)
		if st.IsSuccess() && len(c.victims) == 0 {
			st = framework.AsStatus(fmt.Errorf("expected at least one victim pod on node %q", ni.Name()))
		}
		switch {
		case st.Code() == framework.Error:
			return nil, nil, st
		case !st.IsSuccess():
			statuses[ni.Name()] = st
			continue
		}
		candidates = append(candidates, c)
		keepsBudgets = keepsBudgets || len(c.violations) == 0
		if keepsBudgets && len(candidates) >= want {
			break
		}
	}
	if len(candidates) == 0 {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: len(statuses), Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		// An empty nominated node clears a nomination the pod may still carry.
		return nil, &framework.PostFilterResult{}, framework.NewStatus(framework.Unschedulable, "preemption: "+fitErr.Error())
	}
	p := pickOneNodeForPreemption(candidates, pl.handle.Clock().Now())
	p.all = candidates
	return &p, nil, nil
}

// Kubernetes' DefaultPreemptionArgs defaults: preemption looks for candidates among at least 10% of
// the nodes, and at least 100 of them.
const (
	minCandidateNodesPercentage = 10
	minCandidateNodesAbsolute   = 100
)

// numCandidates is calculateNumCandidates: how many candidate nodes are enough among n.
func numCandidates(n int) int {
	return min(max(n*minCandidateNodesPercentage/100, minCandidateNodesAbsolute), n)
}

// Candidate is a node where preemption would make room, as DryRun reports it: the victims
// (namespace/name, most important first) and how many of them a PodDisruptionBudget protects.
type Candidate struct {
	Node          string
	Victims       []string
	PDBViolations int
}

// DryRun is PostFilter without its effects: every candidate node with its victims, and the node
// PostFilter would nominate ("" with PostFilter's status when there is no candidate). The
// differential test holds it to kube-scheduler's DryRunPreemption and SelectCandidate.
func (pl *DefaultPreemption) DryRun(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatus) ([]Candidate, string, *framework.Status) {
	p, _, st := pl.choose(ctx, state, pod, m)
	if p == nil {
		return nil, "", st
	}
	out := make([]Candidate, len(p.all))
	for i, c := range p.all {
		out[i] = Candidate{Node: c.node, PDBViolations: len(c.violations)}
		for _, v := range c.victims {
			out[i].Victims = append(out[i].Victims, v.Pod.Namespace+"/"+v.Pod.Name)
		}
	}
	return out, p.chosen.node, nil
}

// tracePick tells why the chosen node won, when there was a choice, and which budgets its victims
// break, when it breaks any: with every candidate breaking one, the scheduler preempts anyway.
func (pl *DefaultPreemption) tracePick(pod *api.Pod, p pick, n int) {
	e := trace.Event{Action: "preempt", Object: "pods/" + pod.Namespace + "/" + pod.Name, ResourceVersion: pod.ResourceVersion}
	key := pod.Namespace + "/" + pod.Name
	switch {
	case n == 1: // no choice to tell
	case p.by == nil:
		pl.handle.Trace(e.Msgf(tiedFormat, key, n, p.chosen.node))
	case p.by.show == nil:
		pl.handle.Trace(e.Msgf(p.by.format, key, n, p.chosen.node))
	default:
		pl.handle.Trace(e.Msgf(p.by.format, key, n, p.values, p.chosen.node))
	}
	if len(p.chosen.violations) == 0 {
		return
	}
	broken := make([]string, len(p.chosen.violations))
	for i, v := range p.chosen.violations {
		broken[i] = fmt.Sprintf("%s/%s (PodDisruptionBudget %s)", v.pod.Namespace, v.pod.Name, strings.Join(v.budgets, ", "))
	}
	pl.handle.Trace(e.Msgf("preempt for %s: no candidate node keeps every PodDisruptionBudget; preempting anyway %s",
		key, strings.Join(broken, ", ")))
}

// eligible is PodEligibleToPreemptOthers: a pod with preemptionPolicy Never may not preempt, and a
// pod already waiting for a victim on its nominated node must not preempt again.
func (pl *DefaultPreemption) eligible(pod *api.Pod, m framework.NodeToStatus) (bool, string) {
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == api.PreemptNever {
		return false, "not eligible due to preemptionPolicy=Never."
	}
	nominated := pod.Status.NominatedNodeName
	if nominated == "" || m[nominated].Code() == framework.UnschedulableAndUnresolvable {
		return true, ""
	}
	if ni, err := pl.handle.SnapshotSharedLister().Get(nominated); err == nil {
		for _, p := range ni.Pods {
			if framework.PodPriority(p.Pod) < framework.PodPriority(pod) && terminatingByPreemption(p.Pod) {
				return false, "not eligible due to a terminating pod on the nominated node."
			}
		}
	}
	return true, ""
}

func terminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	c := api.GetPodCondition(p, ConditionDisruptionTarget)
	return c != nil && c.Status == api.ConditionTrue && c.Reason == ReasonPreemptionByScheduler
}

// prepareCandidate evicts the victims: each gets the DisruptionTarget condition, a graceful delete
// and a Preempted event. Then lower-priority pods nominated to the same node lose their nomination,
// since the room is now promised to this pod.
func (pl *DefaultPreemption) prepareCandidate(ctx context.Context, c *candidate, pod *api.Pod) *framework.Status {
	h := pl.handle
	pods := client.For[api.Pod](h.ClientSet())
	names := make([]string, len(c.victims))
	for i, v := range c.victims {
		names[i] = v.Pod.Namespace + "/" + v.Pod.Name
	}
	h.Trace(trace.Event{Action: "preempt", Object: "pods/" + pod.Namespace + "/" + pod.Name, ResourceVersion: pod.ResourceVersion}.
		Msgf("preempt for %s/%s (priority %d): evict %s on %s, then nominate %s", pod.Namespace, pod.Name,
			framework.PodPriority(pod), strings.Join(names, ", "), c.node, c.node))
	for _, v := range c.victims {
		victim := v.Pod
		if victim.DeletionTimestamp != nil {
			continue // already going
		}
		cond := api.PodCondition{Type: ConditionDisruptionTarget, Status: api.ConditionTrue, Reason: ReasonPreemptionByScheduler,
			Message:            fmt.Sprintf("%s: preempting to accommodate a higher priority pod", pod.Spec.SchedulerName),
			LastTransitionTime: api.NewTime(h.Clock().Now())}
		err := updateStatus(ctx, pl.handle, victim, func(p *api.Pod) bool { return framework.UpdatePodCondition(&p.Status, cond) })
		if err == nil {
			_, _, err = pods.Delete(ctx, victim.Namespace, victim.Name, client.DeleteOptions{})
		}
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return framework.AsStatus(fmt.Errorf("preempting %s/%s: %w", victim.Namespace, victim.Name, err))
		}
		if rec := h.EventRecorder(); rec != nil {
			rec.Eventf(ctx, victim, client.EventNormal, "Preempted", "Preempted by pod %s on node %s", pod.UID, c.node)
		}
	}
	if n := h.Nominator(); n != nil {
		for _, other := range n.NominatedPodsForNode(c.node) {
			if framework.PodPriority(other.Pod) >= framework.PodPriority(pod) {
				continue
			}
			err := updateStatus(ctx, pl.handle, other.Pod, func(p *api.Pod) bool {
				changed := p.Status.NominatedNodeName != ""
				p.Status.NominatedNodeName = ""
				return changed
			})
			if err != nil && !apierrors.IsNotFound(err) {
				h.Trace(trace.Event{Action: "preempt", Object: "pods/" + other.Pod.Namespace + "/" + other.Pod.Name}.
					Msgf("could not clear nominatedNodeName of %s/%s: %v", other.Pod.Namespace, other.Pod.Name, err))
			}
		}
	}
	return nil
}

// updateStatus reads the pod afresh, applies mutate and writes the status, retrying on conflict.
func updateStatus(ctx context.Context, h framework.Handle, pod *api.Pod, mutate func(*api.Pod) bool) error {
	pods := client.For[api.Pod](h.ClientSet())
	return client.RetryOnConflict(ctx, h.Clock(), client.DefaultRetry, func() error {
		fresh, err := pods.Get(ctx, pod.Namespace, pod.Name)
		if err != nil {
			return err
		}
		if fresh.UID != pod.UID || !mutate(fresh) {
			return nil
		}
		_, err = pods.UpdateStatus(ctx, fresh)
		return err
	})
}
