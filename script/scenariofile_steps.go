// scenariofile_steps.go: the step kinds of a scenario file, one parse function each: each checks its
// step's arguments (with the line and the fix for every problem) and returns what the step does.
package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/nettrace"
	"kubesim/sim"
	"kubesim/trace"
)

func parseSay(p *fileParser, st *stepSpec) stepFunc {
	text, ok := p.text(st.value, "say")
	if !ok {
		return nil
	}
	return func(ctx context.Context, r *fileRun) error {
		r.s.Step("%s", text)
		return nil
	}
}

// parseApply reads apply's inline manifest (a text block, or the objects written as YAML right there)
// or apply-file's file, and checks that it decodes.
func parseApply(p *fileParser, st *stepSpec) stepFunc {
	var manifest []byte
	line := "kubectl apply -f -"
	if st.action == "apply-file" {
		path, ok := p.text(st.value, "apply-file")
		if !ok {
			return nil
		}
		full := path
		if !filepath.IsAbs(path) {
			full = filepath.Join(p.baseDir, path)
		}
		data, err := os.ReadFile(full)
		if err != nil {
			p.problem(st.line, "apply-file: %v (the path is relative to the scenario file)", err)
			return nil
		}
		manifest, line = data, "kubectl apply -f "+path
	} else {
		manifest = inlineManifest(st.value)
	}
	objs, err := api.Decode(manifest)
	switch {
	case err != nil && !st.failureExpected:
		p.problem(st.line, "%s: the manifest does not decode: %v", st.action, err)
		return nil
	case err == nil && len(objs) == 0:
		p.problem(st.line, "%s: the manifest holds no objects", st.action)
		return nil
	case err == nil && st.action == "apply":
		var names []string
		for _, obj := range objs {
			names = append(names, strings.ToLower(obj.GetTypeMeta().Kind)+"/"+obj.GetObjectMeta().Name)
		}
		line += " (" + strings.Join(names, ", ") + ")"
	}
	return st.request(func(ctx context.Context, r *fileRun, k *sim.Kubectl) error {
		r.command(k, line)
		_, err := k.Apply(ctx, manifest)
		return err
	})
}

// inlineManifest is apply's value as manifest text: a block of text as it is, a mapping as one YAML
// document, a list as one document per item.
func inlineManifest(n *yaml.Node) []byte {
	items := []*yaml.Node{n}
	switch n.Kind {
	case yaml.ScalarNode:
		return []byte(n.Value)
	case yaml.SequenceNode:
		items = n.Content
	}
	var docs [][]byte
	for _, item := range items {
		blockStyle(item)             // {a: b} flow style would read as JSON to the manifest decoder
		doc, _ := yaml.Marshal(item) // a node that was parsed always marshals
		docs = append(docs, doc)
	}
	return bytes.Join(docs, []byte("---\n"))
}

