// scenariofile.go: scenarios written as YAML files and played like the built-in ones (`kubesim run -f
// FILE`). A file names the scenario, sizes the cluster and lists steps, each doing one thing:
//
//	name: self-healing
//	summary: delete a pod and watch the ReplicaSet replace it
//	cluster: {nodes: 3}
//	steps:
//	  - say: Create the Deployment               # a heading in the story
//	  - apply-file: nginx-deployment.yaml        # relative to the scenario file
//	  - wait: deployment nginx available         # a condition (conditions.go); within: 10m by default
//	  - delete: pod/nginx-*                      # the first pod whose name starts with nginx-
//	  - expect: pods -l app=nginx count 3        # checked now, without waiting
//
// Interface: LoadScenarioFile and ParseScenario; a bad file gives a ScenarioFileError listing every
// problem with its line and a fix. The whole file is checked before anything runs: unknown keys (with
// the nearest known one), missing arguments, durations, conditions, and manifests that do not decode.
//
// The steps: say; kubectl's apply (inline), apply-file, get, scale, set-image and delete, which take
// `as: USER` to run as another user; fault and heal (faults.go); advance (let time pass); wait;
// expect; expect-event; expect-error (the step before failed with this HTTP code). An unmet
// expectation, or a command that fails with no expect-error after it, fails the run at the end.
package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"kubesim/api"
	apierrors "kubesim/api/errors"
	"kubesim/api/labels"
	"kubesim/client"
	"kubesim/sim/narrate"
	"kubesim/trace"
)

// How long a wait step waits, unless it says otherwise: in virtual time, and in units of work.
const (
	DefaultWaitWithin   = 10 * time.Minute
	DefaultWaitMaxSteps = 5000
)

// FileProblem is one mistake in a scenario file.
type FileProblem struct {
	Line    int
	Message string
}

// ScenarioFileError lists every problem found in a scenario file.
type ScenarioFileError struct {
	File     string // "" when parsed from bytes
	Problems []FileProblem
	Hint     string // said once after the problems (the condition forms, when a condition was wrong)
}

func (e *ScenarioFileError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.File != "" {
			b.WriteString(e.File + ": ")
		}
		fmt.Fprintf(&b, "line %d: %s", p.Line, p.Message)
	}
	if e.Hint != "" {
		b.WriteString("\n" + e.Hint)
	}
	return b.String()
}

// LoadScenarioFile reads and checks a scenario file. Files it names are read relative to its directory;
// without a name: key the scenario is named after the file.
func LoadScenarioFile(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	return parseScenario(data, filepath.Dir(path), path)
}

// ParseScenario checks a scenario file's contents; files it names are read relative to baseDir.
func ParseScenario(data []byte, baseDir string) (Scenario, error) {
	return parseScenario(data, baseDir, "")
}

