// exercise.go: what the teaching exercises under examples/labs need from a Lab. A learner's component
// joins the cluster through an Option (SchedulerPlugin, Admission); the skeleton a learner starts from
// answers TODO where the work is; a grader says "not started" rather than failing on a TODO, and tells
// the story of what the learner's code did when it gets something wrong.
//
// Interface: SchedulerPlugin, SchedulerProfile, Admission, CrashLoopBackOff, TODO, IsTODO, Unfinished, Reference, NotStarted, SameStory, Lab.StoryOf,
// Lab.PodsIn, Lab.Create.
package lab

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/kubelet"
	"kubesim/scheduler/framework"
	"kubesim/sim"
)

// SchedulerPlugin adds an out-of-tree plugin to the default kube-scheduler and enables it in its
// profiles, after the default plugins (weight matters only for a Score plugin; 0 means 1). Each call
// adds one plugin.
func SchedulerPlugin(name string, factory framework.PluginFactory, weight int32) Option {
	return func(c *sim.Config) {
		register(c, name, factory)
		editProfiles(c, func(refs []framework.PluginRef) []framework.PluginRef {
			return append(refs, framework.PluginRef{Name: name, Weight: weight})
		})
	}
}

// SchedulerProfile replaces the default kube-scheduler's profile: an exercise that wants only its own
// scoring to decide lists the few plugins it needs.
func SchedulerProfile(p framework.Profile) Option {
	return func(c *sim.Config) { c.SchedulerProfiles = []framework.Profile{p} }
}

// Admission adds a validating admission plugin to the apiserver.
func Admission(p apiserver.ValidatingAdmission) Option {
	return func(c *sim.Config) { c.ValidatingAdmission = append(c.ValidatingAdmission, p) }
}

// CrashLoopBackOff gives every kubelet a restart delay policy for crashed containers.
func CrashLoopBackOff(p kubelet.BackOffPolicy) Option {
	return func(c *sim.Config) { c.CrashLoopBackOff = p }
}

// todoPrefix starts every TODO error, and every line a learner searches for in a skeleton.
const todoPrefix = "TODO(lab): "

// TODO is what a skeleton returns where the learner has work to do: what to write, in a sentence.
func TODO(what string) error { return errors.New(todoPrefix + what) }

// IsTODO reports whether err (or a message) comes from a skeleton's TODO.
func IsTODO(err error) bool { return err != nil && strings.Contains(err.Error(), todoPrefix) }

// Unfinished is err if it is a TODO, else nil: what a lab's Started answers from a probe of the
// learner's code (a real answer, even an error, means the learner has started).
func Unfinished(err error) error {
	if IsTODO(err) {
		return err
	}
	return nil
}

// NotStarted ends a grading test whose learner code still answers TODO: in a learner's build the test
// is skipped with the TODO as guidance (so `go test ./...` stays green on untouched skeletons, and
// `kubesim lab check` shows what to do first); when grading the reference solutions (Reference) a
// TODO is a failure. It does nothing when err is not a TODO.
func NotStarted(t testing.TB, err error) {
	t.Helper()
	if !IsTODO(err) {
		return
	}
	if Reference {
		t.Fatalf("the reference solution still answers %v", err)
	}
	t.Skipf("not started: %v", err)
}

// SameStory fails the test unless scenario sc, played with the swaps, tells the story the built-in
// components tell, line for line (same seed); the failure is the story diff: where your component
// first did something else. A story that names a TODO is "not started" (NotStarted).
func SameStory(t testing.TB, sc sim.Scenario, swaps ...Swap) {
	t.Helper()
	d, yourErr, err := Compare(context.Background(), sc, 1, swaps...)
	if err != nil {
		t.Fatalf("lab: %v", err)
	}
	if d.TODO != "" {
		NotStarted(t, errors.New(d.TODO))
	}
	if d.Same {
		return
	}
	failed := ""
	if yourErr != nil {
		failed = fmt.Sprintf(" With it, the scenario fails: %v.", yourErr)
	}
	t.Fatalf("scenario %s (kubesim run %s --verbose) tells another story with your code in the cluster.%s\n%s", sc.Name, sc.Name, failed, d)
}

// StoryOf is the story of one object as the named components (trace component prefixes, such as
// "kube-scheduler" or "kubelet/"; none means all) told it: the trace lines that name the object
// ("default/web-1", or any part of an object's path), detail lines included, indented for a failure
// message.
func (l *Lab) StoryOf(object string, components ...string) string {
	var b strings.Builder
	for _, e := range l.Cluster.Trace.Events() {
		if !fromAny(e.Component, components) {
			continue
		}
		if strings.Contains(e.Object, object) || strings.Contains(e.Message, object) {
			fmt.Fprintf(&b, "\n    %-8s %-23s %s", e.Time, e.Component, e.Message)
		}
	}
	if b.Len() == 0 {
		return "\n    (no trace line names " + object + ")"
	}
	return b.String()
}

func fromAny(component string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(component, p) {
			return true
		}
	}
	return len(prefixes) == 0
}

// PodsIn lists the pods in a namespace matching a label selector ("" for all).
func (l *Lab) PodsIn(namespace, selector string) []*api.Pod {
	l.t.Helper()
	pods, err := sim.List[api.Pod](l.ctx, l.Cluster, namespace, selector, "")
	if err != nil {
		l.fail("kubectl get pods -n %s -l %s: %v", namespace, selector, err)
	}
	return pods
}

// Create sends one object as the cluster admin and returns the apiserver's answer, refusals included:
// an exercise about a gate checks the error itself.
func (l *Lab) Create(obj api.Object) (api.Object, error) {
	return l.Cluster.Kubectl.Create(l.ctx, obj)
}
