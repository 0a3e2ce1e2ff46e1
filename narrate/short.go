// short.go: the short story, for a first contact (the CLI's default; --verbose tells the whole story,
// --debug every gate of every request). It tells the same trace along the article's timeline:
//
//   - the cluster's start-up in one line (how many nodes registered, the leaders, etcd's revision);
//   - one sub-heading per step of the timeline, when the story moves to it: kubectl and the
//     apiserver's gates; etcd; the Deployment controller; the ReplicaSet controller; the scheduler;
//     the kubelet and the runtime; status rolls up; each naming the watch that told the component;
//   - how each component learned of the change: the watch line (a detail line) that queued its work,
//     told once when the component's step begins;
//   - what it decided, and what it wrote: a component's write to etcd is told on the line of the
//     decision that made it ("→ etcd revision 63"), not on a line of its own;
//   - one of many alike: the first pod a step handles, and the first node's kubelet, are told in
//     full; the siblings are folded into one line ("the same for 2 more: ...");
//   - repeated roll-ups folded: a controller's status writes are told once per object, the last one,
//     when the section ends; Normal events and the runtime's lines repeat what the component's own
//     line says, and are left out; passed event signs are told in one line.
//
// Errors (a code of 400 or more) and Warning events are always told.
package narrate

import (
	"fmt"
	"sort"
	"strings"

	"kubesim/trace"
)

// step is one step of the article's timeline, by its heading (translated in zhStory).
type step string

// The steps of the article's timeline, in order; their headings say how each component learns of work.
const (
	stepGates      step = "kubectl and the apiserver's gates: authenticate, authorize, admit, validate"
	stepEtcd       step = "etcd: the object is stored, its revision becomes its resourceVersion"
	stepDeployment step = "the Deployment controller (its informer watches Deployments and ReplicaSets)"
	stepReplicaSet step = "the ReplicaSet controller (its informer watches ReplicaSets and Pods)"
	stepScheduler  step = "the scheduler (it watches pods that have no spec.nodeName)"
	stepKubelet    step = "the kubelet and the runtime (each kubelet watches the pods bound to its node)"
	stepRollUp     step = "status rolls up: pods -> ReplicaSet -> Deployment"
)

// stepOf is the timeline step e belongs to, or a step headed by its component's name.
func stepOf(e trace.Event) step {
	c := e.Component
	switch {
	case (c == "kube-apiserver" || c == "etcd") && strings.HasPrefix(e.Actor, "system:"):
		return "" // a component's request and its write: part of that component's step
	case c == "kubectl" || c == "kube-apiserver":
		return stepGates
	case c == "etcd":
		return stepEtcd
	case c == "deployment-controller":
		return stepDeployment
	case c == "replicaset-controller":
		return stepReplicaSet
	case c == "kube-scheduler" || strings.HasSuffix(c, "-scheduler") || strings.HasPrefix(c, "kube-scheduler/"):
		return stepScheduler
	case strings.HasPrefix(c, "kubelet/") || strings.HasPrefix(c, "containerd/"):
		return stepKubelet
	case c == "kubesim":
		return "" // the signs: the section's own heading says what they are
	}
	return step(c)
}

// shortNarrator tells the short story through a text narrator.
type shortNarrator struct {
	t *textNarrator

	booting bool // inside the start-up section
	boot    struct {
		nodes, leaders int
		revision       string
	}
	current step
	// told is what each step tells in full: the first pod (by its owner's prefix) and the first
	// node; folded counts the lines of the others, by step, with their names in order.
	told   map[string]string
	folded map[step][]string
	// watched holds each component's first watch line since its last told line: how it learned.
	watched map[string]trace.Event
	// held is the last told line, not yet written: a write to etcd that follows it joins it.
	held     *trace.Event
	heldRevs []string
	// puts are writes to etcd no told line has claimed yet, by object.
	puts map[string]put
	// rollups are the controllers' status lines of this section, the last per object, in first
	// order.
	rollups     map[string]trace.Event
	rollupOrder []string
	rollupCount map[string]int
	// reading is set while the learner's request is a read, whose gates are left out.
	reading bool
	// signs are the passed event signs, folded into one line at the end of the section.
	signs      []string
	signEvents []trace.Event
}

func newShort(t *textNarrator) *shortNarrator {
	t.oneHeader = true
	s := &shortNarrator{t: t}
	s.reset()
	return s
}

