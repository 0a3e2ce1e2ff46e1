// text.go: the numbered story, the default narrator:
//
//	#  time  component              what happened
//	1  0s    kubectl                create deployments.apps default/nginx (3 replicas, image nginx:1.25)
//	2  0s    kube-apiserver         authenticate: bearer token -> user "admin" (groups [system:masters ...])
//
// Scenario steps (component "scenario") become headings; long messages wrap under their column.
package narrate

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"kubesim/trace"
)

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

type textNarrator struct {
	w       io.Writer
	o       Options
	header  bool
	compCol int
}

func newText(w io.Writer, o Options) *textNarrator {
	if o.Width <= 0 {
		o.Width = 110
	}
	return &textNarrator{w: w, o: o, compCol: 23}
}

func (n *textNarrator) paint(code, s string) string {
	if !n.o.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (n *textNarrator) Event(e trace.Event) {
	if e.Component == "scenario" {
		n.heading(e)
		return
	}
	if !Visible(e, n.o.Verbose) {
		return
	}
	if !n.header {
		fmt.Fprintf(n.w, "%5s  %s  %s  %s\n", "#", pad(n.say("time"), 6), pad(n.say("component"), n.compCol), n.say("what happened"))
		n.header = true
	}
	msg := n.message(e)
	// The action word leads an English line that does not already start with it; a translated
	// line says it in its own words.
	if e.Action != "" && !strings.HasPrefix(msg, e.Action) && (n.o.Lang != "zh" || msg == e.Message) {
		msg = e.Action + ": " + msg
	}
	// Real-time runs stamp events to the nanosecond; a millisecond is enough to read.
	prefix := fmt.Sprintf("%5d  %-6s  ", e.Seq, time.Duration(e.Time).Round(time.Millisecond).String())
	indent := strings.Repeat(" ", len(prefix)+n.compCol+2)
	lines := wrap(msg, n.o.Width-len(indent))
	colour := ""
	switch {
	case e.Code >= 400:
		colour = ansiRed
	case e.Detail:
		colour = ansiDim
	case e.Component == "etcd":
		colour = ansiGreen
	}
	fmt.Fprintf(n.w, "%s%s  %s\n", prefix, n.paint(ansiCyan, fmt.Sprintf("%-*s", n.compCol, e.Component)), n.paint(colour, lines[0]))
	for _, l := range lines[1:] {
		fmt.Fprintf(n.w, "%s%s\n", indent, n.paint(colour, l))
	}
}

func (n *textNarrator) heading(e trace.Event) {
	if n.header {
		fmt.Fprintln(n.w)
	}
	fmt.Fprintln(n.w, n.paint(ansiBold, "── "+n.message(e)+" ──"))
	n.header = false
}

// message is the event's message in the narrator's language.
func (n *textNarrator) message(e trace.Event) string {
	if n.o.Lang != "zh" {
		return e.Message
	}
	return translate(n.o.Catalog, e)
}

func (n *textNarrator) say(s string) string {
	if n.o.Lang == "zh" {
		if t, ok := zhWords[s]; ok {
			return t
		}
	}
	return s
}

func (n *textNarrator) Close() error { return nil }

// runeWidth is how many terminal columns r takes: two for CJK characters and full-width
// punctuation, one otherwise.
func runeWidth(r rune) int {
	if unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef {
		return 2
	}
	return 1
}

// pad fills s with spaces to width columns.
func pad(s string, width int) string {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	if w >= width {
		return s
	}
	return s + strings.Repeat(" ", width-w)
}

// wrap breaks s into lines of at most width columns, at spaces where possible.
func wrap(s string, width int) []string {
	if width < 20 {
		width = 20
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		r := []rune(para)
		for {
			cols, fit := 0, len(r)
			for i, c := range r {
				cols += runeWidth(c)
				if cols > width {
					fit = i
					break
				}
			}
			if fit == len(r) {
				break
			}
			cut := fit
			for i := fit; i > fit/2; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			lines = append(lines, strings.TrimRight(string(r[:cut]), " "))
			r = []rune(strings.TrimLeft(string(r[cut:]), " "))
		}
		lines = append(lines, string(r))
	}
	return lines
}
