// grade_test.go: the grader. A cluster with the scheduler and three nodes but no
// kube-controller-manager runs your controller; the grader creates a Service and pods, changes them,
// and compares the Endpoints with the pods' IPs; then the service scenarios, played with your
// controller in the place of the built-in one, must write the same Endpoints.
package endpointscontroller

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/lab"
	"kubesim/scenarios"
	"kubesim/sim"
)

var ctx = context.Background()

const service = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
`

// noControllerManager: the scheduler and the nodes, but your controller is the only controller.
func noControllerManager(c *sim.Config) { c.ControllerManager = false }

func start(t *testing.T) (*lab.Lab, *Controller) {
	t.Helper()
	l := lab.New(t, noControllerManager)
	ec, err := NewController(ctx, l.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	lab.NotStarted(t, ec.Reconcile(ctx, "default/nothing-here"))
	return l, ec
}

func pod(name, app string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, labels: {app: %s}}
spec:
  containers: [{name: app, image: "nginx:1.25"}]
`, name, app)
}

// ips are the IPs of the running pods with app=web, as the apiserver has them.
func ips(l *lab.Lab) []string {
	var out []string
	for _, p := range l.Pods("app=web") {
		if p.Status.PodIP != "" && p.DeletionTimestamp == nil {
			out = append(out, p.Status.PodIP+" ("+p.Name+")")
		}
	}
	slices.Sort(out)
	return out
}

// endpoints are the ready addresses of Endpoints web, and its ports, as the apiserver has them.
func endpoints(l *lab.Lab) (addrs []string, ports string, found bool) {
	ep, err := sim.Get[api.Endpoints](ctx, l.Cluster, "default", "web")
	if err != nil {
		return nil, "", false
	}
	for _, ss := range ep.Subsets {
		for _, a := range ss.Addresses {
			name := "?"
			if a.TargetRef != nil {
				name = a.TargetRef.Name
			}
			addrs = append(addrs, a.IP+" ("+name+")")
		}
		for _, p := range ss.Ports {
			ports += fmt.Sprintf("%s:%d ", p.Name, p.Port)
		}
	}
	slices.Sort(addrs)
	return addrs, strings.TrimSpace(ports), true
}

// matches fails unless Endpoints web lists exactly the running app=web pods, on port 8080.
func matches(t *testing.T, l *lab.Lab, after string) {
	t.Helper()
	want := ips(l)
	got, ports, found := endpoints(l)
	switch {
	case !found:
		t.Fatalf("%s there is no Endpoints web: Reconcile should create it for Service web", after)
	case !slices.Equal(got, want):
		t.Fatalf("%s Endpoints web lists %v, but the running pods with app=web are %v. "+
			"(Is every pod change queued for the Services that select the pod, before and after the change?) "+
			"The story of Endpoints web:%s", after, got, want, l.StoryOf("endpoints/default/web", "etcd"))
	case len(want) > 0 && ports != "http:8080":
		t.Fatalf("%s Endpoints web has ports %q; Service web sends port 80 to targetPort 8080, so the pods' port is http:8080 (see Ports)", after, ports)
	}
}

// startWithPods is start, then Service web and pods web-1, web-2 (app=web) and db-1 (app=db), running.
func startWithPods(t *testing.T) *lab.Lab {
	t.Helper()
	l, _ := start(t)
	l.Apply(service)
	l.Apply(pod("web-1", "web"))
	l.Apply(pod("web-2", "web"))
	l.Apply(pod("db-1", "db"))
	l.Until("pods running")
	return l
}

func TestEndpointsListTheSelectedPods(t *testing.T) {
	l := startWithPods(t)
	l.Advance(5 * time.Second)
	matches(t, l, "with pods web-1, web-2 (app=web) and db-1 (app=db) running,")
}

func TestEndpointsFollowThePods(t *testing.T) {
	l := startWithPods(t)
	k := l.Kubectl()
	if err := k.Delete(ctx, "pods", "default", "web-1", client.DeleteOptions{GracePeriodSeconds: api.Ptr(int64(0))}); err != nil {
		t.Fatal(err)
	}
	l.Advance(5 * time.Second)
	matches(t, l, "after kubectl delete pod web-1,")

	relabel := func(name, app string) {
		p, err := sim.Get[api.Pod](ctx, l.Cluster, "default", name)
		if err != nil {
			t.Fatal(err)
		}
		p = api.DeepCopy(p) // what sim.Get returns is shared with the apiserver's cache: never modify it
		p.Labels["app"] = app
		if _, err := k.Update(ctx, p); err != nil {
			t.Fatal(err)
		}
		l.Advance(5 * time.Second)
	}
	relabel("db-1", "web")
	matches(t, l, "after db-1 was relabelled app=web,")
	relabel("web-2", "other")
	matches(t, l, "after web-2 was relabelled app=other (the old pod was selected, the new one is not),")

	if err := k.Delete(ctx, "services", "default", "web", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	l.Advance(5 * time.Second)
	if _, _, found := endpoints(l); found {
		t.Fatalf("Service web was deleted, but Endpoints web is still there: when the Service is gone, delete its Endpoints")
	}
}

// The service scenarios (kubesim run service, readiness-removes-endpoint) played with your controller
// in the place of kube-controller-manager's endpoints controller: the rest of the cluster must see
// the same writes, in the same order, as with the built-in one.
func TestTheServiceScenariosSeeTheSameEndpoints(t *testing.T) {
	start(t) // not started: skipped
	for _, name := range []string{"service", "readiness-removes-endpoint"} {
		sc, _ := scenarios.Lookup(name)
		lab.SameStory(t, sc, Swap())
	}
}
