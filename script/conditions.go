// conditions.go: a small language for the states a learner waits for, as a scenario file's `wait` and
// `expect` steps and the CLI's `--until` write them:
//
//	deployment nginx available           pods -l app=nginx running        node node-2 notready
//	pod nginx-* reason CrashLoopBackOff  event FailedScheduling           namespace team gone
//	trace client web:80 reached          trace client web:80 unreachable at rules   (trace.go)
//
// Interface: ParseCondition turns a line into a Condition; Condition.Met asks the cluster;
// sim.Cluster.Wait runs the cluster until a condition holds or a budget is spent. A condition
// reads what `kubectl get` would show, through the apiserver under an admin identity of its own
// (sim.Cluster.Objects), never from etcd directly, and never through kubectl's connection, so that partitioning
// kubectl does not blind the checks and polling does not fill the learner's story.
//
// Two readings, from the word used: a singular kind ("pod nginx-* running") holds when SOME matching
// object is so; a plural kind ("pods -l app=nginx running") when EVERY matching object is, and there is
// at least one. A NAME ending in * matches by prefix. "gone" and "count N" count the matching objects.
package script

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"kubesim/api"
	"kubesim/api/labels"
	"kubesim/sim"
)

// ConditionUsage lists every form ParseCondition accepts.
const ConditionUsage = `accepted conditions (NAME may end in * to match a prefix; -n NAMESPACE, default "default",
and -l SELECTOR may go anywhere):
  deployment NAME available|complete
  pod NAME bound|running|ready|gone
  pod NAME phase Pending|Running|Succeeded|Failed|Unknown
  pod NAME reason REASON             a container waiting or terminated with REASON (CrashLoopBackOff, OOMKilled, Init:Error)
  pods [-l SELECTOR] bound|running|ready   every matching pod, and at least one
  pods [-l SELECTOR] count N
  node NAME ready|notready|unknown
  node NAME tainted KEY[:EFFECT]
  nodes ready | nodes count N
  event REASON [for KIND/NAME] [MESSAGE]   an Event with that reason (and a message containing MESSAGE)
  namespace NAME gone
  trace FROM NAME:PORT reached | trace FROM NAME:PORT unreachable [at HOP]
                                     kubesim net trace's verdict from pod FROM (HOP: dns, service, rules, endpoint, pod)`

// ConditionError says why a condition could not be parsed; its message ends with ConditionUsage.
type ConditionError struct {
	Condition string
	Problem   string
}

func (e *ConditionError) Error() string {
	return fmt.Sprintf("condition %q: %s\n%s", e.Condition, e.Problem, ConditionUsage)
}

// conditionKinds are the resources a condition can name (besides events), by their plural names.
var conditionKinds = []string{"deployments", "replicasets", "pods", "nodes", "namespaces"}

// predicate is one state word: the kinds (plural resource names) it applies to and the argument it takes.
type predicate struct {
	resources []string
	arg       string // "" for none, else how the usage names it
}

var predicates = map[string]predicate{
	"available": {resources: []string{"deployments"}},
	"complete":  {resources: []string{"deployments"}},
	"bound":     {resources: []string{"pods"}},
	"running":   {resources: []string{"pods"}},
	"ready":     {resources: []string{"pods", "nodes"}},
	"phase":     {resources: []string{"pods"}, arg: "PHASE"},
	"reason":    {resources: []string{"pods"}, arg: "REASON"},
	"notready":  {resources: []string{"nodes"}},
	"unknown":   {resources: []string{"nodes"}},
	"tainted":   {resources: []string{"nodes"}, arg: "KEY"},
	"gone":      {resources: conditionKinds},
	"count":     {resources: conditionKinds, arg: "N"},
}

