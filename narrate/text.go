// text.go: the numbered story, the default narrator:
//
//	  #  time     component                what happened
//	268  0s       kubectl                  request: POST deployments.apps default/nginx (replicas 3,
//	                                       image nginx:1.25)
//	514  3.339s   etcd                     put /registry/pods/default/nginx-77bf8679f9-2ctff ->
//	                                       revision 79
//
// Scenario steps (component "scenario") become headings. Messages wrap under their column to
// Options.Width (the terminal's), between words, never inside one.
package narrate

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"kubesim/trace"
)

// DefaultWidth is the width of the text story when the terminal's is unknown (output to a pipe or a
// file).
const DefaultWidth = 80

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

// The columns: sequence number, time, component, message. The number and time columns start wide
// enough for most runs and widen (once, for good) when a number or time does not fit, so lines stay
// aligned with each other; a component name longer than its column puts the message on the next line.
const (
	seqCol  = 5
	timeCol = 7
	compCol = 23
	// minMessage is the narrowest message column: on a narrower terminal the lines grow wider
	// than it rather than become a word per line.
	minMessage = 24
)

type textNarrator struct {
	w      io.Writer
	o      Options
	header bool
	// seqW and timeW are the current widths of the number and time columns; they only grow.
	seqW, timeW int
	long        elider // a long name is shown in full once per story
	// oneHeader shows the column header once per story instead of once per section (the short
	// story's sections are short).
	oneHeader bool
}

func newText(w io.Writer, o Options) *textNarrator {
	return &textNarrator{w: w, o: o, seqW: seqCol, timeW: timeCol}
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
	n.line(e, n.message(e))
}

// line writes one numbered line of the story: e's number, time and component, and msg, its message
// in the story's language.
func (n *textNarrator) line(e trace.Event, msg string) {
	// Real-time runs stamp events to the nanosecond; a millisecond is enough to read.
	seq := strconv.FormatInt(e.Seq, 10)
	at := time.Duration(e.Time).Round(time.Millisecond).String()
	if len(seq) > n.seqW || len(at) > n.timeW {
		n.seqW, n.timeW = max(n.seqW, len(seq)), max(n.timeW, len(at))
		n.header = false // the columns widened: a new header shows where they are now
	}
	if !n.header {
		fmt.Fprintf(n.w, "%*s  %s  %s  %s\n", n.seqW, "#", pad(n.say("time"), n.timeW), pad(n.say("component"), compCol), n.say("what happened"))
		n.header = true
	}
	// The action word leads an English line that does not already start with it; a translated
	// line says it in its own words, an untranslated one (a format with no words of its own) gets
	// the action word in the story's language.
	if e.Action != "" && !strings.HasPrefix(msg, e.Action) {
		switch {
		case n.o.Lang != "zh":
			msg = e.Action + ": " + msg
		case msg == e.Message:
			msg = n.say(e.Action) + "：" + msg
		}
	}
	prefix := fmt.Sprintf("%*s  %s  ", n.seqW, seq, pad(at, n.timeW))
	indent := strings.Repeat(" ", len(prefix)+compCol+2)
	lines := n.wrap(n.long.elide(msg), max(n.o.Width-len(indent), minMessage))
	colour := ""
	switch {
	case e.Code >= 400:
		colour = ansiRed
	case e.Detail:
		colour = ansiDim
	case e.Component == "etcd":
		colour = ansiGreen
	}
	if len(e.Component) > compCol {
		// A long component name takes the rest of its line; the message starts under its column.
		fmt.Fprintf(n.w, "%s%s\n", prefix, n.paint(ansiCyan, e.Component))
	} else {
		fmt.Fprintf(n.w, "%s%s  %s\n", prefix, n.paint(ansiCyan, pad(e.Component, compCol)), n.paint(colour, lines[0]))
		lines = lines[1:]
	}
	for _, l := range lines {
		fmt.Fprintf(n.w, "%s%s\n", indent, n.paint(colour, l))
	}
}

func (n *textNarrator) heading(e trace.Event) {
	if n.header {
		fmt.Fprintln(n.w)
	}
	for _, l := range n.wrap("── "+n.long.elide(n.message(e))+" ──", n.o.Width) {
		fmt.Fprintln(n.w, n.paint(ansiBold, l))
	}
	n.header = n.header && n.oneHeader
}

