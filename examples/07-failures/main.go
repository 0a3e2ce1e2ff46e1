// Example 07: failures and how to read them. The same three questions find most problems: which
// component is stuck (the pod's phase and reason say), what did it say (the events, as kubectl describe
// shows them), and what is it waiting for (the back-off). Article 1's troubleshooting table
// ("常见问题排查"); article 2, "Pending / ImagePullBackOff / CrashLoopBackOff".
//
//	go run ./examples/07-failures
package main

import (
	"io"
	"time"

	"kubesim/api"
	"kubesim/scenarios/manifests"

	"kubesim/examples/internal/story"
	"kubesim/sim"
)

func main() { story.Main(run) }

func run(w io.Writer) error { return story.Run(w, sim.FullCluster(1), tell) }

func tell(s *story.Story) error {
	k := s.Cluster.Kubectl

	// An image name with a typo: the scheduler places the pod (it never looks at images), and the
	// kubelet's pull fails. After the first ErrImagePull the kubelet backs off: ImagePullBackOff.
	typo := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "ngnix:1.25"}}}}
	if _, err := k.Create(s.Ctx, typo); err != nil {
		return err
	}
	if err := s.Until("pod web reason ImagePullBackOff"); err != nil {
		return err
	}
	s.Say("1. ngnix:1.25 (a typo): the pull fails, then the kubelet backs off. Read the events:")
	s.Tell("kubelet/node-1: event Warning")

	// A container that exits at once: the kubelet restarts it, waiting 10s, 20s, 40s, ... up to five
	// minutes between attempts. The reason is CrashLoopBackOff; the exit code is in lastState. While it
	// waits, the kubelet retries its failed sync every 10 to 16s, and each retry records BackOff again.
	if err := s.Apply(manifests.Read("crasher.yaml")); err != nil {
		return err
	}
	if err := s.Advance(90 * time.Second); err != nil {
		return err
	}
	// The retries come 10 to 16s apart (backOffPeriod and its jitter): wait for one to show the reason.
	if err := s.Until("pod crasher reason CrashLoopBackOff"); err != nil {
		return err
	}
	crasher, err := sim.Get[api.Pod](s.Ctx, s.Cluster, "default", "crasher")
	if err != nil {
		return err
	}
	st := crasher.Status.ContainerStatuses[0]
	s.Say("2. A container that exits with code 1: after %d restarts it waits in %s.", st.RestartCount, st.State.Waiting.Reason)
	s.Tell("kubelet/node-1: event Warning BackOff")
	return nil
}
