// mermaid.go: a Mermaid sequence diagram (renders on GitHub) of who called whom: each request from
// kubectl or a component to the apiserver, the apiserver's answer when it refused, each write to
// etcd, and the watch deliveries that wake components up (the first about each object, for every
// component: controllers, the scheduler, the kubelets). Details (gates that passed) are left out:
// the diagram shows the conversation, the text story shows the reasoning.
package narrate

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"kubesim/trace"
)

type mermaid struct {
	w       io.Writer
	o       Options // Lang and Catalog: the notes and labels are told in the story's language
	started bool    // a scenario step has been seen
	lines   []string
	parts   map[string]string // participant id -> label
	order   []string
	// heard is what each component has heard of by watch (component + "\x00" + object): the diagram
	// draws a watch arrow the first time, not for every later change of the same object.
	heard map[string]bool
}

func newMermaid(w io.Writer, o Options) *mermaid {
	return &mermaid{w: w, o: o, parts: map[string]string{}, heard: map[string]bool{}}
}

// watchArrow reports whether e is a watch delivery the diagram draws: the first one a component gets
// about an object (a controller's watch, the scheduler's queueing of a pending pod).
func (m *mermaid) watchArrow(e trace.Event) bool {
	if e.Action != "watch" && e.Action != "queue" {
		return false
	}
	key := e.Component + "\x00" + e.Object
	if m.heard[key] {
		return false
	}
	m.heard[key] = true
	return true
}

// kubeletWatch draws the watch that told a kubelet of a pod bound to its node, before the kubelet's
// first line about that pod: the kubelet records no line of its own for it.
func (m *mermaid) kubeletWatch(e trace.Event) {
	node, ok := strings.CutPrefix(e.Component, "kubelet/")
	if !ok || !strings.HasPrefix(e.Object, "pods/") || m.heard[e.Component+"\x00"+e.Object] {
		return
	}
	m.heard[e.Component+"\x00"+e.Object] = true
	label := fmt.Sprintf(m.sayf("watch: %s bound to %s"), strings.TrimPrefix(e.Object, "pods/"), node)
	m.lines = append(m.lines, fmt.Sprintf("  %s-->>%s: %s", m.participant("kube-apiserver", ""), m.participant(e.Component, ""), label))
}

// sayf is one of the diagram's own formats in its language.
func (m *mermaid) sayf(format string) string {
	if m.o.Lang == "zh" {
		if t, ok := zhStory[format]; ok {
			return t
		}
	}
	return format
}

// message is e's message in the diagram's language, shortened to one label (at most 90 characters).
func (m *mermaid) message(e trace.Event) string {
	msg := e.Message
	if m.o.Lang == "zh" {
		msg = translate(m.o.Catalog, e)
	}
	if r := []rune(msg); len(r) > 90 {
		msg = string(r[:87]) + "..."
	}
	return strings.NewReplacer(";", ",", "；", "，", "#", "", "\n", " ").Replace(msg)
}

// say is one of the diagram's own words in its language.
func (m *mermaid) say(s string) string {
	if m.o.Lang == "zh" {
		if t, ok := zhWords[s]; ok {
			return t
		}
	}
	return s
}

// participant maps a trace component or identity to a diagram participant.
func (m *mermaid) participant(component, actor string) string {
	name := component
	switch {
	case component == "kube-apiserver":
		name = "API"
	case component == "etcd":
		name = "etcd"
	case strings.HasSuffix(component, "-controller") || strings.HasSuffix(component, "garbage-collector"):
		// The controllers are one process, one identity, one participant.
		component, name = "kube-controller-manager", "kube-controller-manager"
	}
	id := strings.NewReplacer("/", "_", "-", "_", ":", "_", " ", "_").Replace(name)
	if _, ok := m.parts[id]; !ok {
		label := component
		if id == "API" {
			label = "kube-apiserver"
		}
		m.parts[id] = label
		m.order = append(m.order, id)
	}
	return id
}

