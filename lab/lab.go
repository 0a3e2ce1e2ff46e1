// Package lab is kubesim for tests that read like the articles: build a cluster, apply a manifest, let
// the cluster work until something holds, then check what a learner would check with kubectl: an
// object's status, the events, the trace.
//
//	func TestTheArticlesDeployment(t *testing.T) {
//		l := lab.New(t)                                  // 3 nodes, the whole control plane, step mode
//		l.Apply(manifests.NginxDeployment)               // kubectl apply -f nginx-deployment.yaml
//		l.Until("deployment nginx available")            // the cluster works, in virtual time
//		l.ExpectEvent("ScalingReplicaSet", "Scaled up replica set nginx-")
//		if got := l.Deployment("nginx").Status.AvailableReplicas; got != 3 { t.Fatal(got) }
//	}
//
// Every helper fails the test with a clear message (and the end of the story) instead of returning an
// error, so a test stays a list of steps. The teaching exercises in examples/labs build on it
// (exercise.go): a learner's scheduler plugin or admission plugin joins the cluster through an Option,
// and the grader tells the story of what it did. A learner's component can also take the place of the
// built-in one in any scenario (swap.go: lab.WithController, WithSchedulerPlugin, WithAdmission,
// WithCrashLoopBackOff, WithProbeThreshold), and the story it makes is compared line by line with the
// reference story (storydiff.go: where it first parts, and how).
package lab

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/script"
	"kubesim/sim"
	"kubesim/trace"
)

// Lab is one test's cluster.
type Lab struct {
	t       testing.TB
	ctx     context.Context
	Cluster *sim.Cluster
}

// Option changes the cluster a Lab builds.
type Option func(*sim.Config)

// Nodes sets how many default nodes the cluster has.
func Nodes(n int) Option { return func(c *sim.Config) { c.Nodes, c.NodeSpecs = n, nil } }

// NodeSpecs shapes each node.
func NodeSpecs(specs ...sim.NodeSpec) Option { return func(c *sim.Config) { c.NodeSpecs = specs } }

// Seed sets the seed of every random choice.
func Seed(seed int64) Option { return func(c *sim.Config) { c.Seed = seed } }

// Bare leaves out the controller manager, the scheduler and the nodes: etcd and the apiserver only,
// for exercises that bring their own component.
func Bare() Option {
	return func(c *sim.Config) { c.ControllerManager, c.Scheduler, c.Nodes, c.NodeSpecs = false, false, 0, nil }
}

// New builds a step-mode cluster (by default the whole control plane and 3 nodes, seed 1) that lives
// as long as the test.
func New(t testing.TB, opts ...Option) *Lab {
	t.Helper()
	cfg := sim.FullCluster(3)
	cfg.Seed, cfg.KeepTrace = 1, true
	for _, o := range opts {
		o(&cfg)
	}
	cfg.Mode = sim.StepMode
	ctx := context.Background()
	c, err := sim.New(ctx, cfg)
	if err != nil {
		t.Fatalf("lab: building the cluster: %v", err)
	}
	t.Cleanup(c.Close)
	return &Lab{t: t, ctx: ctx, Cluster: c}
}

// Kubectl is the cluster admin's kubectl.
func (l *Lab) Kubectl() *sim.Kubectl { return l.Cluster.Kubectl }

// Apply applies a manifest (`kubectl apply -f`), failing the test if the apiserver refuses it.
func (l *Lab) Apply(manifest string) []api.Object {
	l.t.Helper()
	objs, err := l.Cluster.Kubectl.Apply(l.ctx, []byte(manifest))
	if err != nil {
		l.fail("kubectl apply: %v", err)
	}
	return objs
}

// Until lets the cluster work until the condition holds (see script.ParseCondition for the forms:
// "deployment nginx available", "pods -l app=nginx running", "pod web-* reason CrashLoopBackOff",
// "node node-2 unknown", "event FailedScheduling", ...), within an hour of cluster time.
func (l *Lab) Until(condition string) {
	l.t.Helper()
	cond, err := script.ParseCondition(condition)
	if err != nil {
		l.t.Fatalf("lab: %v", err)
	}
	met, err := l.Cluster.Wait(l.ctx, cond, 0, 0)
	if err != nil || !met {
		l.fail("still not %s after %s of cluster time (%v)", condition, sim.MaxWait, err)
	}
}

// Holds reports whether a condition holds now, without letting the cluster work.
func (l *Lab) Holds(condition string) bool {
	l.t.Helper()
	cond, err := script.ParseCondition(condition)
	if err != nil {
		l.t.Fatalf("lab: %v", err)
	}
	if err := l.Cluster.Driver.Settle(l.ctx); err != nil {
		l.t.Fatalf("lab: %v", err)
	}
	ok, err := cond.Met(l.ctx, l.Cluster)
	if err != nil {
		l.t.Fatalf("lab: %v", err)
	}
	return ok
}

// Advance lets d of cluster time pass, the components working as it does.
func (l *Lab) Advance(d time.Duration) {
	l.t.Helper()
	if err := l.Cluster.Driver.Advance(l.ctx, d); err != nil {
		l.fail("advancing %s: %v", d, err)
	}
}

// Deployment reads a Deployment in default.
func (l *Lab) Deployment(name string) *api.Deployment {
	l.t.Helper()
	d, err := sim.Get[api.Deployment](l.ctx, l.Cluster, "default", name)
	if err != nil {
		l.fail("kubectl get deployment %s: %v", name, err)
	}
	return d
}

// Pods lists the pods in default matching a label selector ("" for all): PodsIn("default", selector).
func (l *Lab) Pods(selector string) []*api.Pod {
	l.t.Helper()
	return l.PodsIn("default", selector)
}

// Node reads a Node.
func (l *Lab) Node(name string) *api.Node {
	l.t.Helper()
	n, err := sim.Get[api.Node](l.ctx, l.Cluster, "", name)
	if err != nil {
		l.fail("kubectl get node %s: %v", name, err)
	}
	return n
}

// ExpectEvent fails the test unless some Event has the reason and a message containing message.
func (l *Lab) ExpectEvent(reason, message string) *api.Event {
	l.t.Helper()
	events, err := sim.List[api.Event](l.ctx, l.Cluster, "", "", "")
	if err != nil {
		l.fail("kubectl get events: %v", err)
	}
	if e := sim.FindEvent(events, reason, message); e != nil {
		return e
	}
	var seen []string
	for _, e := range events {
		seen = append(seen, e.Reason+": "+e.Message)
	}
	l.fail("no event %s %q; the events are:\n  %s", reason, message, strings.Join(seen, "\n  "))
	return nil
}

// ExpectTrace fails the test unless some trace line of component (any, if "") contains text.
func (l *Lab) ExpectTrace(component, text string) trace.Event {
	l.t.Helper()
	if e, ok := sim.FindLine(l.Cluster.Trace.Events(), component, text); ok {
		return e
	}
	l.fail("no trace line from %q contains %q", component, text)
	return trace.Event{}
}

// fail stops the test with the message and the last lines of the story.
func (l *Lab) fail(format string, args ...any) {
	l.t.Helper()
	events := l.Cluster.Trace.Events()
	var tail []string
	for i := max(0, len(events)-25); i < len(events); i++ {
		e := events[i]
		if !e.Detail {
			tail = append(tail, fmt.Sprintf("%5d %-8s %-23s %s", e.Seq, e.Time, e.Component, e.Message))
		}
	}
	l.t.Fatalf("lab: %s\nthe story so far ends with:\n%s", fmt.Sprintf(format, args...), strings.Join(tail, "\n"))
}