func parseScenario(data []byte, baseDir, file string) (Scenario, error) {
	withFile := func(err error) error {
		if file == "" {
			return err
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return Scenario{}, withFile(errors.New("the file is empty: a scenario needs a name and steps"))
	} else if err != nil {
		return Scenario{}, withFile(err) // yaml's own message names the line
	}
	p := &fileParser{baseDir: baseDir, err: ScenarioFileError{File: file}}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.problem(extra.Line, `a scenario file holds one YAML document: remove the "---" and what follows, or make it a file of its own`)
	} else if !errors.Is(err, io.EOF) {
		return Scenario{}, withFile(err)
	}

	root := doc.Content[0]
	sc := Scenario{Cluster: FullCluster(3)}
	var steps []fileStep
	for _, e := range p.pairs(root, "a scenario file") {
		switch e.key {
		case "name":
			sc.Name, _ = p.text(e.value, "name")
		case "summary":
			sc.Summary, _ = p.text(e.value, "summary")
		case "teaches":
			sc.Teaches, _ = p.text(e.value, "teaches")
			sc.Teaches = strings.TrimRight(sc.Teaches, "\n")
		case "verbose":
			sc.Verbose = p.boolean(e.value, "verbose")
		case "cluster":
			for _, c := range p.pairs(e.value, "cluster") {
				if c.key != "nodes" {
					p.unknown(c, " in cluster", []string{"nodes"})
				} else if n, ok := p.number(c.value, "nodes"); ok && n < 0 {
					p.problem(c.line, "nodes cannot be negative")
				} else if ok {
					sc.Cluster.Nodes = n
				}
			}
		case "seed":
			p.problem(e.line, "the seed is chosen when the scenario is played (kubesim run --seed N), not in the file: remove this line")
		case "steps":
			steps = p.steps(e.value)
		default:
			p.unknown(e, "", []string{"name", "summary", "teaches", "verbose", "cluster", "steps"})
		}
	}
	if root.Kind == yaml.MappingNode && sc.Name == "" {
		if file == "" {
			p.problem(root.Line, `the scenario has no name: add "name: NAME"`)
		}
		sc.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if root.Kind == yaml.MappingNode && len(steps) == 0 && len(p.err.Problems) == 0 {
		p.problem(root.Line, `the scenario has no steps: add "steps:" and a list of steps, one per "- " line`)
	}
	if len(p.err.Problems) > 0 {
		return Scenario{}, &p.err
	}
	if sc.Summary == "" {
		sc.Summary = "a scenario file"
	}
	sc.Run = func(ctx context.Context, s *Session) error { return playSteps(ctx, s, steps) }
	return sc, nil
}

// fileParser checks a scenario file, collecting every problem rather than stopping at the first.
type fileParser struct {
	baseDir string
	err     ScenarioFileError
}

func (p *fileParser) problem(line int, format string, args ...any) {
	p.err.Problems = append(p.err.Problems, FileProblem{Line: line, Message: fmt.Sprintf(format, args...)})
}

// pair is one key of a mapping, with its line.
type pair struct {
	key   string
	line  int
	value *yaml.Node
}

// pairs reads a mapping's keys in order, reporting any key given twice.
func (p *fileParser) pairs(n *yaml.Node, what string) []pair {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		p.problem(n.Line, "%s is a mapping of keys to values (key: value), not %s", what, describe(n))
		return nil
	}
	var out []pair
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if first, dup := seen[k.Value]; dup {
			p.problem(k.Line, "%q is given twice (first on line %d): keep one", k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, pair{key: k.Value, line: k.Line, value: deref(n.Content[i+1])})
	}
	return out
}

func (p *fileParser) unknown(e pair, where string, known []string) {
	p.problem(e.line, "unknown field %q%s%s", e.key, where, didYouMean(e.key, known, "the fields are "+strings.Join(known, ", ")))
}

// deref follows YAML aliases (*name) to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Tag == "!!null":
		return "empty"
	}
	return fmt.Sprintf("%q", n.Value)
}

// text reads a scalar value.
func (p *fileParser) text(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.problem(n.Line, "%s needs a value (text), not %s", what, describe(n))
		return "", false
	}
	return n.Value, true
}

func (p *fileParser) number(n *yaml.Node, what string) (int, bool) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		p.problem(n.Line, "%s is a whole number, not %s", what, describe(n))
		return 0, false
	}
	return v, true
}

func (p *fileParser) boolean(n *yaml.Node, what string) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		p.problem(n.Line, "%s is true or false, not %s", what, describe(n))
	}
	return b
}

func (p *fileParser) duration(n *yaml.Node, what string) (time.Duration, bool) {
	s, ok := p.text(n, what)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		p.problem(n.Line, "%s: %q is not a duration: write it like 90s, 2m or 1h30m", what, s)
		return 0, false
	}
	return d, true
}

func (p *fileParser) condition(n *yaml.Node, what string) Condition {
	s, ok := p.text(n, what)
	if !ok {
		return nil
	}
	cond, err := ParseCondition(s)
	var ce *ConditionError
	if errors.As(err, &ce) {
		p.problem(n.Line, "%s: condition %q: %s", what, s, ce.Problem)
		p.err.Hint = ConditionUsage
	}
	return cond
}

// fileStep is one checked step, ready to run.
type fileStep struct {
	line   int
	action string
	run    stepFunc
}

// stepFunc runs one step. Its error means the cluster itself failed and the run stops; a command that
// fails, or a sign that is missing, is recorded in the fileRun or the Session instead.
type stepFunc func(ctx context.Context, r *fileRun) error

