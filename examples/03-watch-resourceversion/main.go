// Example 03: watch and resourceVersion. A controller never polls: its informer lists once, then
// watches from the list's resourceVersion and is told every change after it. When the watch breaks it
// resumes from the last resourceVersion it saw; when etcd has compacted that history away, the answer
// is 410 Gone and the informer lists again (a relist). Article 1, section 2.2 ("watch 机制与
// resourceVersion"); article 2, section 2.4.
//
//	go run ./examples/03-watch-resourceversion
package main

import (
	"fmt"
	"io"
	"strings"

	"kubesim/api"
	"kubesim/apiserver"
	"kubesim/client"
	"kubesim/scenarios/manifests"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.Config{}, tell) }

func tell(s *story.Story) error {
	c, k := s.Cluster, s.Cluster.Kubectl
	if err := s.Apply(manifests.NginxDeployment); err != nil {
		return err
	}

	// An informer for Deployments, as a controller of our own would have. Its handlers only note what
	// they were told; Sync lists every Deployment and opens the watch.
	var told []string
	note := func(what string) func(*api.Deployment) {
		return func(d *api.Deployment) { told = append(told, fmt.Sprintf("%s %s@%s", what, d.Name, d.ResourceVersion)) }
	}
	cl := c.Client("kubernetes-admin", "my-controller", apiserver.GroupMasters)
	inf := client.NewInformer[api.Deployment](cl, client.InformerOptions{Namespace: "default", Clock: c.Clock,
		Trace: c.Trace, Name: "my-controller deployments informer"})
	inf.AddHandler(client.Handler[*api.Deployment]{OnAdd: note("ADDED"),
		OnUpdate: func(_, d *api.Deployment) { note("MODIFIED")(d) }, OnDelete: note("DELETED")})
	if err := inf.Sync(s.Ctx); err != nil {
		return err
	}
	s.Say("1. The informer lists: %s; it watches from resourceVersion %s.", strings.Join(told, ", "), inf.LastResourceVersion())

	// A change is a new etcd revision; the watch delivers it with that revision as resourceVersion.
	told = nil
	if err := k.Scale(s.Ctx, "deployments", "default", "nginx", 4); err != nil {
		return err
	}
	if err := pump(s, inf); err != nil {
		return err
	}
	s.Say("2. kubectl scale: the watch tells %s.", strings.Join(told, ", "))

	// The connection breaks, changes happen, and etcd compacts its history (kube-apiserver asks it
	// to every 5 minutes). The informer cannot resume from its resourceVersion any more.
	inf.Disconnect()
	told = nil
	if err := k.Scale(s.Ctx, "deployments", "default", "nginx", 5); err != nil {
		return err
	}
	if err := c.CompactEtcd(s.Ctx); err != nil {
		return err
	}
	if err := pump(s, inf); err != nil {
		return err
	}
	s.Say("3. Watch broken, history compacted: the informer relisted %d time(s) and was told %s.", inf.Relists(), strings.Join(told, ", "))
	s.Tell("my-controller: 410")
	return nil
}

// pump lets the informer apply what the apiserver has sent it, as its goroutine would, once the
// apiserver's watch cache has caught up with etcd.
func pump(s *story.Story, inf *client.Informer[api.Deployment, *api.Deployment]) error {
	rev, err := s.Cluster.Store.CurrentRevision(s.Ctx)
	if err != nil {
		return err
	}
	if err := s.Cluster.APIServer.WaitForRevision(s.Ctx, rev); err != nil {
		return err
	}
	for range 5 {
		if _, err := inf.Pump(s.Ctx); err != nil {
			return err
		}
	}
	return nil
}
