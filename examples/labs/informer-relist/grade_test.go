// grade_test.go: the grader. Each test runs your Reflector against a cluster of etcd and the
// apiserver, changes Deployments with kubectl while the watch is open, broken, or broken past etcd's
// compaction, and compares your cache with what the apiserver holds.
package informerrelist

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/lab"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

var ctx = context.Background()

// start builds the cluster with Deployments nginx and web, and a synced Reflector; it skips (or,
// grading the reference, fails) while Pump still answers TODO.
func start(t *testing.T) (*lab.Lab, *Reflector) {
	t.Helper()
	l := lab.New(t, lab.Bare())
	l.Apply(manifests.NginxDeployment)
	l.Apply(strings.ReplaceAll(manifests.NginxDeployment, "nginx", "web"))
	cl := l.Cluster.Client("kubernetes-admin", "my-reflector", apiserver.GroupMasters)
	r := &Reflector{Deployments: client.For[api.Deployment](cl), Namespace: "default"}
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	lab.NotStarted(t, r.Pump(ctx))
	return l, r
}

// changes scales nginx to 4, deletes web and creates db, with kubectl.
func changes(t *testing.T, l *lab.Lab) {
	t.Helper()
	k := l.Kubectl()
	if err := k.Scale(ctx, "deployments", "default", "nginx", 4); err != nil {
		t.Fatal(err)
	}
	if err := k.Delete(ctx, "deployments", "default", "web", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	l.Apply(strings.ReplaceAll(manifests.NginxDeployment, "nginx", "db"))
}

// catchUp pumps the reflector once the apiserver has everything etcd holds.
func catchUp(t *testing.T, l *lab.Lab, r *Reflector) {
	t.Helper()
	rev, err := l.Cluster.Store.CurrentRevision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Cluster.APIServer.WaitForRevision(ctx, rev); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := r.Pump(ctx); err != nil {
			t.Fatalf("Pump: %v", err)
		}
	}
}

// describe lists a set of Deployments as name@resourceVersion(replicas).
func describe(ds map[string]*api.Deployment) string {
	var s []string
	for key, d := range ds {
		s = append(s, fmt.Sprintf("%s@%s(replicas %d)", key, d.ResourceVersion, *d.Spec.Replicas))
	}
	sort.Strings(s)
	return "[" + strings.Join(s, " ") + "]"
}

// sameAsTheAPIServer fails unless the cache holds exactly what the apiserver holds.
func sameAsTheAPIServer(t *testing.T, l *lab.Lab, r *Reflector, what string) {
	t.Helper()
	list, err := sim.List[api.Deployment](ctx, l.Cluster, "default", "", "")
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]*api.Deployment{}
	for _, d := range list {
		truth[d.Key()] = d
	}
	if got, want := describe(r.Cache), describe(truth); got != want {
		t.Fatalf("%s, your cache holds %s but the apiserver holds %s (LastRV %s).%s",
			what, got, want, r.LastRV, diagnose(r.Cache, truth))
	}
}

// diagnose says, object by object, how the cache differs and what usually causes it.
func diagnose(cache, truth map[string]*api.Deployment) string {
	var b strings.Builder
	for key, d := range cache {
		if _, ok := truth[key]; !ok {
			fmt.Fprintf(&b, "\n  %s is cached but no longer exists: a DELETED event was not applied, or a relist kept what the list no longer has (Replace).", key)
		} else if truth[key].ResourceVersion != d.ResourceVersion {
			fmt.Fprintf(&b, "\n  %s is cached at resourceVersion %s, the apiserver has %s: a MODIFIED event was missed.", key, d.ResourceVersion, truth[key].ResourceVersion)
		}
	}
	for key := range truth {
		if _, ok := cache[key]; !ok {
			fmt.Fprintf(&b, "\n  %s exists but is not cached: an ADDED event was missed, or the watch was not reopened.", key)
		}
	}
	return b.String()
}

func TestTheCacheFollowsTheWatch(t *testing.T) {
	l, r := start(t)
	changes(t, l)
	catchUp(t, l, r)
	sameAsTheAPIServer(t, l, r, "after kubectl scaled nginx, deleted web and created db")
	if r.Lists != 1 {
		t.Errorf("you listed %d times; with an open watch one LIST is enough: every change arrives as an event", r.Lists)
	}
}

func TestABrokenWatchResumesFromTheLastResourceVersion(t *testing.T) {
	l, r := start(t)
	r.Disconnect()
	changes(t, l)
	catchUp(t, l, r)
	sameAsTheAPIServer(t, l, r, "after the watch broke and nginx was scaled, web deleted, db created")
	if r.Lists != 1 {
		t.Errorf("after a broken watch you listed again (%d LISTs); while the apiserver still has the history, "+
			"a watch from LastRV %s replays what was missed and costs it nothing: relist only on 410 Gone", r.Lists, r.LastRV)
	}
}

func TestAfter410GoneTheReflectorListsAgain(t *testing.T) {
	l, r := start(t)
	r.Disconnect()
	changes(t, l)
	if err := l.Cluster.CompactEtcd(ctx); err != nil {
		t.Fatal(err)
	}
	catchUp(t, l, r)
	sameAsTheAPIServer(t, l, r, "after the watch broke, web was deleted and etcd compacted its history")
	if r.Lists != 2 {
		t.Errorf("you made %d LISTs; the history after LastRV is gone (410), so exactly one relist was needed", r.Lists)
	}
}
