// scenario_self_healing.go: self-healing (article 1, section 6.2): delete one pod of the nginx
// Deployment and watch the ReplicaSet controller notice that it has 2 of 3 and make a new one, which
// the scheduler places like any other. Nobody "restarts" the deleted pod: a new pod, with a new name,
// takes its place.
//
// The end of this file holds the small helpers the workload scenarios share (startNginx, runUntil,
// livePods, replicaSetsOf, eventsNow).
package sim

import (
	"context"
	"fmt"
	"kubesim/scenarios/manifests"
	"sort"
	"strconv"
	"strings"

	"kubesim/api"
	"kubesim/client"
)

func init() {
	Register(Scenario{
		Name:    "self-healing",
		Summary: "delete one pod of the nginx Deployment: the ReplicaSet controller makes a new one",
		Teaches: `A ReplicaSet does not remember pods, it counts them. When a pod of the nginx Deployment is deleted,
the ReplicaSet controller's informer sees the pod go (first its deletionTimestamp, then its removal),
it reconciles the ReplicaSet, finds 2 pods where 3 are wanted, and creates one more from its template.
The new pod gets a new generated name (nginx-<hash>-<new suffix>): nothing of the old pod is reused.
The scheduler then places it on a node and that node's kubelet starts it, as for any new pod.

Signs to look for: the ReplicaSet controller's "wants 3, has 2 -> create 1 pods"; the event "Created
pod: nginx-<hash>-<suffix>" with a name that was not there before; "Successfully assigned
default/nginx-... to node-N" for it; the Deployment back at 3/3 available, the deleted pod gone.`,
		Cluster: FullCluster(3),
		Run:     runSelfHealing,
	})
}

func runSelfHealing(ctx context.Context, s *Session) error {
	s.Step("kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available")
	if !startNginx(ctx, s) {
		return s.Err()
	}
	before, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	s.Expect(len(before) == 3, "3 nginx pods run: %s", podNames(before))
	if len(before) != 3 {
		return s.Err()
	}
	victim := before[1]

	s.Step("kubectl delete pod %s (it runs on %s)", victim.Name, victim.Spec.NodeName)
	if err := s.Kubectl.Delete(ctx, "pods", "default", victim.Name, client.DeleteOptions{}); err != nil {
		s.Expect(false, "the pod is deleted: %v", err)
		return s.Err()
	}

	s.Step("The ReplicaSet controller counts 2 of 3 and creates a replacement; the scheduler places it")
	if !runUntil(ctx, s, "the deleted pod is gone and the Deployment is available again",
		"pod "+victim.Name+" gone", "pods -l app=nginx count 3", "pods -l app=nginx ready", "deployment nginx available") {
		return s.Err()
	}

	s.Step("What kubectl get pods and the events now show")
	after, err := livePods(ctx, s, "app=nginx")
	if err != nil {
		return err
	}
	var replacement *api.Pod
	for _, p := range after {
		if !containsPod(before, p.Name) {
			replacement = p
		}
	}
	s.Expect(len(after) == 3, "kubectl get pods -l app=nginx: 3 pods again: %s", podNames(after))
	s.Expect(replacement != nil && replacement.Name != victim.Name, "one of them is new: %s, a new name (the deleted pod was %s)",
		nameOf(replacement), victim.Name)
	if replacement == nil {
		return s.Err()
	}
	s.Expect(replacement.Spec.NodeName != "" && replacement.Status.Phase == api.PodRunning,
		"the scheduler bound %s to %s and it is Running", replacement.Name, replacement.Spec.NodeName)
	s.Expect(hasEvent(eventsNow(ctx, s), "SuccessfulCreate", "Created pod: "+replacement.Name),
		"event SuccessfulCreate: Created pod: %s", replacement.Name)
	s.Expect(hasEvent(eventsNow(ctx, s), "Scheduled", "Successfully assigned default/"+replacement.Name+" to "+replacement.Spec.NodeName),
		"event Scheduled: Successfully assigned default/%s to %s", replacement.Name, replacement.Spec.NodeName)
	return s.Err()
}

func containsPod(pods []*api.Pod, name string) bool {
	for _, p := range pods {
		if p.Name == name {
			return true
		}
	}
	return false
}

