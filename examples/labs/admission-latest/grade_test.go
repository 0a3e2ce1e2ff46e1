// grade_test.go: the grader. Each test builds a cluster in step mode with your plugin among the
// apiserver's validating admission plugins and sends it pods, as kubectl would.
package admissionlatest

import (
	"strings"
	"testing"
	"time"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/lab"
)

func pod(name, image string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: image}}}}
}

// started skips (or, grading the reference, fails) while Validate still answers TODO.
func started(t *testing.T) {
	t.Helper()
	lab.NotStarted(t, Started())
}

func TestFloatingImagesAreRefused(t *testing.T) {
	started(t)
	l := lab.New(t, lab.Bare(), lab.Admission(DisallowLatest{}))
	for _, c := range []struct{ name, image string }{{"tagged-latest", "nginx:latest"}, {"untagged", "nginx"},
		{"registry-port", "registry.local:5000/shop/cart"}} {
		name, image := c.name, c.image
		_, err := l.Create(pod(name, image))
		switch {
		case err == nil:
			t.Errorf("pod %s with image %q was stored: it floats (no tag means latest), so your plugin should refuse it; "+
				"the apiserver's story of the request:%s", name, image, l.StoryOf("pods/default/"+name, "kube-apiserver"))
		case apierrors.CodeForError(err) != 403 || !strings.HasPrefix(err.Error(), `pods "`+name+`" is forbidden: `):
			t.Errorf("pod %s with image %q was refused with %d %q; an admission plugin's refusal reads 403 `pods %q is forbidden: ...`: "+
				"return a plain error and the apiserver words it so", name, image, apierrors.CodeForError(err), err, name)
		}
	}
}

func TestPinnedImagesPass(t *testing.T) {
	started(t)
	l := lab.New(t, lab.Bare(), lab.Admission(DisallowLatest{}))
	for _, c := range []struct{ name, image string }{{"versioned", "nginx:1.25"}, {"registry-port", "registry.local:5000/shop/cart:2.1"},
		{"digest", "nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31"}} {
		name, image := c.name, c.image
		if _, err := l.Create(pod(name, image)); err != nil {
			t.Errorf("pod %s with image %q is pinned, yet it was refused: %v", name, image, err)
		}
	}
}

// A validating plugin on pods does not stop a Deployment: it stops the Deployment's pods, and the
// ReplicaSet controller says so in an event. Other resources are none of the plugin's business.
func TestADeploymentOfLatestIsStoredButItsPodsAreRefused(t *testing.T) {
	started(t)
	l := lab.New(t, lab.Nodes(1), lab.Admission(DisallowLatest{}))
	objs := l.Apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:latest"}]
`)
	if len(objs) != 1 {
		t.Fatalf("the Deployment web was not stored; your plugin should judge pods only (r.Resource == \"pods\")")
	}
	l.Advance(10 * time.Second)
	if pods := l.Pods("app=web"); len(pods) != 0 {
		t.Fatalf("a pod of nginx:latest was created for Deployment web: %s; your plugin let it through", pods[0].Name)
	}
	l.ExpectEvent("FailedCreate", "is forbidden: ")
}
