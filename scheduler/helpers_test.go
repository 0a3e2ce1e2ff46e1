// helpers_test.go: a small cluster for the scheduler's tests. There is no kubelet: the tests create
// Nodes themselves, as an admin, with the status a kubelet would report (allocatable, capacity), and
// create pods as kubectl would.
package scheduler_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubesim/api"
	"kubesim/api/resource"
	"kubesim/client"
	"kubesim/internal/testenv"
	"kubesim/narrate"
	"kubesim/scheduler"
	"kubesim/sim"
	"kubesim/trace"
)

type env struct {
	t     *testing.T
	ctx   context.Context
	c     *sim.Cluster
	s     *scheduler.Scheduler
	admin *client.Client
}

// newEnv boots a step-mode cluster with a scheduler; opts adjust the scheduler's options.
func newEnv(t *testing.T, opts ...func(*scheduler.Options)) *env {
	t.Helper()
	c, ctx := testenv.Cluster(t, testenv.Step)
	e := &env{t: t, ctx: ctx, c: c, admin: c.Kubectl.Client()}
	e.s = e.addScheduler(opts...)
	return e
}

// addScheduler starts a(nother) scheduler in the cluster.
func (e *env) addScheduler(opts ...func(*scheduler.Options)) *scheduler.Scheduler {
	e.t.Helper()
	o := scheduler.Options{Client: e.c.Client(scheduler.Identity, "kube-scheduler"), Clock: e.c.Clock, Trace: e.c.Trace, Seed: 1}
	for _, fn := range opts {
		fn(&o)
	}
	s, err := scheduler.New(o)
	require.NoError(e.t, err)
	require.NoError(e.t, e.c.Add(e.ctx, s))
	return s
}

func rl(cpu, mem string) resource.ResourceList {
	out := resource.ResourceList{}
	if cpu != "" {
		out[resource.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		out[resource.ResourceMemory] = resource.MustParse(mem)
	}
	return out
}

// addNode creates a node with the given allocatable cpu and memory and room for 110 pods.
func (e *env) addNode(name, cpu, mem string, mods ...func(*api.Node)) *api.Node {
	e.t.Helper()
	alloc := rl(cpu, mem)
	alloc[resource.ResourcePods] = resource.MustParse("110")
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
		Status: api.NodeStatus{Capacity: alloc.DeepCopy(), Allocatable: alloc,
			Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
	for _, m := range mods {
		m(n)
	}
	out, err := client.For[api.Node](e.admin).Create(e.ctx, n)
	require.NoError(e.t, err)
	return out
}

func withLabels(kv ...string) func(*api.Node) {
	return func(n *api.Node) {
		for i := 0; i+1 < len(kv); i += 2 {
			n.Labels[kv[i]] = kv[i+1]
		}
	}
}

func withTaint(key, value string, effect api.TaintEffect) func(*api.Node) {
	return func(n *api.Node) {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: key, Value: value, Effect: effect})
	}
}

// newPod is a one-container pod (nginx:1.25) in default requesting cpu and memory ("" = none).
func newPod(name, cpu, mem string, mods ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}}}
	if req := rl(cpu, mem); len(req) > 0 {
		p.Spec.Containers[0].Resources.Requests = req
	}
	for _, m := range mods {
		m(p)
	}
	return p
}

// create creates a pod as kubectl does.
func (e *env) create(p *api.Pod) {
	e.t.Helper()
	_, err := e.c.Kubectl.Create(e.ctx, p)
	require.NoError(e.t, err)
}

func (e *env) get(name string) *api.Pod {
	e.t.Helper()
	p, err := client.For[api.Pod](e.admin).Get(e.ctx, "default", name)
	require.NoError(e.t, err)
	return p
}

// runUntil steps the cluster until cond holds.
func (e *env) runUntil(what string, cond func() bool) {
	e.t.Helper()
	require.NoError(e.t, e.c.Driver.RunUntil(e.ctx, what, func() (bool, error) { return cond(), nil }, 500))
}

// runUntilBound steps until the pod has a node, and returns the node.
func (e *env) runUntilBound(name string) string {
	e.t.Helper()
	var node string
	e.runUntil(name+" bound", func() bool {
		node = e.get(name).Spec.NodeName
		return node != ""
	})
	return node
}

// runUntilFailed steps until the pod has a FailedScheduling event, and returns its message.
func (e *env) runUntilFailed(name string) string {
	e.t.Helper()
	var msg string
	e.runUntil(name+" FailedScheduling", func() bool {
		for _, ev := range e.events(name) {
			if ev.Reason == "FailedScheduling" {
				msg = ev.Message
				return true
			}
		}
		return false
	})
	return msg
}

// settle runs every unit of work that is due now, without letting time pass.
func (e *env) settle() {
	e.t.Helper()
	require.NoError(e.t, e.c.Driver.Advance(e.ctx, 0))
}

// events lists the events about a pod, oldest first.
func (e *env) events(name string) []*api.Event {
	e.t.Helper()
	evs, _, err := client.For[api.Event](e.admin).List(e.ctx, "default", client.ListOptions{})
	require.NoError(e.t, err)
	var out []*api.Event
	for _, ev := range evs {
		if ev.InvolvedObject.Name == name {
			out = append(out, ev)
		}
	}
	return out
}

// schedulerTrace returns the scheduler's trace lines (the messages), for assertions.
func (e *env) schedulerTrace() []string {
	return testenv.Messages(e.c, "kube-scheduler", "default-scheduler")
}

func containsLine(lines []string, substr string) bool {
	for _, l := range lines {
		if strings.Contains(l, substr) {
			return true
		}
	}
	return false
}

// traceText renders the whole trace, one event per line, for determinism checks.
func traceText(events []trace.Event) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "%d %s %s %s %s %s %s\n", e.Seq, e.Time, e.Component, e.Action, e.Object, e.ResourceVersion, e.Message)
	}
	return b.String()
}

// clientDeleteNow deletes with a zero grace period, as the kubelet finishing a graceful deletion does.
func clientDeleteNow() client.DeleteOptions {
	return client.DeleteOptions{GracePeriodSeconds: api.Ptr[int64](0)}
}

func clientNodes(e *env) client.Resource[api.Node, *api.Node] { return client.For[api.Node](e.admin) }

// dumpTrace prints the story so far (go test -v shows it), for reading a scenario as a learner would.
func dumpTrace(t *testing.T, e *env, verbose bool) {
	t.Helper()
	n, err := narrate.New(os.Stdout, narrate.Options{Verbose: verbose})
	require.NoError(t, err)
	for _, ev := range e.c.Trace.Events() {
		n.Event(ev)
	}
	require.NoError(t, n.Close())
}