// ParseCondition reads one condition; see ConditionUsage for the forms.
func ParseCondition(s string) (sim.Condition, error) {
	fail := func(format string, args ...any) (sim.Condition, error) {
		return nil, &ConditionError{Condition: s, Problem: fmt.Sprintf(format, args...)}
	}
	words, err := splitWords(s)
	if err != nil {
		return fail("%v", err)
	}
	words, namespace, selector, err := takeFlags(words)
	if err != nil {
		return fail("%v", err)
	}
	if selector != "" {
		if _, err := labels.Parse(selector); err != nil {
			return fail("-l %s: %v", selector, err)
		}
	}
	if len(words) == 0 {
		return fail("it is empty")
	}
	if words[0] == "event" || words[0] == "events" {
		return parseEventCondition(s, words[1:], namespace)
	}
	if words[0] == "trace" {
		return parseTraceCondition(s, words[1:], namespace)
	}
	res, ok := api.ResourceFor(words[0])
	if !ok || !slices.Contains(conditionKinds, res.Name) || words[0] != res.Name && words[0] != res.Singular {
		known := []string{"event", "events", "trace"}
		for _, k := range conditionKinds {
			known = append(known, strings.TrimSuffix(k, "s"), k)
		}
		return fail("%q is not something a condition can be about%s", words[0],
			didYouMean(words[0], known, "say deployment, pod, node, namespace or event (or their plurals), or trace"))
	}
	o := &objectCondition{res: res, every: words[0] == res.Name, namespace: namespace, selector: selector}
	rest := words[1:]
	if len(rest) > 0 {
		if _, isPredicate := predicates[rest[0]]; !isPredicate {
			o.name, rest = rest[0], rest[1:]
		}
	}
	if !o.every && o.name == "" {
		return fail("%s needs a NAME (%s NAME ...), or use %s for every %s", res.Singular, res.Singular, res.Name, res.Singular)
	}
	if len(rest) == 0 {
		return fail("say which state: %s", strings.Join(predicatesFor(res.Name), ", "))
	}
	o.pred = rest[0]
	p, ok := predicates[o.pred]
	if !ok || !slices.Contains(p.resources, res.Name) {
		return fail("%q is not a state of %s%s", o.pred, res.Name,
			didYouMean(o.pred, predicatesFor(res.Name), "use "+strings.Join(predicatesFor(res.Name), ", ")))
	}
	switch {
	case p.arg == "" && len(rest) > 1:
		return fail("%q after %q is one word too many", strings.Join(rest[1:], " "), o.pred)
	case p.arg != "" && len(rest) != 2:
		form := words[0]
		if !o.every {
			form += " NAME"
		}
		return fail("%s takes one %s: %s %s %s", o.pred, p.arg, form, o.pred, p.arg)
	case p.arg != "":
		o.arg = rest[1]
	}
	switch o.pred {
	case "count":
		if o.n, err = strconv.Atoi(o.arg); err != nil || o.n < 0 {
			return fail("count takes a number, not %q", o.arg)
		}
	case "phase":
		phase, ok := canonicalPhase(o.arg)
		if !ok {
			return fail("%q is not a pod phase: use Pending, Running, Succeeded, Failed or Unknown", o.arg)
		}
		o.arg = phase
	}
	if !res.Namespaced {
		o.namespace = ""
	}
	return o, nil
}

// objectCondition is a state of the deployments, pods, nodes, ... that a name and selector pick out.
type objectCondition struct {
	res       *api.Resource
	every     bool   // plural kind: every matching object (and at least one); singular: some
	name      string // exact, a prefix ending in "*", or "" for all
	namespace string
	selector  string
	pred, arg string
	n         int // count's number
}

func (o *objectCondition) String() string {
	words := []string{o.res.Singular}
	if o.every {
		words[0] = o.res.Name
	}
	if o.name != "" {
		words = append(words, o.name)
	}
	if o.namespace != "" && o.namespace != "default" {
		words = append(words, "-n", o.namespace)
	}
	if o.selector != "" {
		words = append(words, "-l", o.selector)
	}
	words = append(words, o.pred)
	if o.arg != "" {
		words = append(words, o.arg)
	}
	return strings.Join(words, " ")
}

func (o *objectCondition) Met(ctx context.Context, c *sim.Cluster) (bool, error) {
	objs, err := c.Objects(ctx, o.res, o.namespace, o.selector, o.name)
	if err != nil {
		return false, err
	}
	switch o.pred {
	case "gone":
		return len(objs) == 0, nil
	case "count":
		return len(objs) == o.n, nil
	}
	if len(objs) == 0 {
		return false, nil
	}
	for _, obj := range objs {
		if holds(obj, o.pred, o.arg) != o.every {
			return !o.every, nil // a counterexample for "every", a witness for "some"
		}
	}
	return o.every, nil
}