// stepSpec is a step as written: its action's value and its other keys.
type stepSpec struct {
	line    int
	action  string
	value   *yaml.Node
	options map[string]*yaml.Node
	as      string // the user a request step runs as; "" for the admin
	// failureExpected is set when an expect-error step follows: a manifest that does not decode is
	// then the point of the step, not a mistake in the file.
	failureExpected bool
}

// stepKind is one action a step can take.
type stepKind struct {
	options  []string // the keys a step of this kind takes besides its action
	requests bool     // it runs kubectl commands: it takes "as", and an expect-error may check it
	parse    func(p *fileParser, st *stepSpec) stepFunc
}

var stepKinds = map[string]stepKind{
	"say":          {parse: parseSay},
	"apply":        {requests: true, parse: parseApply},
	"apply-file":   {requests: true, parse: parseApply},
	"get":          {requests: true, parse: parseGet},
	"scale":        {requests: true, options: []string{"replicas"}, parse: parseScale},
	"set-image":    {requests: true, options: []string{"container", "image"}, parse: parseSetImage},
	"delete":       {requests: true, options: []string{"cascade", "grace-period"}, parse: parseDelete},
	"fault":        {parse: parseFault},
	"heal":         {parse: parseFault},
	"advance":      {parse: parseAdvance},
	"wait":         {options: []string{"within", "max-steps"}, parse: parseWait},
	"expect":       {parse: parseExpect},
	"expect-event": {parse: parseExpectEvent},
	"expect-error": {options: []string{"message"}, parse: parseExpectError},
}

func (k stepKind) keys() []string {
	if k.requests {
		return append([]string{"as"}, k.options...)
	}
	return k.options
}

