// helpers.go: what many scenarios share, in one vocabulary over sim's observation API (observe.go):
// waiting until conditions hold (until), reading objects quietly, as the simulator looking rather than
// as part of the story (objectNow, objectsNow, live), and reading a pod's, node's or ReplicaSet's
// status the way kubectl get and kubectl describe show it.
package scenarios

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubesim/api"
	"kubesim/client"
	"kubesim/scenarios/manifests"
	"kubesim/script"
	"kubesim/sim"
	"kubesim/trace"
)

// sharedZH is the Chinese of the lines more than one scenario narrates: a helper's step or sign
// (startNginx's, nginxWithAPodOn's, schedStartScheduler's, schedFailedScheduling's, the handlerLog
// of my-controller's informer) or a step several stories take in the same words. register merges it
// under every scenario's own catalog.
var sharedZH = catalog{
	"%d. kubectl apply -f nginx-deployment.yaml and wait until 3/3 pods are available":                "%d. kubectl apply -f nginx-deployment.yaml，等到 3/3 个 Pod 可用",
	"%d. kubectl apply -f nginx-deployment.yaml: 3 replicas, one on each node":                        "%d. kubectl apply -f nginx-deployment.yaml：3 个副本，每个节点一个",
	"%d. kube-scheduler starts; the scenario keeps a handle on it to ask it to explain its decisions": "%d. kube-scheduler 启动；场景保留它的句柄，以便请它解释自己的决定",
	"%s event Warning FailedScheduling: %s":                                                           "%s 事件 Warning FailedScheduling：%s",
	"%s etcd-0 leads":                                                                                 "%s etcd-0 是 leader",
	"%s etcd's revision is still %d: nothing was written":                                             "%s etcd 的 revision 仍是 %d：什么都没写入",
	"%d. kubectl auth can-i list pods --as alice":                                                     "%d. 执行 kubectl auth can-i list pods --as alice（询问授权）",
	"%d. kubectl apply -f nginx-deployment.yaml; my-controller's informer lists and starts watching":  "%d. kubectl apply -f nginx-deployment.yaml；my-controller 的 informer 先 list 再开始 watch",
	"%s the handlers saw: %s":                                                                         "%s 处理函数看到了：%s",
	"%s %s (resourceVersion %s, replicas %d, image %s)":                                               "%s %s（resourceVersion %s，replicas %d，镜像 %s）",
}

// until runs the cluster until every condition (in the condition language: "deployment nginx
// available", "pods -l app=nginx ready", ...) holds at once, for at most within of cluster time (0:
// an hour). If they do not, that is an unmet sign, and it returns false.
func until(ctx context.Context, s *sim.Session, within time.Duration, conditions ...string) bool {
	conds := make([]sim.Condition, len(conditions))
	for i, text := range conditions {
		cond, err := script.ParseCondition(text)
		if err != nil {
			s.Expect(false, "%v", err)
			return false
		}
		conds[i] = cond
	}
	return s.Until(ctx, within, conds...)
}

// settled runs the cluster until ok holds, for at most a minute of cluster time, and reports whether
// it did. A sign read right after a wait is where the story stands in step mode (ok already holds and
// nothing runs); in real time the components may still be on their way (a status write, an event, a
// binding a moment behind the object the wait looked at), so the sign is read once they have arrived,
// and a sign that never comes is read as it stands after that minute.
func settled(ctx context.Context, s *sim.Session, ok func() bool) bool {
	met, err := s.Wait(ctx, sim.Check("the cluster settles", func() (bool, error) { return ok(), nil }), time.Minute, 0)
	return met && err == nil
}

// lateness is how much later than its due time a timed action may come: none in step mode, where a
// timer fires at its instant; in real time a loaded machine delays every goroutine, and a sped-up
// clock turns each millisecond of delay into many of cluster time. A sign that something happened
// not before its time holds either way; "and not much after" holds only within this margin.
func lateness(s *sim.Session) time.Duration {
	if s.Config.Mode == sim.StepMode {
		return 0
	}
	return time.Minute
}

// apply is kubectl apply -f of a manifest; a refusal is an unmet sign, and it returns false.
func apply(ctx context.Context, s *sim.Session, manifest string) bool {
	if _, err := s.Kubectl.Apply(ctx, []byte(manifest)); err != nil {
		s.Expect(false, "kubectl apply: %v", err)
		return false
	}
	return true
}

// applyFile is kubectl apply -f NAME, NAME a file of manifests/; a refusal is an unmet sign.
func applyFile(ctx context.Context, s *sim.Session, name string) bool {
	return apply(ctx, s, manifests.Read(name))
}

// startNginx applies the articles' nginx Deployment and runs the cluster until it is available (3/3).
func startNginx(ctx context.Context, s *sim.Session) bool {
	return apply(ctx, s, manifests.NginxDeployment) && until(ctx, s, 0, "deployment nginx available")
}

// currentRevision is etcd's revision now (0 if it cannot be read): a story compares two of them to
// show that a refused request wrote nothing.
func currentRevision(ctx context.Context, s *sim.Session) int64 {
	rev, _ := s.Store.CurrentRevision(ctx)
	return rev
}

// objectNow reads one object quietly; nil if there is none (or the read failed).
func objectNow[T any, PT client.ObjectPtr[T]](ctx context.Context, s *sim.Session, namespace, name string) PT {
	obj, err := sim.Get[T, PT](ctx, s.Cluster, namespace, name)
	if err != nil {
		return nil
	}
	return obj
}