// Seen says what the matching objects are, as kubectl get shows them: "3 pods: 2 Running, 1
// ImagePullBackOff", "deployment nginx: 2/3 ready, 3 up-to-date, 2 available", "node-2 NotReady".
func (o *objectCondition) Seen(ctx context.Context, c *sim.Cluster) (string, error) {
	objs, err := c.Objects(ctx, o.res, o.namespace, o.selector, o.name)
	if err != nil || len(objs) == 0 {
		return "no " + o.res.Name, err
	}
	var states []string
	for _, obj := range objs {
		switch obj := obj.(type) {
		case *api.Pod:
			states = append(states, podStatus(obj))
		case *api.Deployment:
			states = append(states, deploymentStatus(obj))
		case *api.Node:
			states = append(states, obj.Name+" "+nodeStatus(obj))
		default:
			states = append(states, obj.GetObjectMeta().Name)
		}
	}
	if o.res.Name != "pods" {
		return strings.Join(states, ", "), nil
	}
	counts := map[string]int{}
	for _, st := range states {
		counts[st]++
	}
	var parts []string
	for _, st := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
	}
	noun := "pods"
	if len(objs) == 1 {
		noun = "pod"
	}
	return fmt.Sprintf("%d %s: %s", len(objs), noun, strings.Join(parts, ", ")), nil
}

// podStatus is the STATUS column of kubectl get pods (Terminating, the init containers' progress, a
// container's waiting or terminated reason, the pod's reason, else its phase), with whether it is
// bound and Ready.
func podStatus(p *api.Pod) string {
	status := api.PodStatusColumn(p)
	switch {
	case p.DeletionTimestamp != nil:
		return "Terminating"
	case p.Spec.NodeName == "":
		return status + " (unscheduled)"
	case p.Status.Phase == api.PodRunning && !podIs(p, "ready", ""):
		return status + " (not ready)"
	}
	return status
}

// deploymentStatus is kubectl get deployment's READY, UP-TO-DATE and AVAILABLE, and whether the
// controller has seen the latest spec.
func deploymentStatus(d *api.Deployment) string {
	want := api.Deref(d.Spec.Replicas, 1) // the apiserver's default
	st := d.Status
	s := fmt.Sprintf("deployment %s: %d/%d ready, %d up-to-date, %d available", d.Name, st.ReadyReplicas, want, st.UpdatedReplicas, st.AvailableReplicas)
	if st.ObservedGeneration < d.Generation {
		s += fmt.Sprintf(", generation %d not yet observed (%d)", d.Generation, st.ObservedGeneration)
	}
	return s
}