func (s *shortNarrator) reset() {
	s.told, s.folded, s.watched, s.puts = map[string]string{}, map[step][]string{}, map[string]trace.Event{}, map[string]put{}
	s.rollups, s.rollupOrder, s.rollupCount = map[string]trace.Event{}, nil, map[string]int{}
	s.current = ""
}

func (s *shortNarrator) say(format string, args ...any) string {
	o := s.t.o
	if o.Lang == "zh" {
		if tr, ok := zhStory[format]; ok {
			return fmt.Sprintf(tr, args...)
		}
	}
	return fmt.Sprintf(format, args...)
}

// heading is st's heading in the story's language.
func (s *shortNarrator) heading(st step) string {
	if tr, ok := zhStory[string(st)]; ok && s.t.o.Lang == "zh" {
		return tr
	}
	return string(st)
}

func (s *shortNarrator) Event(e trace.Event) {
	if e.Component == "scenario" {
		s.endSection()
		s.booting = e.Action == "boot"
		s.t.heading(e)
		return
	}
	if s.booting {
		s.countBoot(e)
		return
	}
	switch {
	case e.Component == "etcd" && e.Action == "put" && strings.HasPrefix(e.Actor, "system:"):
		s.put(e)
		return
	case e.Detail && (e.Action == "watch" || e.Action == "queue"):
		if _, ok := s.watched[e.Component]; !ok {
			s.watched[e.Component] = e
		}
		return
	case !Visible(e, false) || important(e) == false && s.repeats(e):
		return
	case e.Action == "request":
		// kubectl apply's look before it writes changes nothing: it and its gates are left out.
		s.reading = strings.HasPrefix(e.Message, "GET ")
		if s.reading {
			return
		}
	case s.reading && e.Detail:
		return
	}
	if !important(e) && s.fold(e) {
		return
	}
	s.tell(e)
}

// important lines are always told: errors and warnings.
func important(e trace.Event) bool {
	return e.Code >= 400 || strings.Contains(e.Message, "Warning") || strings.Contains(e.Message, "✗")
}

// repeats reports whether e says again what a component's own line says (a Normal event, a runtime
// line, a passed event sign), or is a roll-up to fold; it keeps what it needs for the end of the
// section.
func (s *shortNarrator) repeats(e trace.Event) bool {
	switch {
	case e.Action == "event" && strings.HasPrefix(e.Message, "event Normal "):
		return true
	case strings.HasPrefix(e.Component, "containerd/"):
		return true
	case e.Action == "status" && strings.HasSuffix(e.Component, "-controller"):
		key := e.Object
		if _, ok := s.rollups[key]; !ok {
			s.rollupOrder = append(s.rollupOrder, key)
		}
		if p, ok := s.puts[key]; ok {
			e.ResourceVersion = p.revision
			delete(s.puts, key)
		}
		s.rollups[key] = e
		s.rollupCount[key]++
		return true
	case e.Component == "kubesim" && strings.HasPrefix(e.Message, "✓ event "):
		reason, _, _ := strings.Cut(strings.TrimPrefix(e.Message, "✓ event "), ":")
		s.signs = append(s.signs, reason)
		s.signEvents = append(s.signEvents, e)
		return true
	}
	return false
}

// fold reports whether e is about a sibling of what its step tells in full (another pod of the same
// owner, another node's kubelet), and counts it.
func (s *shortNarrator) fold(e trace.Event) bool {
	st := stepOf(e)
	var key, name string
	switch {
	case st == stepKubelet:
		key, name = "node", strings.TrimPrefix(strings.TrimPrefix(e.Component, "kubelet/"), "containerd/")
	case strings.HasPrefix(e.Object, "pods/"):
		name = e.Object[strings.LastIndex(e.Object, "/")+1:]
		owner := name
		if i := strings.LastIndex(name, "-"); i > 0 {
			owner = name[:i]
		}
		key = string(st) + "\x00" + owner
	default:
		return false
	}
	first, ok := s.told[key]
	if !ok {
		s.told[key] = name
		return false
	}
	if first == name {
		return false
	}
	names := s.folded[st]
	for _, n := range names {
		if n == name {
			return true
		}
	}
	s.folded[st] = append(names, name)
	return true
}

// put keeps a component's write to etcd for the line that tells the decision behind it.
func (s *shortNarrator) put(e trace.Event) {
	if e.Detail {
		return // an Event object's write: the story tells the event itself, or leaves it out
	}
	if s.held != nil && s.held.Actor == e.Actor && s.held.Object != e.Object && mentions(s.held.Message, e.Object) {
		s.heldRevs = append(s.heldRevs, e.ResourceVersion)
		return
	}
	s.puts[e.Object] = put{e.Actor, e.ResourceVersion}
}

