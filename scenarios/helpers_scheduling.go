// scheduling.go: what the scheduling scenarios (insufficient-resources, taints,
// node-selector-affinity, pod-anti-affinity, topology-spread, host-port, no-requests,
// custom-scheduler, explain, preemption) share: reading pods, their PodScheduled condition and their
// events the way `kubectl get pods -o wide` and `kubectl describe pod` show them, quietly (these reads
// are the simulator looking, not part of the story); waiting for the cluster to get somewhere; and
// asking kube-scheduler to explain a decision before it makes it, and reading the explanation.
package scenarios

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"kubesim/api"
	"kubesim/scheduler"
	"kubesim/scheduler/framework"
	"kubesim/sim"
	"kubesim/trace"
)

// schedEvents lists the events in default with reason about the named object, oldest first.
func schedEvents(ctx context.Context, s *sim.Session, reason, object string) []*api.Event {
	var out []*api.Event
	for _, e := range objectsNow[api.Event](ctx, s, "default", "") {
		if e.Reason == reason && (object == "" || e.InvolvedObject.Name == object) {
			out = append(out, e)
		}
	}
	return out
}

// schedCondition is the pod's PodScheduled condition, nil if it has none.
func schedCondition(p *api.Pod) *api.PodCondition {
	if p == nil {
		return nil
	}
	return api.GetPodCondition(p, api.PodScheduled)
}

// schedUnschedulable reports whether the pod carries PodScheduled=False with reason Unschedulable and
// a message starting with want (the scheduler's FitError, before any "preemption: ..." that follows).
func schedUnschedulable(p *api.Pod, want string) bool {
	c := schedCondition(p)
	return p != nil && p.Spec.NodeName == "" && c != nil && c.Status == api.ConditionFalse &&
		c.Reason == api.PodReasonUnschedulable && strings.HasPrefix(c.Message, want)
}

// schedFailedScheduling reports whether a FailedScheduling event about the pod starts with want.
func schedFailedScheduling(ctx context.Context, s *sim.Session, pod, want string) bool {
	for _, e := range schedEvents(ctx, s, "FailedScheduling", pod) {
		if strings.HasPrefix(e.Message, want) {
			return true
		}
	}
	return false
}

// schedStuck finds the pod that is Pending for the reason want: unbound, PodScheduled=False with a
// message starting with want, and a FailedScheduling event that says so. label names it, or else
// says what was seen instead (the unbound pods, or that none is Pending), so that a failed sign
// never shows an empty name.
func schedStuck(ctx context.Context, s *sim.Session, pods []*api.Pod, want string) (stuck, label string) {
	var unbound []string
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			continue
		}
		unbound = append(unbound, p.Name)
		if schedUnschedulable(p, want) && schedFailedScheduling(ctx, s, p.Name, want) {
			stuck = p.Name
		}
	}
	switch {
	case stuck != "":
		return stuck, stuck
	case len(unbound) == 0:
		return "", "no pod is Pending"
	}
	return "", strings.Join(unbound, ", ") + " (not yet Unschedulable with that message)"
}

// schedPlacement counts the bound pods per node: "node-1: 2, node-2: 1" (nodes in name order), and
// how many are not bound.
func schedPlacement(pods []*api.Pod) (perNode map[string]int, text string, pending int) {
	perNode = map[string]int{}
	for _, p := range pods {
		if p.Spec.NodeName == "" {
			pending++
			continue
		}
		perNode[p.Spec.NodeName]++
	}
	names := make([]string, 0, len(perNode))
	for n := range perNode {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s: %d", n, perNode[n])
	}
	return perNode, strings.Join(parts, ", "), pending
}

// schedExplain asks the scheduler to explain pod (as of the cluster now, binding nothing) and puts
// its answer, the tables kubesim explain prints, into the story as one event.
func schedExplain(s *sim.Session, sched *scheduler.Scheduler, pod *api.Pod) *scheduler.Explanation {
	ex, err := sched.Explain(pod)
	if err != nil {
		s.Expect(false, "the scheduler explains %s/%s: %v", pod.Namespace, pod.Name, err)
		return nil
	}
	s.Trace.Record(trace.Event{Component: "kubesim", Action: "explain", Object: "pods/" + pod.Namespace + "/" + pod.Name}.
		Msgf("%s", strings.TrimRight(ex.String(), "\n")))
	return ex
}

// schedNodeVerdict is one node's line in an explanation: feasible or the filter that rejected it.
func schedNodeVerdict(ex *scheduler.Explanation, node string) *scheduler.NodeExplanation {
	if ex == nil {
		return nil
	}
	for i := range ex.Nodes {
		if ex.Nodes[i].Name == node {
			return &ex.Nodes[i]
		}
	}
	return nil
}

// schedPluginScore is one Score plugin's contribution on a node in an explanation.
func schedPluginScore(ex *scheduler.Explanation, node, plugin string) (framework.PluginScore, bool) {
	if ne := schedNodeVerdict(ex, node); ne != nil {
		for _, ps := range ne.Scores {
			if ps.Plugin == plugin {
				return ps, true
			}
		}
	}
	return framework.PluginScore{}, false
}

// schedStartScheduler is the step that starts kube-scheduler in the scenario itself and keeps it at
// hand, so that the scenario can ask it to explain a decision (a cluster built with Scheduler: true
// does not hand its scheduler out).
func schedStartScheduler(ctx context.Context, s *sim.Session) *scheduler.Scheduler {
	s.Step("kube-scheduler starts; the scenario keeps a handle on it to ask it to explain its decisions")
	ks, err := s.StartScheduler(ctx, "kube-scheduler", "kube-scheduler")
	if err != nil {
		s.Expect(false, "kube-scheduler starts: %v", err)
		return nil
	}
	return ks.Scheduler
}

// schedApplyAndExplain applies a one-pod manifest and, before the scheduler's cycle for it, asks
// the scheduler where it would go and why. When it is the only pod waiting, the explanation is
// exactly what that cycle will see.
func schedApplyAndExplain(ctx context.Context, s *sim.Session, sched *scheduler.Scheduler, manifest string) *scheduler.Explanation {
	objs, err := s.Kubectl.Apply(ctx, []byte(manifest))
	if err != nil || len(objs) != 1 {
		s.Expect(false, "kubectl apply: one pod created")
		return nil
	}
	pod, ok := objs[0].(*api.Pod)
	if !ok {
		s.Expect(false, "kubectl apply: the manifest is a Pod")
		return nil
	}
	if err := s.Driver.Settle(ctx); err != nil {
		s.Expect(false, "the scheduler's informers catch up: %v", err)
		return nil
	}
	return schedExplain(s, sched, pod)
}