func nameOf(p *api.Pod) string {
	if p == nil {
		return "<none>"
	}
	return p.Name
}

// Helpers shared by the workload scenarios.

// startNginx applies the articles' nginx Deployment and runs the cluster until it is available (3/3).
func startNginx(ctx context.Context, s *Session) bool {
	if _, err := s.Kubectl.Apply(ctx, []byte(manifests.NginxDeployment)); err != nil {
		s.Expect(false, "the Deployment is created: %v", err)
		return false
	}
	return runUntil(ctx, s, "deployment nginx available", "deployment nginx available")
}

// runUntil runs the cluster until every condition (in ParseCondition's language) holds at once. If
// they do not within the driver's bounds, that is a failed sign, and it returns false.
func runUntil(ctx context.Context, s *Session, what string, conditions ...string) bool {
	var conds []Condition
	for _, text := range conditions {
		cond, err := ParseCondition(text)
		if err != nil {
			s.Expect(false, "%s: %v", what, err)
			return false
		}
		conds = append(conds, cond)
	}
	all := func() (bool, error) {
		for _, cond := range conds {
			if ok, err := cond.Met(ctx, s.Cluster); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	if err := s.Driver.RunUntil(ctx, what, all, 0); err != nil {
		s.Expect(false, "%s: %v", what, err)
		return false
	}
	return true
}

// livePods lists the pods in default matching selector that are neither terminating nor finished
// (the pods a ReplicaSet counts), sorted by name. The read is quiet: not part of the story.
func livePods(ctx context.Context, s *Session, selector string) ([]*api.Pod, error) {
	res, _ := api.ResourceFor("pods")
	objs, err := observe(ctx, s.Cluster, res, "default", selector, "")
	if err != nil {
		return nil, err
	}
	var out []*api.Pod
	for _, obj := range objs {
		p := obj.(*api.Pod)
		if p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			out = append(out, p)
		}
	}
	return out, nil
}

// replicaSetsOf lists the ReplicaSets in default whose name starts with prefix, oldest revision
// first. The read is quiet.
func replicaSetsOf(ctx context.Context, s *Session, prefix string) ([]*api.ReplicaSet, error) {
	res, _ := api.ResourceFor("replicasets")
	objs, err := observe(ctx, s.Cluster, res, "default", "", prefix+"*")
	if err != nil {
		return nil, err
	}
	out := make([]*api.ReplicaSet, 0, len(objs))
	for _, obj := range objs {
		out = append(out, obj.(*api.ReplicaSet))
	}
	sort.SliceStable(out, func(i, j int) bool { return revisionOf(out[i]) < revisionOf(out[j]) })
	return out, nil
}

// revisionOf is a ReplicaSet's deployment.kubernetes.io/revision, 0 if it has none.
func revisionOf(rs *api.ReplicaSet) int {
	n, _ := strconv.Atoi(rs.Annotations[api.RevisionAnnotation])
	return n
}

// deploymentNow reads a Deployment in default, quietly; nil if it does not exist.
func deploymentNow(ctx context.Context, s *Session, name string) *api.Deployment {
	res, _ := api.ResourceFor("deployments")
	objs, err := observe(ctx, s.Cluster, res, "default", "", name)
	if err != nil || len(objs) != 1 {
		return nil
	}
	return objs[0].(*api.Deployment)
}

// eventsNow lists the events in default (kubectl get events), quietly.
func eventsNow(ctx context.Context, s *Session) []*api.Event {
	res, _ := api.ResourceFor("events")
	objs, err := observe(ctx, s.Cluster, res, "default", "", "")
	if err != nil {
		return nil
	}
	out := make([]*api.Event, 0, len(objs))
	for _, obj := range objs {
		out = append(out, obj.(*api.Event))
	}
	return out
}

// countEvents counts the events with this reason whose message contains message.
func countEvents(events []*api.Event, reason, message string) int {
	n := 0
	for _, e := range events {
		if e.Reason == reason && strings.Contains(e.Message, message) {
			n++
		}
	}
	return n
}

func podNames(pods []*api.Pod) string {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Name
		if p.Spec.NodeName != "" {
			names[i] += fmt.Sprintf(" (%s)", p.Spec.NodeName)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