func actionNames() []string {
	var out []string
	for name := range stepKinds {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func (p *fileParser) steps(n *yaml.Node) []fileStep {
	if n.Kind != yaml.SequenceNode {
		p.problem(n.Line, `steps is a list: start each step on its own line with "- "`)
		return nil
	}
	var steps []fileStep
	prev := ""
	for i, item := range n.Content {
		nextExpectsError := i+1 < len(n.Content) && hasKey(deref(n.Content[i+1]), "expect-error")
		st := p.step(deref(item), nextExpectsError)
		if st.action == "expect-error" && !stepKinds[prev].requests {
			p.problem(st.line, "expect-error checks the step just before it, which must run a kubectl command (%s)",
				strings.Join(requestActions(), ", "))
		}
		prev = st.action
		if st.run != nil {
			steps = append(steps, st)
		}
	}
	return steps
}

func requestActions() []string {
	var out []string
	for _, name := range actionNames() {
		if stepKinds[name].requests {
			out = append(out, name)
		}
	}
	return out
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; n.Kind == yaml.MappingNode && i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// step checks one step: exactly one action, and only the keys that action takes.
func (p *fileParser) step(n *yaml.Node, failureExpected bool) fileStep {
	if n.Kind != yaml.MappingNode {
		p.problem(n.Line, `a step is a mapping such as "scale: deployment/nginx", not %s`, describe(n))
		return fileStep{line: n.Line}
	}
	pairs := p.pairs(n, "a step")
	var action *pair
	for i := range pairs {
		if _, ok := stepKinds[pairs[i].key]; !ok {
			continue
		}
		if action != nil {
			p.problem(pairs[i].line, `a step does one thing, and this one has both %q and %q: start a new step ("- %s: ...") for the second`,
				action.key, pairs[i].key, pairs[i].key)
			return fileStep{line: action.line, action: action.key}
		}
		action = &pairs[i]
	}
	if action == nil {
		for _, e := range pairs {
			if len(optionOwners(e.key)) == 0 {
				p.problem(e.line, "unknown step %q%s", e.key, didYouMean(e.key, actionNames(), "the steps are "+strings.Join(actionNames(), ", ")))
				return fileStep{line: e.line}
			}
		}
		p.problem(n.Line, "this step does nothing: add one of %s", strings.Join(actionNames(), ", "))
		return fileStep{line: n.Line}
	}

	kind := stepKinds[action.key]
	st := &stepSpec{line: action.line, action: action.key, value: action.value, options: map[string]*yaml.Node{},
		failureExpected: failureExpected}
	clean := true
	for _, e := range pairs {
		switch {
		case e.key == action.key:
		case contains(kind.keys(), e.key):
			st.options[e.key] = e.value
		case len(optionOwners(e.key)) > 0:
			p.problem(e.line, "%q does not go with %s (it goes with %s)", e.key, aStep(action.key), strings.Join(optionOwners(e.key), ", "))
			clean = false
		default:
			takes := aStep(action.key) + " takes only its own value"
			if len(kind.keys()) > 0 {
				takes = aStep(action.key) + " takes " + strings.Join(kind.keys(), ", ")
			}
			p.problem(e.line, "unknown field %q in %s%s", e.key, aStep(action.key), didYouMean(e.key, kind.keys(), takes))
			clean = false
		}
	}
	if as, ok := st.options["as"]; ok {
		st.as, _ = p.text(as, "as")
	}
	if !clean {
		return fileStep{line: st.line, action: st.action} // what it means is unclear until the keys are fixed
	}
	return fileStep{line: st.line, action: st.action, run: kind.parse(p, st)}
}

// aStep is "a scale step", "an apply step".
func aStep(action string) string {
	if strings.ContainsRune("aeiou", rune(action[0])) {
		return "an " + action + " step"
	}
	return "a " + action + " step"
}

// optionOwners lists the actions that take key.
func optionOwners(key string) []string {
	var out []string
	for _, name := range actionNames() {
		if contains(stepKinds[name].keys(), key) {
			out = append(out, name)
		}
	}
	return out
}

// fileRun is a scenario file being played.
type fileRun struct {
	s       *Session
	as      string // the user the current command runs as
	err     error  // how the current step's command failed, or nil
	prevErr error  // how the previous step's command failed: what expect-error checks
}

func playSteps(ctx context.Context, s *Session, steps []fileStep) error {
	r := &fileRun{s: s}
	for i, st := range steps {
		r.prevErr, r.err, r.as = r.err, nil, ""
		if err := st.run(ctx, r); err != nil {
			return fmt.Errorf("line %d: %s: %w", st.line, st.action, err)
		}
		checked := i+1 < len(steps) && steps[i+1].action == "expect-error"
		if r.err != nil && !checked {
			s.Expect(false, "line %d: %s failed: %v", st.line, st.action, r.err)
		}
	}
	return s.Err()
}

// request makes a step that runs kubectl commands as the step's user; their error is kept for an
// expect-error step to check.
func (st *stepSpec) request(do func(ctx context.Context, r *fileRun, k *Kubectl) error) stepFunc {
	as := st.as
	return func(ctx context.Context, r *fileRun) error {
		k := r.s.Kubectl
		if as != "" {
			k = k.As(as)
		}
		r.as = as
		r.err = do(ctx, r, k)
		return nil
	}
}

// command puts the command line the learner would type into the story.
func (r *fileRun) command(k *Kubectl, line string) {
	if r.as != "" {
		line += " --as " + r.as
	}
	r.s.Trace.Record(trace.Event{Component: "kubectl", Actor: k.user, Action: "command"}.Msgf("$ %s", line))
}

// output is what the command prints.
func (r *fileRun) output(k *Kubectl, format string, args ...any) {
	r.s.Trace.Record(trace.Event{Component: "kubectl", Actor: k.user, Action: "output"}.Msgf(format, args...))
}

func (r *fileRun) note(action, format string, args ...any) {
	r.s.Trace.Record(trace.Event{Component: "kubesim", Action: action}.Msgf(format, args...))
}

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
	return st.request(func(ctx context.Context, r *fileRun, k *Kubectl) error {
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
	objs, err := observe(ctx, r.s.Cluster, t.res, t.namespace, t.selector, t.name)
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
	return st.request(func(ctx context.Context, r *fileRun, k *Kubectl) error {
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
			if nameMatches(t.name, obj.GetObjectMeta().Name) {
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
	return st.request(func(ctx context.Context, r *fileRun, k *Kubectl) error {
		name, err := r.resolve(ctx, t)
		r.command(k, fmt.Sprintf("kubectl scale %s/%s --replicas=%d%s", t.res.Singular, name, replicas, t.flags()))
		if err != nil {
			return k.report(err)
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
	return st.request(func(ctx context.Context, r *fileRun, k *Kubectl) error {
		name, err := r.resolve(ctx, t)
		r.command(k, fmt.Sprintf("kubectl set image %s/%s %s=%s%s", t.res.Singular, name, container, image, t.flags()))
		if err != nil {
			return k.report(err)
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
			return k.report(fmt.Errorf("unable to find container named %q", container))
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
	return st.request(func(ctx context.Context, r *fileRun, k *Kubectl) error {
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
			return k.report(err)
		}
		return k.Delete(ctx, t.res.Name, t.namespace, name, opts)
	})
}

// faultForm is one fault a scenario file can inject (faults.go), and how to heal it.
type faultForm struct {
	arg     string // what the fault names (AGENT, DURATION, USER, NAME), or "" for nothing
	healArg string // what heal names; heal is nil when the fault cannot be undone
	fault   func(ctx context.Context, c *Cluster, arg string) error
	heal    func(ctx context.Context, c *Cluster, arg string) error
}

var faultForms = map[string]faultForm{
	"partition": {arg: "AGENT", healArg: "AGENT",
		fault: func(_ context.Context, c *Cluster, agent string) error { c.Partition(agent); return nil },
		heal:  func(_ context.Context, c *Cluster, agent string) error { c.Heal(agent); return nil }},
	"slow-etcd": {arg: "DURATION",
		fault: func(_ context.Context, c *Cluster, d string) error {
			latency, _ := time.ParseDuration(d)
			c.SlowEtcd(latency)
			return nil
		},
		heal: func(_ context.Context, c *Cluster, _ string) error { c.SlowEtcd(0); return nil }},
	"compact-etcd":      {fault: func(ctx context.Context, c *Cluster, _ string) error { return c.CompactEtcd(ctx) }},
	"expire-credential": {arg: "USER", fault: func(_ context.Context, c *Cluster, user string) error { return c.ExpireCredential(user) }},
	"stop": {arg: "NAME", healArg: "NAME",
		fault: func(_ context.Context, c *Cluster, name string) error { return c.Stop(name) },
		heal:  func(_ context.Context, c *Cluster, name string) error { return c.Start(name) }},
	"start": {arg: "NAME", fault: func(_ context.Context, c *Cluster, name string) error { return c.Start(name) }},
}

func faultUsage(heal bool) string {
	var forms []string
	for _, name := range sortedKeys(faultForms) {
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
			didYouMean(words[0], sortedKeys(faultForms), "the "+st.action+"s are "+faultUsage(heal)))
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
			return errNotStepMode
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

// wait lets the cluster work until cond holds or the budget is spent; either way the outcome is a
// checked sign.
func (r *fileRun) wait(ctx context.Context, cond Condition, within time.Duration, maxSteps int) error {
	s := r.s
	r.note("wait", "waiting until %s (at most %s)", cond, shortDuration(within))
	began := s.Now()
	met, steps, err := s.WaitFor(ctx, cond, within, maxSteps)
	if err != nil {
		return err
	}
	waited := shortDuration(s.Now().Sub(began))
	if met {
		s.Expect(true, "%s (after %d steps, %s)", cond, steps, waited)
	} else {
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

// expectNow checks cond once the cluster has caught up with every write, without running any work.
func expectNow(cond Condition) stepFunc {
	return func(ctx context.Context, r *fileRun) error {
		if r.s.Driver != nil {
			if err := r.s.Driver.Settle(ctx); err != nil {
				return err
			}
		}
		met, err := cond.Met(ctx, r.s.Cluster)
		if err != nil {
			return err
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
			if !contains(known, e.key) {
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

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func init() {
	for en, zh := range map[string]string{
		"letting %s of cluster time pass":      "让集群时间流逝 %s",
		"waiting until %s (at most %s)":        "等待直到 %s（最多 %s）",
		"%s (after %d steps, %s)":              "%s（经过 %d 步，%s）",
		"%s: still not, after %d steps and %s": "%s：经过 %d 步和 %s，仍未达成",
		"line %d: %s failed: %v":               "第 %d 行：%s 失败：%v",
		"No resources found in %s namespace.":  "No resources found in %s namespace.",
	} {
		narrate.ZH[en] = zh
	}
}
