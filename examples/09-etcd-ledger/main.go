// Example 09: etcd, the ledger. Every object the apiserver accepts is one key in etcd
// (/registry/<resource>/<namespace>/<name>); every write makes a new cluster-wide revision, and an
// object's resourceVersion is the revision of its last write. Nothing else holds state: when etcd's
// disk is slow, every write of every component waits, and the whole cluster slows down together.
// Article 1, section 1.1 (etcd 更像是背后提供持久化的“账本”); article 2, the etcd and Raft sections
// (fsync latency makes everything slow).
//
//	go run ./examples/09-etcd-ledger
package main

import (
	"fmt"
	"io"
	"time"

	"kubesim/api"
	"kubesim/examples/internal/story"
	"kubesim/scenarios/manifests"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.FullCluster(3), tell) }

func tell(s *story.Story) error {
	c := s.Cluster

	// The Deployment becomes a key; its resourceVersion is the etcd revision of that key's last write.
	objs, err := c.Kubectl.Apply(s.Ctx, []byte(manifests.NginxDeployment))
	if err != nil {
		return err
	}
	kv, err := c.Store.Get(s.Ctx, "/registry/deployments/default/nginx")
	if err != nil {
		return err
	}
	s.Say("1. deployment nginx: resourceVersion %s = etcd ModRevision %d of /registry/deployments/default/nginx",
		objs[0].GetObjectMeta().ResourceVersion, kv.ModRevision)

	// Let the controllers, scheduler and kubelets do their work: each of their decisions is a write.
	if err := s.Until("deployment nginx available"); err != nil {
		return err
	}
	pods, _, err := c.Store.List(s.Ctx, "/registry/pods/default/", 0)
	if err != nil {
		return err
	}
	s.Say("2. Three running pods later, etcd holds %d pod keys under /registry/pods/default/:", len(pods))
	for _, p := range pods {
		s.Say("     %s (ModRevision %d)", p.Key, p.ModRevision)
	}

	// One more replica takes a handful of writes: a ReplicaSet's replicas, a pod, its binding, its
	// status, the controllers' status updates. With a fast disk they take no time at all; with a slow
	// one, every one of them waits for fsync, one after the other.
	scaleTo := func(n int32) (time.Duration, error) {
		start := c.Clock.Now()
		if err := c.Kubectl.Scale(s.Ctx, "deployments", "default", "nginx", n); err != nil {
			return 0, err
		}
		err := s.Until(fmt.Sprintf("pods -l app=nginx count %d", n))
		if err == nil {
			err = s.Until("deployment nginx available")
		}
		return c.Clock.Since(start).Round(100 * time.Millisecond), err
	}
	fast, err := scaleTo(4)
	if err != nil {
		return err
	}
	c.SlowEtcd(500 * time.Millisecond)
	slow, err := scaleTo(5)
	if err != nil {
		return err
	}
	d, err := sim.Get[api.Deployment](s.Ctx, c, "default", "nginx")
	if err != nil {
		return err
	}
	s.Say("3. One more replica took %s with a fast disk; with every write waiting 500ms for fsync, %s (%d available now).",
		fast, slow, d.Status.AvailableReplicas)
	s.Tell("kubesim: ")
	return nil
}
