// fixed.go: the scheduler over a fixed cluster given as objects, with no apiserver and no informers:
// Explain and one scheduling cycle (Filter, Score, the pick, PostFilter's preemption message) for a
// pod, nothing assumed or bound. The differential test (difftest/scheduler) runs it beside
// kube-scheduler's own framework on generated clusters. Interface: FixedCluster, Fixed, NewFixed,
// (*Fixed).Explain, (*Fixed).Schedule, (*Fixed).Preempt.
package scheduler

import (
	"context"
	"errors"

	"kubesim/api"
	"kubesim/scheduler/framework"
	"kubesim/scheduler/plugins"
)

// FixedCluster is a cluster as objects: the nodes, the pods bound to them (spec.nodeName set), the
// workloads default topology spreading reads, the budgets preemption weighs, and the claims,
// volumes and classes the volume plugins read.
type FixedCluster struct {
	Nodes             []*api.Node
	Pods              []*api.Pod
	Services          []*api.Service
	ReplicaSets       []*api.ReplicaSet
	DisruptionBudgets []*api.PodDisruptionBudget
	Claims            []*api.PersistentVolumeClaim
	Volumes           []*api.PersistentVolume
	Classes           []*api.StorageClass
}

// Fixed is a scheduler with the default profile whose cache holds a FixedCluster.
type Fixed struct{ s *Scheduler }

// NewFixed builds the scheduler over c; seed breaks ties among equal scores.
func NewFixed(c FixedCluster, seed int64) (*Fixed, error) {
	s, err := newScheduler(Options{Seed: seed, Parallelism: 1})
	if err != nil {
		return nil, err
	}
	s.fixed = &c
	for _, n := range c.Nodes {
		s.cache.AddNode(n)
	}
	for _, p := range c.Pods {
		s.cache.AddPod(p)
	}
	return &Fixed{s: s}, nil
}

// Explain is (*Scheduler).Explain over the fixed cluster.
func (f *Fixed) Explain(pod *api.Pod) (*Explanation, error) { return f.s.Explain(pod) }

// Schedule runs one scheduling cycle for pod without assuming or binding it: the node it would
// bind to, or, when no node fits, the FailedScheduling message (PostFilter's sentences included).
// There is no apiserver: a preemption that finds victims nominates their node and evicts nothing.
func (f *Fixed) Schedule(pod *api.Pod) (node, message string, err error) {
	fitErr, node, err := f.cycle(pod)
	if fitErr == nil {
		return node, "", err
	}
	// As schedulingCycle: PostFilter's message is taken whatever its code.
	prof := f.s.profiles[api.DefaultSchedulerName]
	_, st := prof.fwk.RunPostFilterPlugins(context.Background(), fitErr.state, pod, fitErr.Diagnosis.NodeToStatus)
	fitErr.Diagnosis.PostFilterMsg = st.Message()
	return "", fitErr.Error(), nil
}

// Preempt is DefaultPreemption's dry run for a pod that fits no node: every candidate node with
// its victims, and the node PostFilter would nominate (none, and no candidates, when pod fits).
func (f *Fixed) Preempt(pod *api.Pod) (candidates []plugins.Candidate, nominated string, err error) {
	fitErr, _, err := f.cycle(pod)
	if fitErr == nil {
		return nil, "", err
	}
	pl, err := plugins.NewDefaultPreemption(f.s.profiles[api.DefaultSchedulerName].fwk)
	if err != nil {
		return nil, "", err
	}
	candidates, nominated, _ = pl.(*plugins.DefaultPreemption).DryRun(context.Background(), fitErr.state, pod, fitErr.Diagnosis.NodeToStatus)
	return candidates, nominated, nil
}

// cycleFailure is a cycle's FitError with the state PostFilter continues from.
type cycleFailure struct {
	*framework.FitError
	state *framework.CycleState
}

// cycle runs Filter and Score for pod on a fresh snapshot: the node picked, or why none fits.
func (f *Fixed) cycle(pod *api.Pod) (*cycleFailure, string, error) {
	s := f.s
	prof := s.profiles[api.DefaultSchedulerName]
	s.cache.UpdateSnapshot(s.snapshot)
	prof.fwk.SetCycle(s.snapshot, s.queue.NominatedPods())
	state := framework.NewCycleState()
	res, err := s.schedulePod(context.Background(), prof.fwk, state, pod, s.snapshot)
	var fitErr *framework.FitError
	switch {
	case errors.As(err, &fitErr):
		return &cycleFailure{FitError: fitErr, state: state}, "", nil
	case err != nil:
		return nil, "", err
	}
	return nil, res.SuggestedHost, nil
}

// services lists the cluster's Services (none for a nil cluster).
func (c *FixedCluster) services() []*api.Service {
	if c == nil {
		return nil
	}
	return c.Services
}

// replicaSet finds a ReplicaSet by namespace and name.
func (c *FixedCluster) replicaSet(namespace, name string) (*api.ReplicaSet, bool) {
	if c == nil {
		return nil, false
	}
	for _, rs := range c.ReplicaSets {
		if rs.Namespace == namespace && rs.Name == name {
			return rs, true
		}
	}
	return nil, false
}
