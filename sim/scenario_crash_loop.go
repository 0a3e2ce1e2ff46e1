// scenario_crash_loop.go: crash-loop, a container that exits 1 as soon as it starts (article 2,
// section 6.2, "the pod keeps restarting"): the kubelet restarts it per restartPolicy Always, each
// time after a longer back-off (10s doubling to 5 minutes), and the pod shows CrashLoopBackOff.
//
// The end of the file holds the small helpers every node scenario (section 6 of the catalogue)
// shares: waiting a bounded time for a state, and reading pods, nodes and events as kubectl would.
package sim

import (
	"context"
	"fmt"
	"kubesim/scenarios/manifests"
	"strings"
	"time"

	"kubesim/api"
)

func init() {
	Register(Scenario{
		Name:    "crash-loop",
		Summary: "a container that exits 1 right after it starts: restarts with back-off 10s, 20s, 40s ... up to 5m, CrashLoopBackOff",
		Teaches: `A pod runs busybox with sh -c "exit 1": the container starts and exits with code 1 at once. The
kubelet notices through its PLEG relist (every second), and since restartPolicy is Always it starts the
container again: the first time at once, then only after a back-off that starts at 10s and doubles at
each crash (20s, 40s, 1m20s, 2m40s) up to 5 minutes, per pod and container. While it waits, the container
is in state Waiting with reason CrashLoopBackOff, which kubectl get pods shows as the pod's STATUS. A
container that then runs for 10 minutes without crashing starts over at 10s.

Signs to look for: RESTARTS growing; STATUS CrashLoopBackOff; the waiting message "back-off 10s
restarting failed container=app pod=crasher_default(...)" whose delay doubles up to 5m0s; Last State
Terminated, reason Error, exit code 1; the event "Back-off restarting failed container app in pod
crasher_default(...)", counted up as it repeats.`,
		Cluster: FullCluster(3),
		Run:     runCrashLoop,
	})
}

var crasherYAML = manifests.Read("crasher.yaml")

func runCrashLoop(ctx context.Context, s *Session) error {
	s.Step(`kubectl apply: a pod whose only container runs sh -c "exit 1"`)
	if _, err := s.Kubectl.Apply(ctx, []byte(crasherYAML)); err != nil {
		s.Expect(false, "the pod is created: %v", err)
		return s.Err()
	}

	s.Step("It starts, exits 1, and is restarted at once: the first crash costs no back-off")
	if !waitWithin(ctx, s, time.Minute, "pod crasher restarted once and waiting in CrashLoopBackOff", func() (bool, error) {
		p, err := observePod(ctx, s, "crasher")
		return err == nil && restarts(p) >= 1 && waitingReason(p) == "CrashLoopBackOff", err
	}) {
		return s.Err()
	}
	p, _ := observePod(ctx, s, "crasher")
	cs := containerStatus(p, "app")
	s.Expect(cs != nil && cs.LastTerminationState.Terminated != nil && cs.LastTerminationState.Terminated.ExitCode == 1 &&
		cs.LastTerminationState.Terminated.Reason == "Error", "kubectl describe pod crasher: Last State Terminated, Reason Error, Exit Code 1")

	s.Step("Each crash doubles the back-off before the next restart, up to the 5-minute cap")
	// The kubelet writes the current delay into the waiting message; follow it restart after restart.
	var delays []string
	for len(delays) < 6 {
		var p *api.Pod
		if !waitWithin(ctx, s, 6*time.Minute, fmt.Sprintf("restart %d, then CrashLoopBackOff", len(delays)+1), func() (bool, error) {
			var err error
			p, err = observePod(ctx, s, "crasher")
			return err == nil && restarts(p) > len(delays) && backoffDelay(p) != "", err
		}) {
			return s.Err()
		}
		delays = append(delays, backoffDelay(p))
		s.Expect(true, "restartCount %d, STATUS CrashLoopBackOff: %s", restarts(p), waitingMessage(p))
	}
	s.Expect(strings.Join(delays, " ") == "10s 20s 40s 1m20s 2m40s 5m0s",
		"the back-offs were %s: doubling from 10s, and 2m40s doubled is 5m20s, so the cap of 5m0s holds it", strings.Join(delays, ", "))

	s.Step("What kubectl get pods and kubectl describe pod show")
	p, err := observePod(ctx, s, "crasher")
	if err != nil {
		return err
	}
	s.Expect(waitingReason(p) == "CrashLoopBackOff" && restarts(p) >= 6,
		"kubectl get pod crasher: READY 0/1, STATUS CrashLoopBackOff, RESTARTS %d", restarts(p))
	events, err := observeEvents(ctx, s)
	if err != nil {
		return err
	}
	backoff := findEvent(events, "BackOff", "Back-off restarting failed container app in pod crasher_default(")
	s.Expect(backoff != nil && backoff.Type == api.EventTypeWarning && backoff.Count > 1,
		"event Warning BackOff: Back-off restarting failed container app in pod crasher_default(...) (x%d)", eventCount(backoff))
	return s.Err()
}

