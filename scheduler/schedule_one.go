// schedule_one.go: one pod's trip through the scheduler (schedule_one.go in Kubernetes).
//
//	scheduling cycle (one at a time)            binding cycle (in the background in real time)
//	  snapshot the cache                          Bind: POST pods/<name>/binding
//	  PreFilter                                   ok:   the cache waits for the informer to confirm;
//	  Filter the nodes (enough of them)                 event "Scheduled"
//	  no node: PostFilter (preemption), requeue   fail: forget the assumed pod, Unreserve, requeue
//	  PreScore, Score, NormalizeScore, weights
//	  pick the best (random among equals)
//	  assume the pod on it, Reserve
//
// Interface: scheduleOne, and the scheduleResult a cycle produces.
package scheduler

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"kubesim/api"
	"kubesim/client"
	"kubesim/scheduler/framework"
	"kubesim/trace"
)

// Kubernetes' bounds for percentageOfNodesToScore.
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// errNoNodesAvailable is the failure of a cluster without nodes.
var errNoNodesAvailable = errors.New("no nodes available to schedule pods")

// scheduleResult is the outcome of a successful scheduling cycle.
type scheduleResult struct {
	SuggestedHost  string
	EvaluatedNodes int // nodes run through Filter
	FeasibleNodes  int // nodes that passed
	TotalNodes     int
	// Scores are the feasible nodes' scores, in the order they were evaluated (nil when one node
	// passed and scoring was skipped).
	Scores []framework.NodePluginScores
	// Tie reports that several nodes shared the best score and the seeded random source chose.
	Tie bool
	// Nominated reports that the pod's nominated node still fit and was taken without looking further.
	Nominated bool
	// Diagnosis holds the rejections of the evaluated nodes that did not pass.
	Diagnosis framework.Diagnosis
}

// filterResult is one node's Filter outcome in a parallel pass; done marks the entries written.
type filterResult struct {
	st   *framework.Status
	done bool
}

// scheduleOne runs one pod's scheduling cycle and then its binding cycle.
func (s *Scheduler) scheduleOne(ctx context.Context, pi *framework.QueuedPodInfo) {
	pod := pi.Pod
	prof := s.profiles[pod.Spec.SchedulerName]
	if prof == nil || s.skipPodSchedule(pod) {
		s.queue.Done(pod)
		return
	}
	state := framework.NewCycleState()
	s.cycleMu.Lock()
	cycle := s.queue.SchedulingCycle()
	result, assumed, status, nominated := s.schedulingCycle(ctx, prof, state, pi)
	s.cycleMu.Unlock()
	if !status.IsSuccess() {
		s.handleSchedulingFailure(ctx, prof, pi, status, nominated, cycle)
		return
	}
	if !s.async {
		s.bindingCycle(ctx, prof, state, pi, assumed, result.SuggestedHost, cycle)
		return
	}
	s.binding.Add(1)
	go func() {
		defer s.binding.Done()
		s.bindingCycle(ctx, prof, state, pi, assumed, result.SuggestedHost, cycle)
	}()
}

// skipPodSchedule drops a pod that is being deleted, or that is already assumed (an update re-queued
// it while its binding was on the way).
func (s *Scheduler) skipPodSchedule(pod *api.Pod) bool {
	if pod.DeletionTimestamp != nil {
		s.record(trace.Event{Action: "skip", Object: podObject(pod), ResourceVersion: pod.ResourceVersion, Detail: true}.
			Msgf("skip %s: it is being deleted", pod.Namespace+"/"+pod.Name))
		return true
	}
	return s.cache.IsAssumedPod(pod)
}