// subheading writes a heading inside a section (the short story's steps of the timeline): it keeps
// the section's column header.
func (n *textNarrator) subheading(s string) {
	for _, l := range n.wrap("▸ "+s, n.o.Width) {
		fmt.Fprintln(n.w, n.paint(ansiBold, l))
	}
}

// note writes a line of the narrator's own under the message column (what the short story folded).
func (n *textNarrator) note(s string) {
	indent := strings.Repeat(" ", n.seqW+2+n.timeW+2+compCol+2)
	for _, l := range n.wrap(s, max(n.o.Width-len(indent), minMessage)) {
		fmt.Fprintf(n.w, "%s%s\n", indent, n.paint(ansiDim, l))
	}
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
	w := textWidth(s)
	if w >= width {
		return s
	}
	return s + strings.Repeat(" ", width-w)
}

// Fit wraps a line written outside the story (Play's header and verdict) to o.Width, as the story
// wraps its own.
func (o Options) Fit(s string) string {
	if o.Width <= 0 {
		return s
	}
	return strings.Join(wrap(s, o.Width), "\n")
}

// wrap wraps s to width columns, or only at its own line breaks when the story is not wrapped.
func (n *textNarrator) wrap(s string, width int) []string {
	if n.o.Width <= 0 {
		return strings.Split(s, "\n")
	}
	return wrap(s, width)
}

// wrap breaks s into lines of at most width columns. It breaks at spaces, and between Chinese
// characters (which need none); a word is never split unless it is longer than a whole line, and then
// after a '/', ',' or '-' where it has one.
func wrap(s string, width int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		var line []rune
		cols := 0
		flush := func() {
			lines = append(lines, strings.TrimRight(string(line), " "))
			line, cols = nil, 0
		}
		for _, word := range words(para) {
			if cols == 0 && strings.TrimSpace(word) == "" {
				continue // no line starts with the space it was broken at
			}
			w := textWidth(word)
			for cols+w > width && strings.TrimSpace(word) != "" {
				if w <= width && cols > 0 {
					flush() // the word fits on a line of its own
					break
				}
				// A word longer than a line: cut it where it has a joint, on this line if one fits.
				head, rest := splitLong([]rune(word), width-cols, cols == 0)
				if len(head) == 0 {
					flush()
					continue
				}
				line = append(line, head...)
				flush()
				word, w = string(rest), textWidth(string(rest))
			}
			line = append(line, []rune(word)...)
			cols += w
		}
		flush()
	}
	return lines
}

// words splits s into the units wrap may not break: runs of spaces, single wide (Chinese)
// characters, and words, where a word carries the Chinese punctuation that follows it.
func words(s string) []string {
	var out []string
	var cur []rune
	kind := 0 // 0 none, 1 space, 2 word
	emit := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
		}
		cur, kind = nil, 0
	}
	for _, r := range s {
		switch {
		case r == ' ':
			if kind != 1 {
				emit()
			}
			cur, kind = append(cur, r), 1
		case runeWidth(r) == 2:
			if isClosingPunct(r) && len(out)+len(cur) > 0 {
				// Closing punctuation stays with what it closes.
				if len(cur) == 0 {
					out[len(out)-1] += string(r)
				} else {
					cur = append(cur, r)
				}
				continue
			}
			emit()
			cur = append(cur, r)
			emit()
		default:
			if kind != 2 {
				emit()
			}
			cur, kind = append(cur, r), 2
		}
	}
	emit()
	return out
}

// isClosingPunct is Chinese punctuation that may not start a line.
func isClosingPunct(r rune) bool { return strings.ContainsRune("，。：；、）！？」』】", r) }

// splitLong cuts a word into a head of at most room columns, ending at its last '/' that fits (else
// ',', '.' or '-'), and the rest. With no such joint it returns no head, or when hard (the line is
// empty) cuts at room.
func splitLong(r []rune, room int, hard bool) (head, rest []rune) {
	cols, fit := 0, 0
	for i, c := range r {
		if cols+runeWidth(c) > room {
			break
		}
		cols += runeWidth(c)
		fit = i + 1
	}
	for _, joint := range "/,.-" { // a path segment first, a hyphenated part last
		for i := fit; i > 0; i-- {
			if r[i-1] == joint {
				return r[:i], r[i:]
			}
		}
	}
	if !hard {
		return nil, r
	}
	fit = max(fit, 1)
	return r[:fit], r[fit:]
}

// textWidth is how many terminal columns s takes.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}