// backoffDelay is the delay in a CrashLoopBackOff waiting message ("back-off 40s restarting failed
// container=..."), or "".
func backoffDelay(p *api.Pod) string {
	if waitingReason(p) != "CrashLoopBackOff" {
		return ""
	}
	var delay string
	if _, err := fmt.Sscanf(waitingMessage(p), "back-off %s restarting", &delay); err != nil {
		return ""
	}
	return delay
}

// ---- helpers shared by the node scenarios ----

// funcCondition adapts a check written in Go to a Condition, so a scenario can wait for it with
// Cluster.WaitFor.
type funcCondition struct {
	what string
	met  func() (bool, error)
}

func (f funcCondition) String() string                              { return f.what }
func (f funcCondition) Met(context.Context, *Cluster) (bool, error) { return f.met() }

// waitWithin runs the cluster until met holds, for at most within of cluster time. If it does not
// hold by then, that is an unmet sign (what), and it returns false.
func waitWithin(ctx context.Context, s *Session, within time.Duration, what string, met func() (bool, error)) bool {
	ok, _, err := s.WaitFor(ctx, funcCondition{what, met}, within, 0)
	if err != nil || !ok {
		s.Expect(false, "%s (within %s): %v", what, within, err)
		return false
	}
	return true
}

// waitFor runs the cluster until a condition in ParseCondition's language holds, within a bound.
func waitFor(ctx context.Context, s *Session, within time.Duration, condition string) bool {
	cond, err := ParseCondition(condition)
	if err != nil {
		s.Expect(false, "%v", err)
		return false
	}
	return waitWithin(ctx, s, within, condition, func() (bool, error) { return cond.Met(ctx, s.Cluster) })
}

// observeObjects lists objects as kubectl get would (name exact, a prefix ending in *, or "" for all),
// with Quiet requests that stay out of the story.
func observeObjects[T any, PT interface {
	*T
	api.Object
}](ctx context.Context, s *Session, resource, namespace, selector, name string) ([]PT, error) {
	res, _ := api.ResourceFor(resource)
	objs, err := observe(ctx, s.Cluster, res, namespace, selector, name)
	out := make([]PT, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(PT))
	}
	return out, err
}

// observePod reads a pod in default (kubectl get pod NAME).
func observePod(ctx context.Context, s *Session, name string) (*api.Pod, error) {
	pods, err := observeObjects[api.Pod](ctx, s, "pods", "default", "", name)
	if err == nil && len(pods) == 0 {
		err = fmt.Errorf("pods %q not found", name)
	}
	if err != nil {
		return nil, err
	}
	return pods[0], nil
}

// observePods lists the pods in default that match a label selector (kubectl get pods -l SELECTOR).
func observePods(ctx context.Context, s *Session, selector string) ([]*api.Pod, error) {
	return observeObjects[api.Pod](ctx, s, "pods", "default", selector, "")
}

// observeNode reads a node (kubectl get node NAME).
func observeNode(ctx context.Context, s *Session, name string) (*api.Node, error) {
	nodes, err := observeObjects[api.Node](ctx, s, "nodes", "", "", name)
	if err == nil && len(nodes) == 0 {
		err = fmt.Errorf("nodes %q not found", name)
	}
	if err != nil {
		return nil, err
	}
	return nodes[0], nil
}

// observeEvents lists the events in default, where events about nodes are kept too.
func observeEvents(ctx context.Context, s *Session) ([]*api.Event, error) {
	return observeObjects[api.Event](ctx, s, "events", "default", "", "")
}

// findEvent is the first event with the reason whose message contains message, or nil.
func findEvent(events []*api.Event, reason, message string) *api.Event {
	for _, e := range events {
		if e.Reason == reason && strings.Contains(e.Message, message) {
			return e
		}
	}
	return nil
}

func eventCount(e *api.Event) int32 {
	if e == nil {
		return 0
	}
	return e.Count
}

// containerStatus is the status of the named container, or nil.
func containerStatus(p *api.Pod, name string) *api.ContainerStatus {
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// restarts is the pod's RESTARTS column: the restart counts of its containers, summed.
func restarts(p *api.Pod) int {
	n := 0
	for _, cs := range p.Status.ContainerStatuses {
		n += int(cs.RestartCount)
	}
	return n
}

// waitingReason is the reason of the first waiting container ("" if none waits).
func waitingReason(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil {
			return cs.State.Waiting.Reason
		}
	}
	return ""
}

func waitingMessage(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil {
			return cs.State.Waiting.Message
		}
	}
	return ""
}

// podReady is the status of the pod's Ready condition.
func podReady(p *api.Pod) api.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status
		}
	}
	return ""
}

// nodeCondition is the node's condition of type t (a zero condition if it has none).
func nodeCondition(n *api.Node, t api.NodeConditionType) api.NodeCondition {
	for _, c := range n.Status.Conditions {
		if c.Type == t {
			return c
		}
	}
	return api.NodeCondition{}
}

// hasTaint reports whether the node carries the taint key with the effect.
func hasTaint(n *api.Node, key string, effect api.TaintEffect) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}