// schedulingCycle chooses a node and assumes the pod on it. On failure it returns the status to
// report and, if PostFilter ran, the node it nominated ("" to clear a nomination).
func (s *Scheduler) schedulingCycle(ctx context.Context, prof *profile, state *framework.CycleState, pi *framework.QueuedPodInfo) (
	result scheduleResult, assumed *api.Pod, status *framework.Status, nominated *string) {
	pod := pi.Pod
	defer func() {
		if r := recover(); r != nil {
			status = framework.AsStatus(fmt.Errorf("scheduling cycle panicked: %v", r))
			s.record(trace.Event{Action: "schedule", Object: podObject(pod), ResourceVersion: pod.ResourceVersion, Code: 500}.
				Msgf("schedule %s: error: %s", podKey(pod), status.Message()))
		}
	}()
	fwk := prof.fwk
	s.cache.UpdateSnapshot(s.snapshot)
	snapshot := s.snapshot
	fwk.SetCycle(snapshot, s.queue.NominatedPods())
	result, err := s.schedulePod(ctx, fwk, state, pod, snapshot)
	if err != nil {
		var fitErr *framework.FitError
		if !errors.As(err, &fitErr) {
			code := framework.Error
			if errors.Is(err, errNoNodesAvailable) {
				code = framework.UnschedulableAndUnresolvable
			}
			s.record(trace.Event{Action: "schedule", Object: podObject(pod), ResourceVersion: pod.ResourceVersion}.
				Msgf("schedule %s: error: %v", podKey(pod), err))
			return result, nil, framework.NewStatus(code, err.Error()), nil
		}
		s.traceUnschedulable(pod, fitErr, result)
		if fwk.HasPostFilterPlugins() {
			r, st := fwk.RunPostFilterPlugins(ctx, state, pod, fitErr.Diagnosis.NodeToStatus)
			fitErr.Diagnosis.PostFilterMsg = st.Message()
			if r != nil {
				nominated = &r.NominatedNodeName
			}
			if st.Code() == framework.Error {
				s.record(trace.Event{Action: "preempt", Object: podObject(pod), ResourceVersion: pod.ResourceVersion}.
					Msgf("PostFilter %s for %s failed: %s", st.Plugin(), podKey(pod), st.Message()))
			}
		}
		pi.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
		return result, nil, framework.NewStatus(framework.Unschedulable, fitErr.Error()), nominated
	}
	s.traceScheduled(pod, &result)

	// Assume: from now on the cache counts the pod on its node, before the apiserver knows.
	a := *pod
	a.Spec.NodeName = result.SuggestedHost
	if err := s.cache.AssumePod(&a); err != nil {
		return result, nil, framework.AsStatus(err), nil
	}
	s.queue.DeleteNominatedPodIfExists(pod)
	if st := fwk.RunReservePluginsReserve(ctx, state, &a, result.SuggestedHost); !st.IsSuccess() {
		fwk.RunReservePluginsUnreserve(ctx, state, &a, result.SuggestedHost)
		_ = s.cache.ForgetPod(&a)
		return result, nil, st, nil
	}
	return result, &a, nil, nil
}

// schedulePod finds the node for pod: Filter, then Score, then pick.
func (s *Scheduler) schedulePod(ctx context.Context, fwk *framework.Framework, state *framework.CycleState, pod *api.Pod, snapshot *framework.Snapshot) (scheduleResult, error) {
	res := scheduleResult{TotalNodes: snapshot.NumNodes()}
	if res.TotalNodes == 0 {
		return res, errNoNodesAvailable
	}
	feasible, err := s.findNodesThatFitPod(ctx, fwk, state, pod, snapshot, &res)
	if err != nil {
		return res, err
	}
	res.FeasibleNodes = len(feasible)
	if len(feasible) == 0 {
		return res, &framework.FitError{Pod: pod, NumAllNodes: res.TotalNodes, Diagnosis: res.Diagnosis}
	}
	if len(feasible) == 1 {
		// One node passed: nothing to compare, so Score is skipped.
		res.SuggestedHost = feasible[0].Name()
		return res, nil
	}
	if st := fwk.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		return res, st.AsError()
	}
	scores, st := fwk.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		return res, st.AsError()
	}
	res.Scores = scores
	res.SuggestedHost, res.Tie = s.selectHost(scores)
	return res, nil
}

