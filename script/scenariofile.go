// scenariofile.go: scenarios written as YAML files and played like the built-in ones (`kubesim run -f
// FILE`). A file names the scenario, sizes the cluster and lists steps, each doing one thing:
//
//	name: self-healing
//	summary: delete a pod and watch the ReplicaSet replace it
//	summary_zh: 删除一个 Pod，看 ReplicaSet 补上一个     # optional, with teaches_zh: for --lang zh
//	cluster: {nodes: 3}
//	steps:
//	  - say: Create the Deployment               # a heading in the story
//	  - apply-file: nginx-deployment.yaml        # relative to the scenario file
//	  - wait: deployment nginx available         # a condition (conditions.go); within: 10m by default
//	  - delete: pod/nginx-*                      # the first pod whose name starts with nginx-
//	  - expect: pods -l app=nginx count 3        # checked now, without waiting
//
// Interface: Load and Parse; a bad file gives a FileError listing every
// problem with its line and a fix. The whole file is checked before anything runs: unknown keys (with
// the nearest known one), missing arguments, durations, conditions, and manifests that do not decode.
//
// The steps: say; kubectl's apply (inline), apply-file, get, scale, set-image and delete, which take
// `as: USER` to run as another user; fault and heal (sim/faults.go); advance (let time pass); wait;
// expect; expect-event; expect-error (the step before failed with this HTTP code); trace (kubesim net
// trace from a pod to NAME:PORT, each hop told; trace.go). An unmet
// expectation, or a command that fails with no expect-error after it, fails the run at the end.
package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"kubesim/sim"
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

// FileError lists every problem found in a scenario file.
type FileError struct {
	File     string // "" when parsed from bytes
	Problems []FileProblem
	Hint     string // said once after the problems (the condition forms, when a condition was wrong)
}

func (e *FileError) Error() string {
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

// Load reads and checks a scenario file. Files it names are read relative to its directory;
// without a name: key the scenario is named after the file.
func Load(path string) (sim.Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sim.Scenario{}, err
	}
	return parseScenario(data, filepath.Dir(path), path)
}

// Parse checks a scenario file's contents; files it names are read relative to baseDir.
func Parse(data []byte, baseDir string) (sim.Scenario, error) {
	return parseScenario(data, baseDir, "")
}

func parseScenario(data []byte, baseDir, file string) (sim.Scenario, error) {
	withFile := func(err error) error {
		if file == "" {
			return err
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return sim.Scenario{}, withFile(errors.New("the file is empty: a scenario needs a name and steps"))
	} else if err != nil {
		return sim.Scenario{}, withFile(err) // yaml's own message names the line
	}
	p := &fileParser{baseDir: baseDir, err: FileError{File: file}}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.problem(extra.Line, `a scenario file holds one YAML document: remove the "---" and what follows, or make it a file of its own`)
	} else if !errors.Is(err, io.EOF) {
		return sim.Scenario{}, withFile(err)
	}

	root := doc.Content[0]
	sc := sim.Scenario{Cluster: sim.FullCluster(3), ZH: ZH}
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
		case "summary_zh":
			sc.SummaryZH, _ = p.text(e.value, "summary_zh")
		case "teaches_zh":
			sc.TeachesZH, _ = p.text(e.value, "teaches_zh")
			sc.TeachesZH = strings.TrimRight(sc.TeachesZH, "\n")
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
			p.unknown(e, "", []string{"name", "summary", "teaches", "summary_zh", "teaches_zh", "verbose", "cluster", "steps"})
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
		return sim.Scenario{}, &p.err
	}
	if sc.Summary == "" {
		sc.Summary = "a scenario file"
	}
	sc.Run = func(ctx context.Context, s *sim.Session) error { return playSteps(ctx, s, steps) }
	return sc, nil
}