// objectsNow lists the objects in namespace matching selector ("" for all) quietly, sorted by name;
// none if the read failed.
func objectsNow[T any, PT client.ObjectPtr[T]](ctx context.Context, s *sim.Session, namespace, selector string) []PT {
	objs, _ := sim.List[T, PT](ctx, s.Cluster, namespace, selector, "")
	return objs
}

// live keeps the pods that are neither terminating nor finished: the pods a ReplicaSet counts.
func live(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			out = append(out, p)
		}
	}
	return out
}

// livePods lists the live pods in default matching selector, sorted by name.
func livePods(ctx context.Context, s *sim.Session, selector string) ([]*api.Pod, error) {
	pods, err := sim.List[api.Pod](ctx, s.Cluster, "default", selector, "")
	return live(pods), err
}

// about keeps the events about the named object.
func about(events []*api.Event, object string) []*api.Event {
	var out []*api.Event
	for _, e := range events {
		if e.InvolvedObject.Name == object {
			out = append(out, e)
		}
	}
	return out
}

// eventCount is how many times the event was recorded (kubectl describe's "(xN)"), 0 for none.
func eventCount(e *api.Event) int32 {
	if e == nil {
		return 0
	}
	return e.Count
}

// containerStatus is the status of the named container, or nil.
func containerStatus(p *api.Pod, name string) *api.ContainerStatus {
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// restarts is the pod's RESTARTS column: the restart counts of its containers, summed.
func restarts(p *api.Pod) int {
	n := 0
	for _, cs := range p.Status.ContainerStatuses {
		n += int(cs.RestartCount)
	}
	return n
}

// waitingReason is the reason of the first waiting container ("" if none waits).
func waitingReason(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil {
			return cs.State.Waiting.Reason
		}
	}
	return ""
}
func waitingMessage(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil {
			return cs.State.Waiting.Message
		}
	}
	return ""
}

// podReady is the status of the pod's Ready condition.
func podReady(p *api.Pod) api.ConditionStatus {
	if c := api.GetPodCondition(p, api.PodReady); c != nil {
		return c.Status
	}
	return ""
}

// nodeCondition is the node's condition of type t (a zero condition if it has none).
func nodeCondition(n *api.Node, t api.NodeConditionType) api.NodeCondition {
	if c := api.GetNodeCondition(&n.Status, t); c != nil {
		return *c
	}
	return api.NodeCondition{}
}

// hasTaint reports whether the node carries the taint key with the effect.
func hasTaint(n *api.Node, key string, effect api.TaintEffect) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

// replicaSetsOf lists the ReplicaSets in default whose name starts with prefix, oldest revision
// first. The read is quiet.
func replicaSetsOf(ctx context.Context, s *sim.Session, prefix string) ([]*api.ReplicaSet, error) {
	out, err := sim.List[api.ReplicaSet](ctx, s.Cluster, "default", "", prefix+"*")
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return revisionOf(out[i]) < revisionOf(out[j]) })
	return out, nil
}

// revisionOf is a ReplicaSet's deployment.kubernetes.io/revision, 0 if it has none.
func revisionOf(rs *api.ReplicaSet) int {
	n, _ := strconv.Atoi(rs.Annotations[api.RevisionAnnotation])
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

// kubeletLogs collects every kubelet's trace lines (component kubelet/NODE), as journalctl -u kubelet
// on each node would show them: what a learner reads when the control plane has stopped hearing from
// a node.
func kubeletLogs(s *sim.Session) *sim.Tap {
	return s.Tap(func(e trace.Event) bool { return strings.HasPrefix(e.Component, "kubelet/") })
}

// says reports whether a line of component (any, if "") contains text.
func says(lines []trace.Event, component, text string) bool {
	_, ok := sim.FindLine(lines, component, text)
	return ok
}

// podWatch is one line of kubectl get pods -w: a pod's STATUS and RESTARTS, and when they changed.
type podWatch struct {
	status   string
	restarts int
	at       time.Time
}

// watchStatuses runs the cluster until the first pod matching selector (but skip) shows STATUS until,
// and returns its name and the lines kubectl get pods -w would have printed for it.
func watchStatuses(ctx context.Context, s *sim.Session, selector, until, skip string) (string, []podWatch) {
	var name string
	var seen []podWatch
	s.Until(ctx, 0, sim.Check("a pod shows STATUS "+until, func() (bool, error) {
		for _, p := range objectsNow[api.Pod](ctx, s, "default", selector) {
			if p.Name == skip || selector == "" && p.Labels["app"] == "web" {
				continue
			}
			name = p.Name
			now := podWatch{status: api.PodStatusColumn(p), restarts: restarts(p), at: s.Cluster.Clock.Now()}
			if n := len(seen); n == 0 || seen[n-1].status != now.status || seen[n-1].restarts != now.restarts {
				seen = append(seen, now)
			}
			return now.status == until, nil
		}
		return false, nil
	}))
	return name, seen
}

// watchLines prints watched lines as kubectl get pods -w's STATUS (RESTARTS): "Error (1)".
func watchLines(watched []podWatch) []string {
	var out []string
	for _, w := range watched {
		out = append(out, fmt.Sprintf("%s (%d)", w.status, w.restarts))
	}
	return out
}

// statusesOf is the STATUS column of watched lines, each change once.
func statusesOf(watched []podWatch) []string {
	var out []string
	for _, w := range watched {
		if len(out) == 0 || out[len(out)-1] != w.status {
			out = append(out, w.status)
		}
	}
	return out
}

// containsInOrder reports whether want appears in seen as a subsequence.
func containsInOrder(seen, want []string) bool {
	i := 0
	for _, s := range seen {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}