// findNodesThatFitPod runs PreFilter, tries the nominated node first, then filters the nodes that
// PreFilter left in.
func (s *Scheduler) findNodesThatFitPod(ctx context.Context, fwk *framework.Framework, state *framework.CycleState, pod *api.Pod, snapshot *framework.Snapshot, res *scheduleResult) ([]*framework.NodeInfo, error) {
	res.Diagnosis = framework.Diagnosis{NodeToStatus: framework.NodeToStatus{}}
	nodes := snapshot.List()
	pre, st, narrowedBy := fwk.RunPreFilterPlugins(ctx, state, pod)
	for _, name := range narrowedBy {
		res.Diagnosis.AddUnschedulablePlugin(name)
	}
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, st.AsError()
		}
		// Rejected before any node was looked at: the same reason holds for every node.
		for _, ni := range nodes {
			res.Diagnosis.NodeToStatus[ni.Name()] = st
		}
		res.Diagnosis.PreFilterMsg = st.Message()
		res.Diagnosis.AddUnschedulablePlugin(st.Plugin())
		res.EvaluatedNodes = len(nodes)
		return nil, nil
	}
	// A pod that preemption made room for goes straight to its nominated node if it still fits.
	if name := pod.Status.NominatedNodeName; name != "" {
		if ni, err := snapshot.Get(name); err == nil && fwk.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni).IsSuccess() {
			res.EvaluatedNodes, res.Nominated = 1, true
			return []*framework.NodeInfo{ni}, nil
		}
	}
	nodes = narrowNodes(nodes, pre, narrowedBy, res.Diagnosis.NodeToStatus)
	if len(nodes) == 0 {
		return nil, nil // the nodes it names do not exist
	}
	return s.findNodesThatPassFilters(ctx, fwk, state, pod, nodes, res)
}