// nodeStatus is kubectl get nodes' STATUS: Ready, NotReady or Unknown, and SchedulingDisabled.
func nodeStatus(n *api.Node) string {
	status := "Unknown"
	if c := api.GetNodeCondition(&n.Status, api.NodeReady); c != nil && c.Status == api.ConditionTrue {
		status = "Ready"
	} else if c != nil && c.Status == api.ConditionFalse {
		status = "NotReady"
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// holds reports whether one object is in the state pred names.
func holds(obj api.Object, pred, arg string) bool {
	switch o := obj.(type) {
	case *api.Deployment:
		return deploymentIs(o, pred)
	case *api.Pod:
		return podIs(o, pred, arg)
	case *api.Node:
		return nodeIs(o, pred, arg)
	}
	return false
}

// deploymentIs: "available" is what `kubectl wait --for=condition=Available` and READY n/n show
// together; "complete" is the deployment controller's own test that a rollout is done (every replica
// updated and available, no old pods left, the latest spec observed).
func deploymentIs(d *api.Deployment, pred string) bool {
	want := api.Deref(d.Spec.Replicas, 1) // the apiserver's default
	st := d.Status
	c := api.GetDeploymentCondition(st, api.DeploymentAvailable)
	available := c != nil && c.Status == api.ConditionTrue
	switch pred {
	case "available":
		return available && st.AvailableReplicas == want && st.UpdatedReplicas == want
	case "complete":
		return st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == want && st.Replicas == want &&
			st.ReadyReplicas == want && st.AvailableReplicas == want
	}
	return false
}

func podIs(p *api.Pod, pred, arg string) bool {
	switch pred {
	case "bound":
		return p.Spec.NodeName != ""
	case "running":
		return p.Status.Phase == api.PodRunning
	case "phase":
		return string(p.Status.Phase) == arg
	case "ready":
		return api.IsPodReady(p)
	case "reason":
		// What `kubectl get pods` shows in STATUS, and what `describe` shows as Last State: the pod's
		// own reason (Evicted), a container waiting (CrashLoopBackOff) or terminated (OOMKilled), now
		// or in its last termination.
		if p.Status.Reason == arg {
			return true
		}
		// While init containers run, STATUS is Init:N/M, Init:Error, Init:CrashLoopBackOff...; their
		// reasons count as the pod's (pod web reason Init:CrashLoopBackOff, or CrashLoopBackOff).
		if init, ok := api.InitStatus(p); ok && (init == arg || strings.TrimPrefix(init, "Init:") == arg) {
			return true
		}
		for _, cs := range p.Status.ContainerStatuses {
			for _, st := range []api.ContainerState{cs.State, cs.LastTerminationState} {
				if st.Waiting != nil && st.Waiting.Reason == arg || st.Terminated != nil && st.Terminated.Reason == arg {
					return true
				}
			}
		}
	}
	return false
}

func nodeIs(n *api.Node, pred, arg string) bool {
	if pred == "tainted" {
		key, effect, _ := strings.Cut(arg, ":")
		for _, t := range n.Spec.Taints {
			if t.Key == key && (effect == "" || string(t.Effect) == effect) {
				return true
			}
		}
		return false
	}
	want := map[string]api.ConditionStatus{"ready": api.ConditionTrue, "notready": api.ConditionFalse, "unknown": api.ConditionUnknown}[pred]
	c := api.GetNodeCondition(&n.Status, api.NodeReady)
	return c != nil && c.Status == want
}

// eventCondition holds when an Event with the reason exists (kubectl get events --field-selector
// reason=...), optionally about a given object and with a message containing some text.
type eventCondition struct {
	reason    string
	message   string        // a substring of the event's message; "" for any
	object    *api.Resource // the involved object's kind, or nil for any
	name      string        // the involved object's name (a prefix ending in *), with object
	namespace string
	// after, when set, is etcd's revision just before the scenario file's step on afterLine acted:
	// only an Event written after it (recorded since, or its count grown since) counts.
	after     int64
	afterLine int

	// counted memoizes matching, shared by the copies sinceAction makes (it keys on after).
	counted *eventCounts
}

// eventCounts are an event condition's last counts: a condition is asked after every step of a
// wait, and listing the Events reads every one from etcd (the watch cache keeps none; sim.Events
// decodes only those written since its last read); while etcd's revision stands still, no Event
// was written, changed or expired, and the counts stand.
type eventCounts struct {
	mu            sync.Mutex
	rev, after    int64
	recent, older int
}

func parseEventCondition(s string, words []string, namespace string) (sim.Condition, error) {
	fail := func(format string, args ...any) (sim.Condition, error) {
		return nil, &ConditionError{Condition: s, Problem: fmt.Sprintf(format, args...)}
	}
	if len(words) == 0 {
		return fail("event needs a REASON: event Scheduled, event BackOff, ...")
	}
	e := &eventCondition{reason: words[0], namespace: namespace, counted: &eventCounts{}}
	words = words[1:]
	if len(words) > 0 && words[0] == "for" {
		if len(words) < 2 {
			return fail("for needs an object: for pod/NAME")
		}
		kind, name, ok := strings.Cut(words[1], "/")
		res, known := api.ResourceFor(kind)
		if !ok || !known || name == "" {
			return fail("for takes KIND/NAME, like pod/nginx-* or node/node-2, not %q", words[1])
		}
		e.object, e.name = res, name
		words = words[2:]
	}
	e.message = strings.Join(words, " ")
	return e, nil
}

// newEventCondition is the condition that an Event with reason exists whose message contains message
// ("" for any), about the object named kind/name if object is not "" (name may end in *).
func newEventCondition(reason, message, object, namespace string) (sim.Condition, error) {
	s := "event " + reason
	words := []string{reason}
	if object != "" {
		s += " for " + object
		words = append(words, "for", object)
	}
	if message != "" {
		words = append(words, message)
	}
	if namespace == "" {
		namespace = "default"
	}
	return parseEventCondition(s, words, namespace)
}

func (e *eventCondition) String() string {
	s := "event " + e.reason
	if e.object != nil {
		s += " for " + e.object.Singular + "/" + e.name
	}
	if e.message != "" {
		s += " " + strconv.Quote(e.message)
	}
	if e.namespace != "default" {
		s += " -n " + e.namespace
	}
	return s
}

func (e *eventCondition) Met(ctx context.Context, c *sim.Cluster) (bool, error) {
	recent, _, err := e.matching(ctx, c)
	return recent > 0, err
}

// Seen says that no such Event was written since the action, and how many from before it were left
// out: "none since line 19 (1 from before it)".
func (e *eventCondition) Seen(ctx context.Context, c *sim.Cluster) (string, error) {
	recent, older, err := e.matching(ctx, c)
	switch {
	case err != nil || recent > 0:
		return "", err
	case e.afterLine == 0:
		return "no such event", nil
	}
	return fmt.Sprintf("none since line %d (%d from before it)", e.afterLine, older), nil
}

// matching counts the Events that match: those written after e.after, and those from before.
func (e *eventCondition) matching(ctx context.Context, c *sim.Cluster) (recent, older int, err error) {
	m := e.counted
	m.mu.Lock()
	defer m.mu.Unlock()
	// Read before the list: the list shows this revision or a later one, so the counts may be newer
	// than the revision they are kept for, and a later check finds etcd at that same revision only if
	// nothing was written since.
	rev, err := c.Store.CurrentRevision(ctx)
	if err != nil {
		return 0, 0, err
	}
	if m.rev == rev && m.after == e.after {
		return m.recent, m.older, nil
	}
	defer func() {
		if err == nil {
			m.rev, m.after, m.recent, m.older = rev, e.after, recent, older
		}
	}()
	evs, err := c.Events(ctx, e.namespace)
	if err != nil {
		return 0, 0, err
	}
	for _, ev := range evs {
		if ev.Reason != e.reason || !strings.Contains(ev.Message, e.message) {
			continue
		}
		if e.object != nil && (ev.InvolvedObject.Kind != e.object.Kind || !sim.MatchName(e.name, ev.InvolvedObject.Name)) {
			continue
		}
		// An Event's resourceVersion is the revision of its last write: its creation, or the
		// update that raised its count and lastTimestamp when it happened again.
		if rv, _ := strconv.ParseInt(ev.ResourceVersion, 10, 64); rv > e.after {
			recent++
		} else {
			older++
		}
	}
	return recent, older, nil
}

// splitWords splits s at spaces, keeping a "double-quoted string" (Go syntax) as one word.
func splitWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] != '"' {
			end := strings.IndexAny(s, " \t\n")
			if end < 0 {
				end = len(s)
			}
			words = append(words, s[:end])
			s = s[end:]
			continue
		}
		quoted, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, fmt.Errorf("a quote is not closed: %s", s)
		}
		word, _ := strconv.Unquote(quoted)
		words = append(words, word)
		s = s[len(quoted):]
	}
	return words, nil
}