func blockStyle(n *yaml.Node) {
	n.Style &^= yaml.FlowStyle
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// target is the objects a kubectl command names.
type target struct {
	res       *api.Resource
	name      string // exact, a prefix ending in * (the first match, by name), or "" with a selector
	namespace string // "" for cluster-scoped resources
	selector  string
}

// naming is how specific a command's target must be.
type naming int

const (
	anyObjects     naming = iota // get: every object of the type is fine
	nameOrSelector               // delete: kubectl refuses to delete a whole type unnamed
	oneName                      // scale, set-image: one object
)

// target reads kubectl's ways of naming objects: "deployment/nginx", "deployment nginx",
// "pods -l app=nginx", with -n NAMESPACE anywhere.
func (p *fileParser) target(st *stepSpec, need naming) (target, bool) {
	s, ok := p.text(st.value, st.action)
	if !ok {
		return target{}, false
	}
	fail := func(format string, args ...any) (target, bool) {
		p.problem(st.line, "%s: "+format, append([]any{st.action}, args...)...)
		return target{}, false
	}
	var namespace, selector string
	words, err := splitWords(s)
	if err == nil {
		words, namespace, selector, err = takeFlags(words)
	}
	if err != nil {
		return fail("%v", err)
	}
	if len(words) == 0 || len(words) > 2 {
		return fail("%q: name the object as TYPE/NAME (deployment/nginx), TYPE NAME, or TYPE -l SELECTOR", s)
	}
	kind, name, _ := strings.Cut(words[0], "/")
	if len(words) == 2 {
		name = words[1]
	}
	res, known := api.ResourceFor(kind)
	if !known {
		var names []string
		for _, r := range api.Resources() {
			names = append(names, r.Name, r.Singular)
		}
		return fail("unknown resource type %q%s", kind, didYouMean(kind, names, ""))
	}
	if selector != "" {
		if _, err := labels.Parse(selector); err != nil {
			return fail("-l %s: %v", selector, err)
		}
	}
	switch {
	case need == oneName && name == "":
		return fail("%q names no object: write %s/NAME", s, res.Singular)
	case need == nameOrSelector && name == "" && selector == "":
		return fail("%q names no object: write %s/NAME or %s -l SELECTOR", s, res.Singular, res.Name)
	}
	if !res.Namespaced {
		namespace = ""
	}
	return target{res: res, name: name, namespace: namespace, selector: selector}, true
}

// flags is the namespace and selector as kubectl flags, for the command line.
func (t target) flags() string {
	s := ""
	if t.selector != "" {
		s += " -l " + t.selector
	}
	if t.namespace != "" && t.namespace != "default" {
		s += " -n " + t.namespace
	}
	return s
}

// resolve picks the object a name prefix means: the first match by name, found by kubesim itself (a
// learner would have looked it up with kubectl get). An exact name is returned as it is.
func (r *fileRun) resolve(ctx context.Context, t target) (string, error) {
	if !strings.HasSuffix(t.name, "*") {
		return t.name, nil
	}
	objs, err := r.s.Objects(ctx, t.res, t.namespace, t.selector, t.name)
	if err != nil {
		return t.name, err
	}
	if len(objs) == 0 {
		return t.name, fmt.Errorf("no %s name starts with %q", t.res.Singular, strings.TrimSuffix(t.name, "*"))
	}
	return objs[0].GetObjectMeta().Name, nil
}

func parseGet(p *fileParser, st *stepSpec) stepFunc {
	t, ok := p.target(st, anyObjects)
	if !ok {
		return nil
	}
	return st.request(func(ctx context.Context, r *fileRun, k *sim.Kubectl) error {
		if t.name != "" && !strings.HasSuffix(t.name, "*") {
			r.command(k, "kubectl get "+t.res.Singular+" "+t.name+t.flags())
			obj, err := k.Get(ctx, t.res.Name, t.namespace, t.name)
			if err == nil {
				r.output(k, "%s/%s", t.res.Singular, obj.GetObjectMeta().Name)
			}
			return err
		}
		r.command(k, "kubectl get "+t.res.Name+t.flags())
		objs, err := k.List(ctx, t.res.Name, t.namespace, t.selector)
		if err != nil {
			return err
		}
		var names []string
		for _, obj := range objs {
			if sim.MatchName(t.name, obj.GetObjectMeta().Name) {
				names = append(names, obj.GetObjectMeta().Name)
			}
		}
		switch {
		case len(names) == 0 && t.namespace != "":
			r.output(k, "No resources found in %s namespace.", t.namespace)
		case len(names) == 0:
			r.output(k, "No resources found")
		default:
			r.output(k, "%d %s: %s", len(names), t.res.Name, strings.Join(names, ", "))
		}
		return nil
	})
}

func parseScale(p *fileParser, st *stepSpec) stepFunc {
	t, ok := p.target(st, oneName)
	n, hasN := st.options["replicas"]
	if !hasN {
		p.problem(st.line, `scale needs replicas: add "replicas: N"`)
		return nil
	}
	replicas, okN := p.number(n, "replicas")
	if !ok || !okN {
		return nil
	}
	if !t.res.HasSubresource("scale") {
		p.problem(st.line, "scale: %s cannot be scaled: scale works on deployments and replicasets", t.res.Name)
		return nil
	}
	return st.request(func(ctx context.Context, r *fileRun, k *sim.Kubectl) error {
		name, err := r.resolve(ctx, t)
		r.command(k, fmt.Sprintf("kubectl scale %s/%s --replicas=%d%s", t.res.Singular, name, replicas, t.flags()))
		if err != nil {
			return k.Report(err)
		}
		return k.Scale(ctx, t.res.Name, t.namespace, name, int32(replicas))
	})
}

// podSpec is the pod (template) spec of obj, whose containers kubectl set image changes; nil for kinds
// without one.
func podSpec(obj api.Object) *api.PodSpec {
	switch o := obj.(type) {
	case *api.Deployment:
		return &o.Spec.Template.Spec
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec
	case *api.DaemonSet:
		return &o.Spec.Template.Spec
	case *api.Pod:
		return &o.Spec
	}
	return nil
}

func parseSetImage(p *fileParser, st *stepSpec) stepFunc {
	t, ok := p.target(st, oneName)
	imageNode, hasImage := st.options["image"]
	if !hasImage {
		p.problem(st.line, `set-image needs image: add "image: nginx:1.27"`)
		return nil
	}
	image, okImage := p.text(imageNode, "image")
	container := "*" // kubectl's "every container"
	if n, given := st.options["container"]; given {
		container, _ = p.text(n, "container")
	}
	if !ok || !okImage {
		return nil
	}
	if podSpec(t.res.New()) == nil {
		p.problem(st.line, "set-image: %s have no pod template: set-image works on deployments, replicasets, daemonsets and pods", t.res.Name)
		return nil
	}
	return st.request(func(ctx context.Context, r *fileRun, k *sim.Kubectl) error {
		name, err := r.resolve(ctx, t)
		r.command(k, fmt.Sprintf("kubectl set image %s/%s %s=%s%s", t.res.Singular, name, container, image, t.flags()))
		if err != nil {
			return k.Report(err)
		}
		obj, err := k.Get(ctx, t.res.Name, t.namespace, name)
		if err != nil {
			return err
		}
		found := false
		for i, c := range podSpec(obj).Containers {
			if container == "*" || c.Name == container {
				podSpec(obj).Containers[i].Image = image
				found = true
			}
		}
		if !found {
			return k.Report(fmt.Errorf("unable to find container named %q", container))
		}
		_, err = k.Update(ctx, obj)
		return err
	})
}

func parseDelete(p *fileParser, st *stepSpec) stepFunc {
	t, ok := p.target(st, nameOrSelector)
	var opts client.DeleteOptions
	flags := ""
	if n, given := st.options["cascade"]; given {
		cascade, _ := p.text(n, "cascade")
		policies := map[string]string{"background": "Background", "foreground": "Foreground", "orphan": "Orphan"}
		if opts.PropagationPolicy = policies[cascade]; opts.PropagationPolicy == "" {
			p.problem(n.Line, "cascade is background, foreground or orphan (kubectl delete --cascade), not %q", cascade)
		}
		flags += " --cascade=" + cascade
	}
	if n, given := st.options["grace-period"]; given {
		seconds, _ := p.number(n, "grace-period")
		opts.GracePeriodSeconds = api.Ptr(int64(seconds))
		flags += fmt.Sprintf(" --grace-period=%d", seconds)
	}
	if !ok {
		return nil
	}
	return st.request(func(ctx context.Context, r *fileRun, k *sim.Kubectl) error {
		if t.name == "" {
			r.command(k, "kubectl delete "+t.res.Name+t.flags()+flags)
			objs, err := k.List(ctx, t.res.Name, t.namespace, t.selector)
			if err != nil {
				return err
			}
			if len(objs) == 0 {
				r.output(k, "No resources found")
			}
			for _, obj := range objs {
				if err := k.Delete(ctx, t.res.Name, t.namespace, obj.GetObjectMeta().Name, opts); err != nil {
					return err
				}
			}
			return nil
		}
		name, err := r.resolve(ctx, t)
		r.command(k, fmt.Sprintf("kubectl delete %s %s%s%s", t.res.Singular, name, t.flags(), flags))
		if err != nil {
			return k.Report(err)
		}
		return k.Delete(ctx, t.res.Name, t.namespace, name, opts)
	})
}

// faultForm is one fault a scenario file can inject (faults.go), and how to heal it.
type faultForm struct {
	arg     string // what the fault names (AGENT, DURATION, USER, NAME), or "" for nothing
	healArg string // what heal names; heal is nil when the fault cannot be undone
	fault   func(ctx context.Context, c *sim.Cluster, arg string) error
	heal    func(ctx context.Context, c *sim.Cluster, arg string) error
}

var faultForms = map[string]faultForm{
	"partition": {arg: "AGENT", healArg: "AGENT",
		fault: func(_ context.Context, c *sim.Cluster, agent string) error { c.Partition(agent); return nil },
		heal:  func(_ context.Context, c *sim.Cluster, agent string) error { c.Heal(agent); return nil }},
	"slow-etcd": {arg: "DURATION",
		fault: func(_ context.Context, c *sim.Cluster, d string) error {
			latency, _ := time.ParseDuration(d)
			c.SlowEtcd(latency)
			return nil
		},
		heal: func(_ context.Context, c *sim.Cluster, _ string) error { c.SlowEtcd(0); return nil }},
	"compact-etcd":      {fault: func(ctx context.Context, c *sim.Cluster, _ string) error { return c.CompactEtcd(ctx) }},
	"expire-credential": {arg: "USER", fault: func(_ context.Context, c *sim.Cluster, user string) error { return c.ExpireCredential(user) }},
	"stop": {arg: "NAME", healArg: "NAME",
		fault: func(_ context.Context, c *sim.Cluster, name string) error { return c.Stop(name) },
		heal:  func(_ context.Context, c *sim.Cluster, name string) error { return c.Start(name) }},
	"start": {arg: "NAME", fault: func(_ context.Context, c *sim.Cluster, name string) error { return c.Start(name) }},
}

func faultUsage(heal bool) string {
	var forms []string
	for _, name := range slices.Sorted(maps.Keys(faultForms)) {
		f := faultForms[name]
		switch {
		case heal && f.heal != nil:
			forms = append(forms, strings.TrimSpace(name+" "+f.healArg))
		case !heal:
			forms = append(forms, strings.TrimSpace(name+" "+f.arg))
		}
	}
	return strings.Join(forms, ", ")
}

func parseFault(p *fileParser, st *stepSpec) stepFunc {
	s, ok := p.text(st.value, st.action)
	if !ok {
		return nil
	}
	heal := st.action == "heal"
	words := strings.Fields(s)
	if len(words) == 0 {
		p.problem(st.line, "%s: say which, one of %s", st.action, faultUsage(heal))
		return nil
	}
	form, known := faultForms[words[0]]
	wantArg := form.arg
	if heal {
		wantArg = form.healArg
	}
	switch {
	case !known:
		p.problem(st.line, "%s: unknown fault %q%s", st.action, words[0],
			didYouMean(words[0], slices.Sorted(maps.Keys(faultForms)), "the "+st.action+"s are "+faultUsage(heal)))
		return nil
	case heal && form.heal == nil:
		p.problem(st.line, "heal: %s cannot be undone: the faults that heal are %s", words[0], faultUsage(true))
		return nil
	case wantArg == "" && len(words) != 1 || wantArg != "" && len(words) != 2:
		p.problem(st.line, "%s: write it as %q", st.action, strings.TrimSpace(words[0]+" "+wantArg))
		return nil
	}
	arg := ""
	if len(words) == 2 {
		arg = words[1]
	}
	if wantArg == "DURATION" {
		if d, err := time.ParseDuration(arg); err != nil || d < 0 {
			p.problem(st.line, "%s: %q is not a duration: write it like 200ms or 2s", st.action, arg)
			return nil
		}
	}
	do := form.fault
	if heal {
		do = form.heal
	}
	return func(ctx context.Context, r *fileRun) error {
		r.err = do(ctx, r.s.Cluster, arg)
		return nil
	}
}

func parseAdvance(p *fileParser, st *stepSpec) stepFunc {
	d, ok := p.duration(st.value, "advance")
	if !ok {
		return nil
	}
	return func(ctx context.Context, r *fileRun) error {
		if r.s.Driver == nil {
			return errors.New("waiting and advancing need step mode: the step driver is what moves the clock")
		}
		r.note("advance", "letting %s of cluster time pass", shortDuration(d))
		return r.s.Driver.Advance(ctx, d)
	}
}

func parseWait(p *fileParser, st *stepSpec) stepFunc {
	cond := p.condition(st.value, "wait")
	within, maxSteps := DefaultWaitWithin, DefaultWaitMaxSteps
	okWithin, okSteps := true, true
	if n, given := st.options["within"]; given {
		within, okWithin = p.duration(n, "within")
	}
	if n, given := st.options["max-steps"]; given {
		if maxSteps, okSteps = p.number(n, "max-steps"); okSteps && maxSteps < 1 {
			p.problem(n.Line, "max-steps is at least 1, not %d", maxSteps)
			okSteps = false
		}
	}
	if cond == nil || !okWithin || !okSteps {
		return nil
	}
	return func(ctx context.Context, r *fileRun) error { return r.wait(ctx, cond, within, maxSteps) }
}

// wait lets the cluster react to the last action, then work until cond holds or the budget is
// spent; either way the outcome is a checked sign, and a wait that did not end says what it saw.
func (r *fileRun) wait(ctx context.Context, cond sim.Condition, within time.Duration, maxSteps int) error {
	s := r.s
	cond = r.sinceAction(cond)
	r.note("wait", "waiting until %s (at most %s)", cond, shortDuration(within))
	began, first := s.Now(), s.Driver.Steps()
	if err := r.catchUp(ctx); err != nil {
		return err
	}
	met, err := s.Wait(ctx, cond, within, maxSteps) // the budget starts once the cluster has reacted
	steps := s.Driver.Steps() - first
	if err != nil {
		return err
	}
	waited := shortDuration(s.Now().Sub(began))
	switch seen := sim.Seen(ctx, s.Cluster, cond); {
	case met:
		s.Expect(true, "%s (after %d steps, %s)", cond, steps, waited)
	case seen != "":
		s.Expect(false, "%s: still not, after %d steps and %s: saw %s", cond, steps, waited, seen)
	default:
		s.Expect(false, "%s: still not, after %d steps and %s", cond, steps, waited)
	}
	return nil
}

func parseExpect(p *fileParser, st *stepSpec) stepFunc {
	if cond := p.condition(st.value, "expect"); cond != nil {
		return expectNow(cond)
	}
	return nil
}

// expectNow checks cond once the cluster has reacted to the last action, without running anything
// further; an unmet expectation says what it saw.
func expectNow(cond sim.Condition) stepFunc {
	return func(ctx context.Context, r *fileRun) error {
		cond := r.sinceAction(cond)
		if err := r.catchUp(ctx); err != nil {
			return err
		}
		met, err := cond.Met(ctx, r.s.Cluster)
		if err != nil {
			return err
		}
		if seen := sim.Seen(ctx, r.s.Cluster, cond); !met && seen != "" {
			r.s.Expect(false, "%s (saw %s)", cond, seen)
			return nil
		}
		r.s.Expect(met, "%s", cond)
		return nil
	}
}

// parseExpectEvent reads `expect-event: REASON` or `expect-event: {reason, message, object, namespace}`.
func parseExpectEvent(p *fileParser, st *stepSpec) stepFunc {
	fields := map[string]string{}
	if st.value.Kind == yaml.ScalarNode {
		fields["reason"], _ = p.text(st.value, "expect-event")
	} else {
		known := []string{"reason", "message", "object", "namespace"}
		for _, e := range p.pairs(st.value, "expect-event") {
			if !slices.Contains(known, e.key) {
				p.unknown(e, " in expect-event", known)
				continue
			}
			fields[e.key], _ = p.text(e.value, e.key)
		}
	}
	if fields["reason"] == "" {
		p.problem(st.line, `expect-event needs a reason: "expect-event: Scheduled" or "expect-event: {reason: Scheduled, message: ...}"`)
		return nil
	}
	cond, err := newEventCondition(fields["reason"], fields["message"], fields["object"], fields["namespace"])
	var ce *ConditionError
	if errors.As(err, &ce) {
		p.problem(st.line, "expect-event: %s", ce.Problem)
		return nil
	}
	return expectNow(cond)
}

func parseExpectError(p *fileParser, st *stepSpec) stepFunc {
	code, ok := p.number(st.value, "expect-error")
	if ok && (code < 400 || code > 599) {
		p.problem(st.line, "expect-error takes the HTTP status code of the failure (403, 404, 409, 422, ...), not %d", code)
		ok = false
	}
	message := ""
	if n, given := st.options["message"]; given {
		message, _ = p.text(n, "message")
	}
	if !ok {
		return nil
	}
	return func(ctx context.Context, r *fileRun) error {
		err := r.prevErr
		switch got := apierrors.CodeForError(err); {
		case err == nil:
			r.s.Expect(false, "%s (but the command succeeded)", strings.TrimSpace(fmt.Sprintf("%d %s", code, message)))
		case message != "":
			r.s.ExpectError(err, code, message)
		case got != code:
			r.s.Expect(false, "%d (got %d: %v)", code, got, err)
		default:
			r.s.Expect(true, "%d %s: %v", code, apierrors.ReasonForError(err), err)
		}
		return nil
	}
}

// shortDuration prints 10m rather than 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ZH translates the lines a scenario file's steps record (--lang zh), and the trace step's hops
// (nettrace.ZH); every scenario that Parse returns carries it.
var ZH = trace.Merge(nettrace.ZH, trace.Catalog{
	"$ kubesim net trace --from %s --to %s":           "$ kubesim net trace --from %s --to %s",
	"reached: %s":                                     "到达了：%s",
	"unreachable: stopped at the %s hop":              "不通：停在 %s 这一跳",
	"letting %s of cluster time pass":                 "让集群时间流逝 %s",
	"waiting until %s (at most %s)":                   "等待直到 %s（最多 %s）",
	"%s %s (after %d steps, %s)":                      "%s %s（经过 %d 步，%s）",
	"%s %s: still not, after %d steps and %s":         "%s %s：经过 %d 步和 %s，仍未达成",
	"%s %s: still not, after %d steps and %s: saw %s": "%s %s：经过 %d 步和 %s，仍未达成：看到的是 %s",
	"%s %s (saw %s)":                                  "%s %s（看到的是 %s）",
	"%s line %d: %s failed: %v":                       "%s 第 %d 行：%s 失败：%v",
	"No resources found in %s namespace.":             "No resources found in %s namespace.",
})

// parseSnapshot reads "save NAME" or "restore NAME": etcdctl snapshot save of the whole keyspace into
// a file of the run's own, and its restore under the running cluster as Kubernetes' guide does it
// (sim.Cluster.RestoreEtcdSnapshot). A restore names a snapshot an earlier step saved.
func parseSnapshot(p *fileParser, st *stepSpec) stepFunc {
	s, ok := p.text(st.value, "snapshot")
	if !ok {
		return nil
	}
	words := strings.Fields(s)
	if len(words) != 2 || words[0] != "save" && words[0] != "restore" {
		p.problem(st.line, `snapshot: write it as "save NAME" or "restore NAME", not %q`, s)
		return nil
	}
	verb, name := words[0], words[1]
	if verb == "restore" && !p.saved[name] {
		p.problem(st.line, "snapshot: restore %s: no step before this one saves a snapshot named %s (write \"snapshot: save %s\" first)", name, name, name)
		return nil
	}
	if p.saved == nil {
		p.saved = map[string]bool{}
	}
	p.saved[name] = true
	return func(ctx context.Context, r *fileRun) error {
		if r.snapshots == "" {
			dir, err := os.MkdirTemp("", "kubesim-snapshots-")
			if err != nil {
				return err
			}
			r.snapshots = dir
		}
		file := filepath.Join(r.snapshots, name+".db")
		if verb == "save" {
			_, err := r.s.SnapshotEtcd(ctx, file)
			return err
		}
		_, err := r.s.RestoreEtcdSnapshot(ctx, file)
		return err
	}
}
