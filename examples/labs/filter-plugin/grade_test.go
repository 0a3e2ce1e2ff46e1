// grade_test.go: the grader. Each test builds a whole cluster in step mode with your plugin in the
// default scheduler's profile, creates pods, and checks where the scheduler put them.
package filterplugin

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/sim"
)

// nodes: node-1 has an SSD, node-2 and node-3 do not (or, with ssd false, none has).
func nodes(ssd bool) lab.Option {
	specs := []sim.NodeSpec{{Name: "node-1"}, {Name: "node-2"}, {Name: "node-3"}}
	for i := range specs {
		specs[i].CPU, specs[i].Memory, specs[i].Pods = "4", "8Gi", 110
	}
	if ssd {
		specs[0].Labels = map[string]string{"disktype": "ssd"}
	}
	return lab.NodeSpecs(specs...)
}

func pod(name string, labels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
}

// started skips (or, grading the reference, fails) while Filter still answers TODO.
func started(t *testing.T) {
	t.Helper()
	lab.NotStarted(t, Started())
}

func TestPodsThatAskForAnSSDRunOnTheSSDNode(t *testing.T) {
	started(t)
	l := lab.New(t, nodes(true), lab.SchedulerPlugin(Name, New, 0))
	for i := 1; i <= 3; i++ {
		if _, err := l.Create(pod(fmt.Sprintf("web-%d", i), map[string]string{"disktype": "ssd"})); err != nil {
			t.Fatal(err)
		}
	}
	l.Advance(30 * time.Second)
	for _, p := range l.Pods("disktype=ssd") {
		switch p.Spec.NodeName {
		case "node-1":
		case "":
			t.Errorf("pod %s was not scheduled, though node-1 has disktype=ssd; the story of that pod:%s", p.Name, l.StoryOf("default/"+p.Name, "kube-scheduler"))
		default:
			t.Errorf("your plugin let pod %s onto %s, which has no disktype=ssd label; the story of that pod:%s",
				p.Name, p.Spec.NodeName, l.StoryOf("default/"+p.Name, "kube-scheduler"))
		}
	}
}

func TestPodsThatDoNotAskGoAnywhere(t *testing.T) {
	started(t)
	l := lab.New(t, nodes(false), lab.SchedulerPlugin(Name, New, 0))
	if _, err := l.Create(pod("plain", map[string]string{"app": "plain"})); err != nil {
		t.Fatal(err)
	}
	l.Advance(30 * time.Second)
	if p := l.Pods("app=plain"); len(p) != 1 || p[0].Spec.NodeName == "" {
		t.Errorf("pod plain has no disktype label, so any node will do, but your plugin kept it off every node; "+
			"return nil (success) unless the pod asks for disktype=ssd. The story of that pod:%s", l.StoryOf("default/plain", "kube-scheduler"))
	}
}

func TestTheRejectionIsExplainedInTheEvent(t *testing.T) {
	started(t)
	l := lab.New(t, nodes(false), lab.SchedulerPlugin(Name, New, 0))
	if _, err := l.Create(pod("db", map[string]string{"disktype": "ssd"})); err != nil {
		t.Fatal(err)
	}
	l.Advance(30 * time.Second)
	if p := l.Pods("disktype=ssd"); len(p) != 1 || p[0].Spec.NodeName != "" {
		t.Fatalf("pod db asks for disktype=ssd and no node has it, yet it was bound to %q; the story of that pod:%s",
			p[0].Spec.NodeName, l.StoryOf("default/db", "kube-scheduler"))
	}
	events, err := sim.List[api.Event](context.Background(), l.Cluster, "default", "", "")
	if err != nil {
		t.Fatal(err)
	}
	const want = "0/3 nodes are available: 3 " + ErrReason + "."
	if sim.FindEvent(events, "FailedScheduling", want) == nil {
		t.Errorf("pod db stays Pending, as it should; but kubectl describe pod db should say %q, so that its owner knows why: "+
			"reject with the reason ErrReason. The story of that pod:%s", want, l.StoryOf("default/db", "kube-scheduler"))
	}
}
