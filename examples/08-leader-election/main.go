// Example 08: leader election. A highly available control plane runs kube-controller-manager on every
// control-plane node, but only one replica may act: two ReplicaSet controllers would race. The replicas
// compete for a Lease (kube-system/kube-controller-manager); the holder renews it every 2 seconds, and a
// standby takes it over only after 15 seconds without a renewal. Article 1, section 4 ("leader 选举");
// article 2, "the control plane's high availability".
//
//	go run ./examples/08-leader-election
package main

import (
	"io"
	"time"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.FullCluster(3), tell) }

func tell(s *story.Story) error {
	c := s.Cluster

	// A second replica starts. The Lease is held and renewed, so it waits as a standby.
	if _, err := c.StartControllerManager(s.Ctx, "kube-controller-manager-2"); err != nil {
		return err
	}
	if err := s.Advance(10 * time.Second); err != nil {
		return err
	}
	s.Say("1. A second kube-controller-manager starts; the Lease is held, so it stands by.")
	s.Tell("kube-controller-manager-2: ")

	// The leader dies without releasing its Lease. For 15 seconds nobody leads: a Deployment applied
	// now is stored, but no controller acts on it.
	if err := c.KillControllerManager("kube-controller-manager"); err != nil {
		return err
	}
	if err := s.StartNginx(); err != nil {
		return err
	}
	s.Say("2. The leader is killed. Once the Lease expires the standby takes it and catches up:")
	s.Tell("kubesim: killed", "kube-controller-manager-2: acquired", "deployment-controller: reconcile", "replicaset-controller: reconcile")
	return nil
}
