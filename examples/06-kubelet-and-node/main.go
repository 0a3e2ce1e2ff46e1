// Example 06: the kubelet and the node. The kubelet is the only component on a node that talks to the
// apiserver: it registers the Node, renews its Lease every 10 seconds as a heartbeat, and runs the pods
// bound to it. When the heartbeats stop, the node lifecycle controller marks the node Unknown
// (NotReady) after the 50-second grace period (nodeMonitorGracePeriod), taints it, and 300 seconds later the pods are evicted and replaced
// elsewhere. Article 1, section 6 ("kubelet：节点上的代理"); article 2, "node registration and Lease
// heartbeats, NotReady then eviction".
//
//	go run ./examples/06-kubelet-and-node
package main

import (
	"io"
	"time"

	"kubesim/controllers/nodelifecycle"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.FullCluster(3), tell) }

func tell(s *story.Story) error {
	if err := s.StartNginx(); err != nil {
		return err
	}
	s.Say("1. Three nginx pods run, one per node; each kubelet renews its node's Lease.")
	s.Tell()

	// The kubelet on node-2 stops (the machine lost power, say). Its containers' fate is unknown to
	// the control plane: all it sees is that the Lease is no longer renewed.
	if err := s.Cluster.Stop("kubelet/node-2"); err != nil {
		return err
	}
	if err := s.Until("node node-2 unknown"); err != nil {
		return err
	}
	s.Say("2. node-2's kubelet stops. After the 50s grace period the node is Unknown and tainted.")
	s.Tell("kubesim: ", nodelifecycle.Name+": ")

	// The pods on node-2 tolerate the unreachable taint for 300 seconds (DefaultTolerationSeconds),
	// then they are evicted, and the ReplicaSet controller creates replacements on Ready nodes.
	if err := s.Advance(5*time.Minute + 10*time.Second); err != nil {
		return err
	}
	s.Say("3. 300s later the pod on node-2 is evicted; its replacement runs on a Ready node.")
	s.Tell(nodelifecycle.Name+": ", "replicaset-controller: wants 3", "kube-scheduler: bind")
	return nil
}