// takeFlags takes kubectl's -n/--namespace and -l/--selector out of words, wherever they stand
// ("-n team", "-n=team", "--namespace team", "--namespace=team"). The namespace defaults to "default".
func takeFlags(words []string) (rest []string, namespace, selector string, err error) {
	namespace = "default"
	for i := 0; i < len(words); i++ {
		w := words[i]
		flag, value, hasValue := strings.Cut(w, "=")
		var into *string
		switch flag {
		case "-n", "--namespace":
			into = &namespace
		case "-l", "--selector":
			into = &selector
		default:
			if strings.HasPrefix(w, "-") && len(w) > 1 {
				return nil, "", "", fmt.Errorf("unknown flag %s: only -n NAMESPACE and -l SELECTOR are understood", w)
			}
			rest = append(rest, w)
			continue
		}
		if !hasValue {
			if i+1 == len(words) {
				return nil, "", "", fmt.Errorf("%s needs a value", flag)
			}
			i++
			value = words[i]
		}
		*into = value
	}
	return rest, namespace, selector, nil
}

func canonicalPhase(s string) (string, bool) {
	for _, p := range []api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown} {
		if strings.EqualFold(s, string(p)) {
			return string(p), true
		}
	}
	return "", false
}

// predicatesFor lists the states a resource has, sorted.
func predicatesFor(resource string) []string {
	var out []string
	for name, p := range predicates {
		if slices.Contains(p.resources, resource) {
			if p.arg != "" {
				name += " " + p.arg
			}
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// didYouMean is `: did you mean "X"?` for the known word closest to word, if one is close enough to be
// a typo; otherwise ": " and otherwise (the list of what is accepted), or "" if otherwise is "".
func didYouMean(word string, known []string, otherwise string) string {
	best, bestDist := "", len(word)/3+2
	for _, k := range known {
		k, _, _ = strings.Cut(k, " ")
		if d := editDistance(word, k); d < bestDist && k != word {
			best, bestDist = k, d
		}
	}
	switch {
	case best != "":
		return fmt.Sprintf(": did you mean %q?", best)
	case otherwise != "":
		return ": " + otherwise
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
