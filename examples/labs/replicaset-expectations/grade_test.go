// grade_test.go: the grader. Each test runs your controller on a cluster of etcd and the apiserver
// (no kube-controller-manager: your controller is the only one), creates and scales a ReplicaSet, and
// counts the pods; one test holds the controller's pod cache back while the ReplicaSet changes.
package replicasetexpectations

import (
	"context"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/lab"
	"kubesim/sim"
)

var ctx = context.Background()

const web = `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.25"}]
`

// start builds the cluster and your controller; it skips (or, grading the reference, fails) while
// Reconcile still answers TODO.
func start(t *testing.T) (*lab.Lab, *Controller) {
	t.Helper()
	l := lab.New(t, lab.Bare())
	rc, err := NewController(ctx, l.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	lab.NotStarted(t, rc.Reconcile(ctx, "default/nothing-here"))
	return l, rc
}

// active counts web's pods that are not being deleted, as the apiserver has them.
func active(t *testing.T, l *lab.Lab) int {
	t.Helper()
	n := 0
	for _, p := range l.Pods("app=web") {
		if p.DeletionTimestamp == nil {
			n++
		}
	}
	return n
}

func scale(t *testing.T, l *lab.Lab, replicas int32) {
	t.Helper()
	if err := l.Kubectl().Scale(ctx, "replicasets", "default", "web", replicas); err != nil {
		t.Fatal(err)
	}
	l.Advance(10 * time.Second)
}

// story is the pods' story as etcd tells it: each write, with its time.
func story(l *lab.Lab) string { return l.StoryOf("pods/default/web-", "etcd") }

func TestTheReplicaSetGetsItsReplicas(t *testing.T) {
	l, _ := start(t)
	l.Apply(web)
	l.Advance(10 * time.Second)
	for _, want := range []int32{3, 5, 2, 0} {
		if want != 3 {
			scale(t, l, want)
		}
		if got := active(t, l); got != int(want) {
			t.Fatalf("ReplicaSet web wants %d replicas and has %d active pods: Reconcile should create (or delete) the difference. "+
				"The pods' story:%s", want, got, story(l))
		}
	}
}

func TestALaggingCacheDoesNotMakeItCreateTwice(t *testing.T) {
	l, rc := start(t)
	rc.HoldPodCache(true) // from now on the controller's pod cache sees nothing new
	l.Apply(web)
	l.Advance(time.Second)
	// The ReplicaSet changes (a label is added) while the cache still shows no pods: the controller
	// reconciles web again.
	rs, err := sim.Get[api.ReplicaSet](ctx, l.Cluster, "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	rs = api.DeepCopy(rs) // what sim.Get returns is shared with the apiserver's cache: never modify it
	rs.Labels = map[string]string{"tier": "frontend"}
	if _, err := l.Kubectl().Update(ctx, rs); err != nil {
		t.Fatal(err)
	}
	l.Advance(time.Second)
	rc.HoldPodCache(false)
	l.Advance(10 * time.Second)
	if got := active(t, l); got != 3 {
		t.Fatalf("ReplicaSet web wants 3 replicas; your controller made %d pods (%d creates). Its pod cache lagged behind: "+
			"it had not yet seen the pods it had just created when web changed, so it counted 0 again and created again. "+
			"Remember what you asked for (rc.Expectations.ExpectCreations) and do nothing until the cache has seen it "+
			"(rc.Expectations.Satisfied). The pods' story:%s", got, rc.Created.Load(), story(l))
	}
	if n := rc.Created.Load(); n != 3 {
		t.Fatalf("web has 3 pods, but your controller created %d: it created too many, then deleted the extra ones. "+
			"Wait for the cache (rc.Expectations.Satisfied) instead. The pods' story:%s", n, story(l))
	}
}
