// lineedit.go: the prompt's line editor, at a terminal: history (Up, Down) and completion (Tab) of the
// prompt's commands, kinds and object names, with the usual keys (Left, Right, Home/Ctrl-A, End/Ctrl-E,
// Backspace, Delete, Ctrl-U, Ctrl-W; Ctrl-D on an empty line ends the input, as at a shell). Only while
// the prompt waits is the terminal out of its line mode (cbreak: no echo, a key at a time, Ctrl-C
// still a signal); elsewhere, or when stdin is a pipe, the prompt reads plain lines.
//
//	promptReader(ctx, stdin, ask)   the console's read: the editor at a terminal, plain lines elsewhere
//	editor.key(k)                   one key, the editor's whole state machine (tested without a terminal)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"

	"kubesim/narrate"
	"kubesim/sim"
)

// promptReader is the console's read for stdin: the line editor when stdin and ask are both a
// terminal, else plain lines.
func promptReader(ctx context.Context, stdin io.Reader, ask io.Writer) func(sim.Pause, string) (string, bool) {
	in, inFile := stdin.(*os.File)
	out, outFile := ask.(*os.File)
	if inFile && outFile {
		if term, err := cbreak(in); err == nil {
			return newLineReader(ctx, in, out, term).read
		}
	}
	return promptLines(ctx, readLines(ctx, stdin), ask)
}

// terminalMode switches a terminal into cbreak mode and back.
type terminalMode interface {
	raw() error
	restore() error
}

// lineReader is the editor on a terminal: keys come from a goroutine that reads stdin all along (the
// keys typed while the run goes on wait for the next prompt), and the history lasts the run.
type lineReader struct {
	ctx     context.Context
	keys    <-chan []byte // what each read of stdin returned
	out     *os.File
	term    terminalMode
	history []string
	pending []byte // keys read but not yet handled
}