// put is a write to etcd: who wrote it, and the revision it got.
type put struct{ actor, revision string }

// mentions reports whether a decision's message names the object written (resource/ns/name), by its
// name or by its kind ("create 3 pods", "create ReplicaSet nginx-77bf8679f9").
func mentions(msg, object string) bool {
	kind, _, _ := strings.Cut(object, "/")
	name := object[strings.LastIndex(object, "/")+1:]
	return wordIn(name).MatchString(msg) || strings.Contains(strings.ToLower(msg), strings.TrimSuffix(kind, "s"))
}

// tell holds e as the last told line, writing the one before it.
func (s *shortNarrator) tell(e trace.Event) {
	s.flushHeld()
	if st := stepOf(e); st != s.current && st != "" {
		s.endStep()
		s.current = st
		s.t.subheading(s.heading(st))
	}
	if w, ok := s.watched[e.Component]; ok {
		delete(s.watched, e.Component)
		s.t.line(w, s.t.message(w))
	}
	if p, ok := s.puts[e.Object]; ok && p.actor == e.Actor {
		s.heldRevs = append(s.heldRevs, p.revision)
	}
	clear(s.puts) // a write no line claimed by now was routine (a status, a heartbeat)
	s.held = &e
	if e.Component == "etcd" || e.Component == "kubesim" {
		s.flushHeld() // nothing joins these
	}
}

func (s *shortNarrator) flush() { s.flushHeld() }

// flushHeld writes the held line, with the revisions its writes got.
func (s *shortNarrator) flushHeld() {
	if s.held == nil {
		return
	}
	e, msg := *s.held, s.t.message(*s.held)
	switch len(s.heldRevs) {
	case 0:
	case 1:
		msg += s.say(" → etcd revision %s", s.heldRevs[0])
	default:
		msg += s.say(" → etcd revisions %s", strings.Join(s.heldRevs, ", "))
	}
	s.held, s.heldRevs = nil, nil
	s.t.line(e, msg)
}

// endStep tells the siblings the step folded.
func (s *shortNarrator) endStep() {
	s.flushHeld()
	if names := s.folded[s.current]; len(names) > 0 {
		s.t.note(s.say("… and the same for %d more: %s (--verbose tells them)", len(names), strings.Join(names, ", ")))
		delete(s.folded, s.current)
	}
}

// endSection tells the section's roll-ups, the last per object, and its passed event signs.
func (s *shortNarrator) endSection() {
	s.endStep()
	if len(s.rollupOrder) > 0 {
		s.t.subheading(s.heading(stepRollUp))
		// In the order of their last writes: the pods' status reaches the ReplicaSet, then the Deployment.
		sort.Slice(s.rollupOrder, func(i, j int) bool {
			return s.rollups[s.rollupOrder[i]].Seq < s.rollups[s.rollupOrder[j]].Seq
		})
		for _, key := range s.rollupOrder {
			e := s.rollups[key]
			msg := s.t.message(e)
			if n := s.rollupCount[key]; n > 1 {
				msg += s.say(" (the last of %d status writes, etcd revision %s)", n, e.ResourceVersion)
			}
			s.t.line(e, msg)
		}
	}
	switch len(s.signs) {
	case 0:
	case 1:
		e := s.signEvents[0]
		s.t.line(e, s.t.message(e))
	default:
		e := s.signEvents[len(s.signEvents)-1]
		s.t.line(e, s.say("✓ %d events, in order: %s", len(s.signs), strings.Join(s.signs, ", ")))
	}
	s.signs, s.signEvents = nil, nil
	if s.booting && s.boot.nodes+s.boot.leaders > 0 {
		s.t.note(s.say("%d nodes registered and Ready; %d leaders elected; etcd at revision %s (--verbose tells the start-up)",
			s.boot.nodes, s.boot.leaders, s.boot.revision))
		s.boot.nodes, s.boot.leaders = 0, 0
	}
	s.reset()
}

// countBoot keeps what the start-up's one line says.
func (s *shortNarrator) countBoot(e trace.Event) {
	switch {
	case strings.HasPrefix(e.Component, "kubelet/") && strings.HasPrefix(e.Message, "registered node"):
		s.boot.nodes++
	case e.Action == "acquire":
		s.boot.leaders++
	case e.Component == "etcd" && e.ResourceVersion != "":
		s.boot.revision = e.ResourceVersion
	}
}

func (s *shortNarrator) Close() error {
	s.endSection()
	return nil
}
