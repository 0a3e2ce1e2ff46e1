// grade_test.go: the grader. Each test builds a three-node cluster in step mode whose scheduler scores
// with your plugin alone, creates pods one at a time, and checks that each went to a node with the
// fewest pods of its app.
package scoreplugin

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/lab"
)

func pod(name, app, node string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": app}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
}

// started skips (or, grading the reference, fails) while Score or NormalizeScore still answers TODO.
func started(t *testing.T) {
	t.Helper()
	lab.NotStarted(t, Started())
}

// placeOneByOne creates pods name-1..name-n of app one at a time, and fails the test for each that
// lands on a node running more pods of app than another node did.
func placeOneByOne(t *testing.T, l *lab.Lab, app string, n int) {
	t.Helper()
	count := map[string]int{"node-1": 0, "node-2": 0, "node-3": 0}
	for _, p := range l.Pods("app=" + app) {
		count[p.Spec.NodeName]++
	}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s-%d", app, i)
		if _, err := l.Create(pod(name, app, "")); err != nil {
			t.Fatal(err)
		}
		l.Advance(5 * time.Second)
		idx := slices.IndexFunc(l.Pods("app="+app), func(p *api.Pod) bool { return p.Name == name })
		node := l.Pods("app=" + app)[idx].Spec.NodeName
		fewest := min(count["node-1"], count["node-2"], count["node-3"])
		switch {
		case node == "":
			t.Fatalf("pod %s was not scheduled; the scheduler's story of it:%s", name, l.StoryOf("default/"+name, "kube-scheduler"))
		case count[node] > fewest:
			t.Fatalf("your plugin sent pod %s to %s, which already ran %d pod(s) of app %s, while another node ran %d "+
				"(pods of app %s per node before: %v). The scheduler's story of that cycle (look at the %s column):%s",
				name, node, count[node], app, fewest, app, count, Name, l.StoryOf("default/"+name, "kube-scheduler"))
		}
		count[node]++
	}
}

func TestReplicasSpreadOverTheNodes(t *testing.T) {
	started(t)
	l := lab.New(t, lab.SchedulerPlugin(Name, New, 1), lab.SchedulerProfile(Profile()))
	placeOneByOne(t, l, "web", 6)
}

func TestOnlyPodsOfTheSameAppCount(t *testing.T) {
	started(t)
	l := lab.New(t, lab.SchedulerPlugin(Name, New, 1), lab.SchedulerProfile(Profile()))
	// Three database pods already run on node-1 (placed by hand, spec.nodeName): they are not web's
	// replicas, so node-1 is as good a place for web as any.
	for i := 1; i <= 3; i++ {
		if _, err := l.Create(pod(fmt.Sprintf("db-%d", i), "db", "node-1")); err != nil {
			t.Fatal(err)
		}
	}
	l.Advance(5 * time.Second)
	placeOneByOne(t, l, "web", 3)
}