// fileParser checks a scenario file, collecting every problem rather than stopping at the first.
type fileParser struct {
	baseDir string
	err     FileError
	saved   map[string]bool // the snapshots a snapshot step has saved so far, by name
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

func (p *fileParser) condition(n *yaml.Node, what string) sim.Condition {
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
	// acts: it changes the cluster (a write, a fault), so the waits and expectations after it look
	// only at what happened after it (fileRun.since) and at the cluster once it has reacted.
	acts  bool
	parse func(p *fileParser, st *stepSpec) stepFunc
}

var stepKinds = map[string]stepKind{
	"say":          {parse: parseSay},
	"apply":        {requests: true, acts: true, parse: parseApply},
	"apply-file":   {requests: true, acts: true, parse: parseApply},
	"get":          {requests: true, parse: parseGet},
	"scale":        {requests: true, acts: true, options: []string{"replicas"}, parse: parseScale},
	"set-image":    {requests: true, acts: true, options: []string{"container", "image"}, parse: parseSetImage},
	"delete":       {requests: true, acts: true, options: []string{"cascade", "grace-period"}, parse: parseDelete},
	"fault":        {acts: true, parse: parseFault},
	"heal":         {acts: true, parse: parseFault},
	"advance":      {parse: parseAdvance},
	"wait":         {options: []string{"within", "max-steps"}, parse: parseWait},
	"expect":       {parse: parseExpect},
	"expect-event": {parse: parseExpectEvent},
	"expect-error": {options: []string{"message"}, parse: parseExpectError},
	"trace":        {parse: parseTrace},
	"snapshot":     {acts: true, parse: parseSnapshot},
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
		case slices.Contains(kind.keys(), e.key):
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
		if slices.Contains(stepKinds[name].keys(), key) {
			out = append(out, name)
		}
	}
	return out
}

// fileRun is a scenario file being played.
type fileRun struct {
	s       *sim.Session
	as      string // the user the current command runs as
	err     error  // how the current step's command failed, or nil
	prevErr error  // how the previous step's command failed: what expect-error checks
	// since is etcd's revision just before the last step that acted (sinceLine): an Event written
	// after it (new, or its count grown) is one that step caused; expect-event and event waits look
	// at no other.
	since     int64
	sinceLine int
	// acted is set when a step has acted and the cluster has not yet been let react (CatchUp):
	// the next wait or expectation does that first, so that it never reads the instant before the
	// cluster's answer.
	acted bool
	// snapshots is the directory of the run's etcd snapshot files, made at the first save and
	// removed when the run ends.
	snapshots string
}

func playSteps(ctx context.Context, s *sim.Session, steps []fileStep) error {
	r := &fileRun{s: s}
	defer func() {
		if r.snapshots != "" {
			os.RemoveAll(r.snapshots)
		}
	}()
	for i, st := range steps {
		r.prevErr, r.err, r.as = r.err, nil, ""
		if stepKinds[st.action].acts {
			rev, err := s.Store.CurrentRevision(ctx)
			if err != nil {
				return fmt.Errorf("line %d: %s: %w", st.line, st.action, err)
			}
			r.since, r.sinceLine, r.acted = rev, st.line, true
		}
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

// catchUp lets the cluster react to the last step that acted, once, before a wait or an expectation
// reads it; without an action since, it only brings the watch cache up to date.
func (r *fileRun) catchUp(ctx context.Context) error {
	if !r.acted {
		return r.s.Driver.Settle(ctx)
	}
	r.acted = false
	return r.s.CatchUp(ctx)
}

// sinceAction is cond as a step after an action reads it: an event condition counts only the Events
// written since that action.
func (r *fileRun) sinceAction(cond sim.Condition) sim.Condition {
	if e, ok := cond.(*eventCondition); ok && r.sinceLine > 0 {
		after := *e
		after.after, after.afterLine = r.since, r.sinceLine
		return &after
	}
	return cond
}

// request makes a step that runs kubectl commands as the step's user; their error is kept for an
// expect-error step to check.
func (st *stepSpec) request(do func(ctx context.Context, r *fileRun, k *sim.Kubectl) error) stepFunc {
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
func (r *fileRun) command(k *sim.Kubectl, line string) {
	if r.as != "" {
		line += " --as " + r.as
	}
	r.s.Trace.Record(trace.Event{Component: "kubectl", Actor: k.User(), Action: "command"}.Msgf("$ %s", line))
}

// output is what the command prints.
func (r *fileRun) output(k *sim.Kubectl, format string, args ...any) {
	r.s.Trace.Record(trace.Event{Component: "kubectl", Actor: k.User(), Action: "output"}.Msgf(format, args...))
}

func (r *fileRun) note(action, format string, args ...any) {
	r.s.Trace.Record(trace.Event{Component: "kubesim", Action: action}.Msgf(format, args...))
}