// narrowNodes keeps the nodes a PreFilterResult left in, and gives each of the others the status
// Kubernetes gives them: `node(s) didn't satisfy plugin(s) [NodeAffinity]`, unresolvable.
func narrowNodes(nodes []*framework.NodeInfo, pre *framework.PreFilterResult, narrowedBy []string, statuses framework.NodeToStatus) []*framework.NodeInfo {
	if pre.AllNodes() {
		return nodes
	}
	out := make([]*framework.NodeInfo, 0, len(pre.NodeNames))
	absent := framework.NewStatus(framework.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", narrowedBy))
	for _, ni := range nodes {
		if pre.NodeNames[ni.Name()] {
			out = append(out, ni)
		} else {
			statuses[ni.Name()] = absent
		}
	}
	return out
}

// findNodesThatPassFilters filters nodes, starting where the last cycle stopped (so every node gets
// its turn) and stopping once numFeasibleNodesToFind have passed. In real time the nodes are filtered
// on several goroutines; the results are merged in node order, so the outcome is the same.
func (s *Scheduler) findNodesThatPassFilters(ctx context.Context, fwk *framework.Framework, state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, res *scheduleResult) ([]*framework.NodeInfo, error) {
	n := len(nodes)
	want := s.numFeasibleNodesToFind(fwk.Profile().PercentageOfNodesToScore, n)
	if cap(s.filterBuf) < n {
		s.filterBuf = make([]filterResult, n)
	}
	buf := s.filterBuf[:n]
	start := s.nextStart % n
	var found atomic.Int64
	fwk.Until(n, func(i int) bool {
		st := fwk.RunFilterPluginsWithNominatedPods(ctx, state, pod, nodes[(start+i)%n])
		buf[i] = filterResult{st: st, done: true}
		if st.IsSuccess() {
			return found.Add(1) < int64(want)
		}
		return st.Code() != framework.Error
	})
	feasible := s.feasibleBuf[:0] // no cycle keeps the list past its end
	processed := 0
	var firstErr *framework.Status
	for i := 0; i < n && buf[i].done; i++ {
		st := buf[i].st
		buf[i] = filterResult{}
		if len(feasible) == want || firstErr != nil {
			continue // evaluated in parallel beyond the cut: ignored, as if never run
		}
		processed = i + 1
		ni := nodes[(start+i)%n]
		switch {
		case st.IsSuccess():
			feasible = append(feasible, ni)
		case st.Code() == framework.Error:
			firstErr = st
		default:
			res.Diagnosis.NodeToStatus[ni.Name()] = st
			res.Diagnosis.AddUnschedulablePlugin(st.Plugin())
		}
	}
	s.nextStart = (start + processed) % n
	res.EvaluatedNodes = processed
	s.feasibleBuf = feasible[:0]
	if firstErr != nil {
		return nil, firstErr.AsError()
	}
	return feasible, nil
}

// numFeasibleNodesToFind is how many feasible nodes are enough: all of a small cluster; in a large
// one a percentage that shrinks as the cluster grows (50% minus 1% per 125 nodes, at least 5%), and
// never fewer than 100. Scoring 100 good nodes finds a good node; scoring 5000 costs 50 times more.
func (s *Scheduler) numFeasibleNodesToFind(profilePercent *int32, numAll int) int {
	if numAll < minFeasibleNodesToFind {
		return numAll
	}
	percent := int(s.percent)
	if profilePercent != nil {
		percent = int(*profilePercent)
	}
	if percent >= 100 {
		return numAll
	}
	if percent == 0 {
		percent = max(50-numAll/125, minFeasibleNodesPercentageToFind)
	}
	return max(numAll*percent/100, minFeasibleNodesToFind)
}

// selectHost picks the node with the highest total. Among equals each is equally likely: reservoir
// sampling with the scheduler's seeded random source, which is drawn from only when there is a tie.
func (s *Scheduler) selectHost(scores []framework.NodePluginScores) (string, bool) {
	best, count := 0, 1
	for i := 1; i < len(scores); i++ {
		switch {
		case scores[i].TotalScore > scores[best].TotalScore:
			best, count = i, 1
		case scores[i].TotalScore == scores[best].TotalScore:
			count++
			if s.rng.Intn(count) == 0 {
				best = i
			}
		}
	}
	return scores[best].Name, count > 1
}

// bindingCycle binds an assumed pod and reports it; on failure it undoes the assumption.
func (s *Scheduler) bindingCycle(ctx context.Context, prof *profile, state *framework.CycleState, pi *framework.QueuedPodInfo, assumed *api.Pod, host string, cycle int64) {
	fwk := prof.fwk
	st := fwk.RunPreBindPlugins(ctx, state, assumed, host)
	if st.IsSuccess() {
		st = fwk.RunBindPlugins(ctx, state, assumed, host)
	}
	if st.IsSkip() {
		st = framework.AsStatus(errors.New("no Bind plugin bound the pod"))
	}
	if !st.IsSuccess() {
		_ = s.cache.ForgetPod(assumed)
		fwk.RunReservePluginsUnreserve(ctx, state, assumed, host)
		s.record(trace.Event{Action: "bind", Object: podObject(assumed), ResourceVersion: assumed.ResourceVersion}.
			Msgf("bind %s -> %s failed: %s; the assumed pod is forgotten, the pod retries after a backoff", podKey(assumed), host, st.Message()))
		// The room the assumed pod held is free again.
		s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete)
		s.handleSchedulingFailure(ctx, prof, pi, framework.AsStatus(fmt.Errorf("binding rejected: %w", st.AsError())), nil, cycle)
		return
	}
	s.cache.FinishBinding(assumed)
	s.queue.Done(pi.Pod)
	s.record(trace.Event{Action: "bind", Object: podObject(assumed), ResourceVersion: assumed.ResourceVersion}.
		Msgf("bind %s -> %s", podKey(assumed), host))
	if prof.recorder != nil {
		prof.recorder.Eventf(ctx, assumed, client.EventNormal, "Scheduled", "Successfully assigned %s/%s to %s", assumed.Namespace, assumed.Name, host)
	}
}

func podKey(p *api.Pod) string    { return p.Namespace + "/" + p.Name }
func podObject(p *api.Pod) string { return "pods/" + podKey(p) }