// caller is the participant that sent a request, from the identity the apiserver authenticated.
func (m *mermaid) caller(actor string) string {
	switch {
	case actor == "" || !strings.HasPrefix(actor, "system:"):
		return m.participant("kubectl", "")
	case strings.HasPrefix(actor, "system:node:"):
		return m.participant("kubelet/"+strings.TrimPrefix(actor, "system:node:"), "")
	case actor == "system:kube-controller-manager":
		return m.participant("kube-controller-manager", "")
	}
	return m.participant(strings.TrimPrefix(actor, "system:"), "")
}

func (m *mermaid) Event(e trace.Event) {
	if e.Component == "scenario" && e.Action == "step" {
		m.started = true
	}
	// The diagram starts at the learner's first action (the cluster's boot is in the text story), and
	// leaves out details (but draws watch deliveries), scenario checks, kubectl's echo of an error the diagram already shows,
	// events (each is also a write) and the container runtime's own lines (the kubelet's say it).
	isWatch := e.Action == "watch" || e.Action == "queue"
	if !m.started || isWatch && !m.watchArrow(e) || !isWatch && e.Detail || e.Component == "kubesim" || e.Action == "event" ||
		e.Component == "kubectl" && e.Action == "error" || strings.HasPrefix(e.Component, "containerd/") {
		return
	}
	m.kubeletWatch(e)
	short := m.message(e)
	api := m.participant("kube-apiserver", "")
	switch {
	case e.Component == "scenario":
		m.lines = append(m.lines, fmt.Sprintf("  Note over %s: %s", m.participant("kubectl", ""), short))
	case e.Component == "etcd" && e.Actor != "":
		// A write: who asked the apiserver, and where it landed in etcd.
		m.lines = append(m.lines, fmt.Sprintf("  %s->>%s: %s %s", m.caller(e.Actor), api, m.say(e.Action), e.Object))
		m.lines = append(m.lines, fmt.Sprintf("  %s->>%s: %s", api, m.participant("etcd", ""), short))
	case e.Component == "etcd":
		m.lines = append(m.lines, fmt.Sprintf("  Note over %s: %s", m.participant("etcd", ""), short))
	case e.Component == "kube-apiserver" && e.Code >= 400:
		m.lines = append(m.lines, fmt.Sprintf("  %s-->>%s: %d %s", api, m.caller(e.Actor), e.Code, short))
	case e.Component == "kube-apiserver":
		m.lines = append(m.lines, fmt.Sprintf("  Note over %s: %s", api, short))
	case e.Action == "request":
		m.lines = append(m.lines, fmt.Sprintf("  %s->>%s: %s", m.participant(e.Component, ""), api, short))
	case e.Action == "watch" || e.Action == "queue":
		p := m.participant(e.Component, "")
		if m.parts[p] != e.Component {
			short = e.Component + ": " + short
		}
		m.lines = append(m.lines, fmt.Sprintf("  %s-->>%s: %s", api, p, short))
	default:
		p := m.participant(e.Component, "")
		if m.parts[p] != e.Component {
			short = e.Component + ": " + short // a controller inside kube-controller-manager
		}
		m.lines = append(m.lines, fmt.Sprintf("  %s->>%s: %s", p, p, short))
	}
}

// Close writes the diagram: participants in a fixed, readable order, then the messages.
func (m *mermaid) Close() error {
	rank := func(id string) int {
		switch {
		case id == "kubectl":
			return 0
		case id == "API":
			return 1
		case id == "etcd":
			return 2
		case strings.HasPrefix(id, "kubelet"):
			return 5
		case strings.Contains(id, "scheduler"):
			return 4
		}
		return 3
	}
	sort.SliceStable(m.order, func(i, j int) bool {
		if rank(m.order[i]) != rank(m.order[j]) {
			return rank(m.order[i]) < rank(m.order[j])
		}
		return m.order[i] < m.order[j]
	})
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, id := range m.order {
		if m.parts[id] == id {
			fmt.Fprintf(&b, "  participant %s\n", id)
		} else {
			fmt.Fprintf(&b, "  participant %s as %s\n", id, m.parts[id])
		}
	}
	for _, l := range m.lines {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(m.w, b.String())
	return err
}