func newLineReader(ctx context.Context, in, out *os.File, term terminalMode) *lineReader {
	keys := make(chan []byte)
	go func() {
		defer close(keys)
		for {
			buf := make([]byte, 256)
			n, err := in.Read(buf)
			if n > 0 {
				select {
				case keys <- buf[:n]:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return &lineReader{ctx: ctx, keys: keys, out: out, term: term}
}

// read edits one line at the prompt.
func (r *lineReader) read(p sim.Pause, prompt string) (string, bool) {
	if err := r.term.raw(); err != nil {
		fmt.Fprint(r.out, prompt) // the terminal refused: read as typed, echoed by the terminal
		return r.readPlain()
	}
	defer r.term.restore()
	e := &editor{prompt: prompt, width: narrate.TerminalWidth(r.out), history: r.history, complete: completer(r.ctx, p)}
	fmt.Fprint(r.out, e.start())
	for {
		for len(r.pending) > 0 {
			k, n := decodeKey(r.pending)
			if n == 0 {
				break // an escape sequence cut in two: wait for the rest
			}
			r.pending = r.pending[n:]
			out, done, ok := e.key(k)
			fmt.Fprint(r.out, out)
			if done {
				if ok && strings.TrimSpace(e.line()) != "" && (len(r.history) == 0 || r.history[len(r.history)-1] != e.line()) {
					r.history = append(r.history, e.line())
				}
				return e.line(), ok
			}
		}
		if !r.more() {
			fmt.Fprint(r.out, "\r\n")
			return "", false
		}
	}
}

// readPlain reads up to the end of a line, for a terminal that stayed in line mode.
func (r *lineReader) readPlain() (string, bool) {
	for {
		if i := slices.Index(r.pending, '\n'); i >= 0 {
			line := string(r.pending[:i])
			r.pending = r.pending[i+1:]
			return strings.TrimSuffix(line, "\r"), true
		}
		if !r.more() {
			return "", false
		}
	}
}

// more waits for the next keys; false when the input or the run has ended.
func (r *lineReader) more() bool {
	select {
	case b, ok := <-r.keys:
		r.pending = append(r.pending, b...)
		return ok
	case <-r.ctx.Done():
		return false
	}
}

// key is one key press: a character, or one of the editing keys.
type key struct {
	r    rune   // a character to insert, if name is ""
	name string // enter, tab, backspace, delete, left, right, up, down, home, end, kill-line, kill-word, eof
}

// controlKeys are the editing keys of one byte: Enter, Tab, Backspace, and the Ctrl keys a shell
// reads (Ctrl-A home, Ctrl-E end, Ctrl-U kill-line, Ctrl-W kill-word, Ctrl-D eof).
var controlKeys = map[byte]string{
	'\r': "enter", '\n': "enter", '\t': "tab", 0x7f: "backspace", 0x08: "backspace",
	0x01: "home", 0x05: "end", 0x15: "kill-line", 0x17: "kill-word", 0x04: "eof",
}

// decodeKey reads the first key of b and how many bytes it took (0: b is the start of a longer key).
func decodeKey(b []byte) (key, int) {
	if name, ok := controlKeys[b[0]]; ok {
		return key{name: name}, 1
	}
	if b[0] == 0x1b {
		if len(b) < 3 {
			return key{}, 0
		}
		if b[1] != '[' && b[1] != 'O' {
			return key{name: "ignore"}, 1
		}
		names := map[byte]string{'A': "up", 'B': "down", 'C': "right", 'D': "left", 'H': "home", 'F': "end"}
		if name, ok := names[b[2]]; ok {
			return key{name: name}, 3
		}
		// ESC [ digits ~ (Delete is 3~, Home 1~, End 4~); anything else is skipped whole.
		end := 2
		for end < len(b) && (b[end] >= '0' && b[end] <= '9' || b[end] == ';') {
			end++
		}
		if end == len(b) {
			return key{}, 0
		}
		switch string(b[2:end]) + string(b[end]) {
		case "3~":
			return key{name: "delete"}, end + 1
		case "1~", "7~":
			return key{name: "home"}, end + 1
		case "4~", "8~":
			return key{name: "end"}, end + 1
		}
		return key{name: "ignore"}, end + 1
	}
	if b[0] < 0x20 {
		return key{name: "ignore"}, 1
	}
	if !utf8.FullRune(b) {
		return key{}, 0
	}
	r, n := utf8.DecodeRune(b)
	return key{r: r}, n
}

// editor is one line being edited after a prompt: its state and how the terminal shows it.
type editor struct {
	prompt   string
	width    int // the terminal's columns
	buf      []rune
	pos      int      // the cursor, an index into buf
	history  []string // earlier lines, oldest first
	hist     int      // the history entry shown: len(history) is the line being typed
	typed    []rune   // the line being typed, kept while the history is browsed
	cur      int      // the cursor's column offset from the prompt's start, as drawn
	complete func(before string) []string
}

// start draws the prompt.
func (e *editor) start() string {
	e.hist = len(e.history)
	e.cur = displayWidth(e.prompt)
	return e.prompt + e.wrapFix(e.cur)
}

func (e *editor) line() string { return string(e.buf) }

// key handles one key: what to write to the terminal, whether the line is done, and whether it
// stands (false: the input ended).
func (e *editor) key(k key) (out string, done, ok bool) {
	switch k.name {
	case "":
		e.buf = slices.Insert(e.buf, e.pos, k.r)
		e.pos++
	case "enter":
		e.pos = len(e.buf)
		return e.redraw() + "\r\n", true, true
	case "eof":
		if len(e.buf) == 0 {
			return "\r\n", true, false
		}
		if e.pos < len(e.buf) {
			e.buf = slices.Delete(e.buf, e.pos, e.pos+1)
		}
	case "backspace":
		if e.pos > 0 {
			e.buf = slices.Delete(e.buf, e.pos-1, e.pos)
			e.pos--
		}
	case "delete":
		if e.pos < len(e.buf) {
			e.buf = slices.Delete(e.buf, e.pos, e.pos+1)
		}
	case "left":
		e.pos = max(e.pos-1, 0)
	case "right":
		e.pos = min(e.pos+1, len(e.buf))
	case "home":
		e.pos = 0
	case "end":
		e.pos = len(e.buf)
	case "kill-line":
		e.buf, e.pos = e.buf[e.pos:], 0
	case "kill-word":
		start := e.pos
		for start > 0 && e.buf[start-1] == ' ' {
			start--
		}
		for start > 0 && e.buf[start-1] != ' ' {
			start--
		}
		e.buf, e.pos = slices.Delete(e.buf, start, e.pos), start
	case "up", "down":
		if e.hist == len(e.history) {
			e.typed = slices.Clone(e.buf)
		}
		if k.name == "up" {
			e.hist = max(e.hist-1, 0)
		} else {
			e.hist = min(e.hist+1, len(e.history))
		}
		if e.hist == len(e.history) {
			e.buf = slices.Clone(e.typed)
		} else {
			e.buf = []rune(e.history[e.hist])
		}
		e.pos = len(e.buf)
	case "tab":
		return e.tab(), false, false
	}
	return e.redraw(), false, false
}

// tab completes the word before the cursor: fully when one candidate fits, else to what they share;
// when that adds nothing, it lists them under the line.
func (e *editor) tab() string {
	before := string(e.buf[:e.pos])
	word := before[strings.LastIndexByte(before, ' ')+1:]
	cands := e.complete(before)
	if len(cands) == 0 {
		return "\a"
	}
	common := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	add := strings.TrimPrefix(common, word)
	if len(cands) == 1 {
		add += " "
	}
	if add != "" {
		e.buf = slices.Insert(e.buf, e.pos, []rune(add)...)
		e.pos += len([]rune(add))
		return e.redraw()
	}
	// Nothing to add: show the choices, then the prompt and the line again below them.
	end := e.moveTo(displayWidth(e.prompt) + displayWidth(string(e.buf)))
	list := "\r\n" + strings.Join(cands, "  ") + "\r\n"
	return end + list + e.start() + e.redraw()
}

// redraw writes the line again from the prompt's end and puts the cursor at pos.
func (e *editor) redraw() string {
	var b strings.Builder
	start := displayWidth(e.prompt)
	b.WriteString(e.moveTo(start))
	b.WriteString("\x1b[J") // clear to the end of the screen: the old line may have been longer
	b.WriteString(string(e.buf))
	e.cur = start + displayWidth(string(e.buf))
	b.WriteString(e.wrapFix(e.cur))
	b.WriteString(e.moveTo(start + displayWidth(string(e.buf[:e.pos]))))
	return b.String()
}

// moveTo moves the cursor from where it is drawn to column offset off (from the prompt's start, the
// line wrapping every width columns).
func (e *editor) moveTo(off int) string {
	w := max(e.width, 1)
	var b strings.Builder
	if up := e.cur/w - off/w; up > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", up)
	} else if up < 0 {
		fmt.Fprintf(&b, "\x1b[%dB", -up)
	}
	b.WriteString("\r")
	if col := off % w; col > 0 {
		fmt.Fprintf(&b, "\x1b[%dC", col)
	}
	e.cur = off
	return b.String()
}

// wrapFix moves a cursor left past the last column (a line that filled its row exactly) to the start
// of the next row, where offset off says it is.
func (e *editor) wrapFix(off int) string {
	if e.width > 0 && off > 0 && off%e.width == 0 {
		return "\r\n"
	}
	return ""
}

// displayWidth is how many columns s takes: two for a wide character (Chinese), one for the others.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
