// script.go: a very small shell, enough to know what "sh -c '...'" in a pod spec will do over time.
//
//	parseScript(src, fam, env, mounted) *script   run src once, symbolically, from time 0, in
//	                                     environment env, with the mounted volume files
//	(*script).logsUpTo(t)                the lines written by time t (loops unrolled lazily)
//	(*script).fileExists(p, t)           whether touch/rm/echo > have left file p at time t
//
// It understands what pod specs in tutorials use: echo (and > file, >&2), sleep N (s/m/h/d suffixes,
// "infinity"), exit N, true, false, touch, rm, cat (which prints the mounted configMap and secret
// files: ContainerConfig.Files), test / [ -f ], date, env and printenv, $NAME and
// ${NAME} from the container's environment (not inside single quotes), ';' '&&' '||' and newlines,
// and one "while ...; do ...; done" loop, which repeats forever. Commands the image lacks print
// "sh: x: not found" and return 127. Commands that never return (tail -f, ping, top, nc -l, a server
// binary) keep the container running. Anything else returns 0 at once.

package fakeruntime

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// eventKind is what a script does at one instant.
type eventKind int

const (
	evLog    eventKind = iota // writes text to stream
	evDate                    // writes the current date (formatted when read)
	evTouch                   // creates file text
	evRemove                  // removes file text
	evFile                    // writes the lines of mounted file text (its content when it runs)
)

// scriptEvent is one effect, at an offset from the container's start (or from its loop iteration's).
type scriptEvent struct {
	at     time.Duration
	kind   eventKind
	stream string
	text   string
}

// script is the symbolic run of a shell command line.
type script struct {
	events []scriptEvent // in time order
	ends   bool          // the script exits on its own at end with code
	end    time.Duration
	code   int32
	serves bool        // it ends by exec-ing a server, which runs forever
	loop   *scriptLoop // after events: a body repeating forever
}

// scriptLoop is a "while true" body: its events recur every period from start on.
type scriptLoop struct {
	start, period time.Duration
	events        []scriptEvent // offsets within one iteration
}

// maxLogLines bounds what a container's log keeps, like the kubelet's log rotation
// (containerLogMaxSize) does.
const maxLogLines = 1000

// neverReturns are commands that run until killed.
var neverReturns = []string{"nc", "ping", "top", "watch", "yes"}

// parseScript runs src symbolically for an image of family fam, in the environment env ("NAME=value",
// in the process's order), with the files of its volumes (mounted, by path; may be nil).
func parseScript(src string, fam *family, env []string, mounted map[string]string) *script {
	s := &script{}
	st := &shellState{fam: fam, files: map[string]bool{}, environ: env, mounted: mounted}
	for f := range mounted {
		st.files[f] = true
	}
	st.runList(parseStatements(lex(src, lookupEnv(env))), func(e scriptEvent) { s.events = append(s.events, e) })
	switch {
	case st.serves:
		s.serves = true
	case st.loop != nil:
		s.loop = st.loop
	case !st.forever:
		s.ends, s.end, s.code = true, st.t, int32(st.status)
	}
	return s
}

// ---- lexing and parsing ----

// token is a word or an operator (";", "&&", "||", ">", ">>").
type token struct {
	op   string
	word string
}

// lookupEnv reads a variable of an environment; unset reads as "", as in the shell.
func lookupEnv(env []string) func(string) string {
	return func(name string) string {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v
			}
		}
		return ""
	}
}

// expandVar writes the value of the $NAME or ${NAME} at src[i] (src[i] == '$') and returns the index
// of its last byte; a '$' that starts no name is written as it is.
func expandVar(src string, i int, word *strings.Builder, lookup func(string) string) int {
	name, end := "", i
	if i+1 < len(src) && src[i+1] == '{' {
		if j := strings.IndexByte(src[i+2:], '}'); j >= 0 {
			name, end = src[i+2:i+2+j], i+2+j
		}
	} else {
		j := i + 1
		for j < len(src) && (src[j] == '_' || 'A' <= src[j] && src[j] <= 'Z' || 'a' <= src[j] && src[j] <= 'z' || j > i+1 && '0' <= src[j] && src[j] <= '9') {
			j++
		}
		name, end = src[i+1:j], j-1
	}
	if name == "" {
		word.WriteByte('$')
		return i
	}
	word.WriteString(lookup(name))
	return end
}

// lex splits a command line into words and operators, honouring quotes, and expands the variables
// of lookup outside single quotes.
func lex(src string, lookup func(string) string) []token {
	var toks []token
	var word strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, token{word: word.String()})
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				j = len(src) - i - 1
			}
			word.WriteString(src[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				switch {
				case src[i] == '\\' && i+1 < len(src):
					i++
					word.WriteByte(src[i])
				case src[i] == '$':
					i = expandVar(src, i, &word, lookup)
				default:
					word.WriteByte(src[i])
				}
			}
			inWord = true
		case c == '$':
			before := word.Len()
			i = expandVar(src, i, &word, lookup)
			inWord = inWord || word.Len() > before // an unquoted empty expansion is no word

		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == ';' || c == '\n' || c == '&' || c == '|':
			flush()
			op := ";"
			if i+1 < len(src) && (c == '&' || c == '|') && src[i+1] == c {
				op, i = string([]byte{c, c}), i+1
			}
			toks = append(toks, token{op: op})
		case c == '>' || c == '<':
			// a redirection such as ">", ">>", ">&2" or "2>&1"; "2>" (stderr) is dropped with its target
			fd := ""
			if inWord && (word.String() == "1" || word.String() == "2") {
				fd = word.String()
				word.Reset()
				inWord = false
			}
			flush()
			op := string(c)
			if i+1 < len(src) && src[i+1] == '>' {
				op, i = ">>", i+1
			}
			if i+1 < len(src) && src[i+1] == '&' {
				i++
				op = ">&"
			}
			if fd == "2" {
				op = "2>"
			}
			toks = append(toks, token{op: op})
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks
}

// command is one simple command: its words and where its output goes.
type command struct {
	words    []string
	redirect string // file, "&2", "&1" or "" for stdout
}

// link joins commands: the operator before cmd ("" for the first).
type link struct {
	op  string
	cmd command
}

// statement is a chain of commands joined by && and ||, or a while loop.
type statement struct {
	chain []link
	cond  []statement // while loop condition, if body != nil
	body  []statement
}

// parseStatements turns tokens into statements, recognising one level of while/do/done.
func parseStatements(toks []token) []statement {
	var out []statement
	for len(toks) > 0 {
		if toks[0].op == ";" {
			toks = toks[1:]
			continue
		}
		if toks[0].word == "while" {
			do := indexWord(toks, "do")
			done := indexWord(toks, "done")
			if do > 0 && done > do {
				out = append(out, statement{cond: parseStatements(toks[1:do]), body: parseStatements(toks[do+1 : done])})
				if len(out[len(out)-1].body) == 0 {
					out[len(out)-1].body = []statement{{chain: []link{{cmd: command{words: []string{"true"}}}}}}
				}
				toks = toks[done+1:]
				continue
			}
		}
		var st statement
		op := ""
		for len(toks) > 0 && toks[0].op != ";" {
			var cmd command
			for len(toks) > 0 && toks[0].op != ";" && toks[0].op != "&&" && toks[0].op != "||" {
				t := toks[0]
				toks = toks[1:]
				switch {
				case t.op == ">&" && len(toks) > 0:
					cmd.redirect, toks = "&"+toks[0].word, toks[1:]
				case (t.op == ">" || t.op == ">>") && len(toks) > 0:
					cmd.redirect, toks = toks[0].word, toks[1:]
				case (t.op == "<" || t.op == "2>") && len(toks) > 0:
					toks = toks[1:]
				case t.op == "":
					cmd.words = append(cmd.words, t.word)
				}
			}
			st.chain = append(st.chain, link{op: op, cmd: cmd})
			if len(toks) > 0 && (toks[0].op == "&&" || toks[0].op == "||") {
				op, toks = toks[0].op, toks[1:]
			}
		}
		out = append(out, st)
	}
	return out
}

func indexWord(toks []token, w string) int {
	return slices.IndexFunc(toks, func(t token) bool { return t.op == "" && t.word == w })
}

// ---- symbolic execution ----

// shellState is the interpreter's state while it runs a script symbolically.
type shellState struct {
	fam     *family
	environ []string // the process's environment, "NAME=value"
	t       time.Duration
	status  int
	files   map[string]bool
	mounted map[string]string // the volumes' files and their contents (read-only; cat prints them)
	exited  bool              // exit ran
	forever bool              // a command that never returns ran
	serves  bool              // a server binary ran
	loop    *scriptLoop       // a while loop with time in it ran
}

func (st *shellState) stopped() bool {
	return st.exited || st.forever || st.serves || st.loop != nil
}

func (st *shellState) runList(list []statement, emit func(scriptEvent)) {
	for _, s := range list {
		if st.stopped() {
			return
		}
		if s.body != nil {
			st.runLoop(s, emit)
			continue
		}
		for _, l := range s.chain {
			if st.stopped() || l.op == "&&" && st.status != 0 || l.op == "||" && st.status == 0 {
				continue
			}
			st.run(l.cmd, emit)
		}
	}
}

// runLoop runs a while loop: if its condition holds at first, the body repeats forever (conditions
// that would change later are beyond this little shell).
func (st *shellState) runLoop(s statement, emit func(scriptEvent)) {
	st.runList(s.cond, emit)
	if st.stopped() || st.status != 0 {
		return
	}
	start := st.t
	var body []scriptEvent
	st.runList(s.body, func(e scriptEvent) { body = append(body, e) })
	if st.exited || st.forever || st.serves || st.t == start {
		for _, e := range body { // the body ran once and ended the script, or spins without time
			emit(e)
		}
		st.forever = st.forever || !st.exited && !st.serves
		return
	}
	for i := range body {
		body[i].at -= start
	}
	st.loop = &scriptLoop{start: start, period: st.t - start, events: body}
}

// run executes one simple command at time st.t.
func (st *shellState) run(c command, emit func(scriptEvent)) {
	if len(c.words) == 0 {
		return
	}
	name, args := path.Base(c.words[0]), c.words[1:]
	out := func(text string) {
		switch c.redirect {
		case "":
			emit(scriptEvent{at: st.t, kind: evLog, stream: "stdout", text: text})
		case "&2", "/dev/stderr":
			emit(scriptEvent{at: st.t, kind: evLog, stream: "stderr", text: text})
		case "/dev/null", "&1":
		default:
			st.files[c.redirect] = true
			emit(scriptEvent{at: st.t, kind: evTouch, text: c.redirect})
		}
	}
	errLine := func(text string) { emit(scriptEvent{at: st.t, kind: evLog, stream: "stderr", text: text}) }
	st.status = 0
	switch {
	case name == "exit":
		if len(args) > 0 {
			if n, err := strconv.Atoi(args[0]); err == nil {
				st.status = n & 0xff
			}
		}
		st.exited = true
	case name == "true" || name == ":":
	case name == "false":
		st.status = 1
	case slices.Contains(st.fam.servers, name):
		st.serves = true
	case !slices.Contains(st.fam.tools, name):
		errLine("sh: " + c.words[0] + ": not found")
		st.status = 127
	case name == "echo" || name == "printf":
		args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "-n" || a == "-e" })
		out(strings.TrimSuffix(strings.Join(args, " "), `\n`))
	case name == "hostname": // the sandbox's hostname, which the runtime also puts in $HOSTNAME
		out(lookupEnv(st.environ)("HOSTNAME"))
	case name == "env" || name == "printenv" && len(args) == 0:
		for _, kv := range st.environ {
			out(kv)
		}
	case name == "printenv":
		lookup := lookupEnv(st.environ)
		for _, a := range args {
			if v := lookup(a); v != "" || slices.Contains(st.environ, a+"=") {
				out(v)
			} else {
				st.status = 1
			}
		}
	case name == "date":
		if c.redirect == "" {
			emit(scriptEvent{at: st.t, kind: evDate, stream: "stdout"})
		} else {
			out("")
		}
	case name == "sleep":
		d, ok := parseSleep(args)
		if !ok {
			st.forever = true
			return
		}
		st.t += d
	case name == "touch":
		for _, f := range args {
			st.files[f] = true
			emit(scriptEvent{at: st.t, kind: evTouch, text: f})
		}
		if c.redirect != "" {
			out("")
		}
	case name == "rm":
		for _, f := range args {
			if !strings.HasPrefix(f, "-") {
				delete(st.files, f)
				emit(scriptEvent{at: st.t, kind: evRemove, text: f})
			}
		}
	case name == "cat":
		for _, f := range args {
			if _, ok := st.mounted[f]; ok {
				// The kubelet may rewrite the file while the container runs: its lines are the
				// content at the instant cat runs, looked up when the log is read.
				switch c.redirect {
				case "":
					emit(scriptEvent{at: st.t, kind: evFile, stream: "stdout", text: f})
				case "&2", "/dev/stderr":
					emit(scriptEvent{at: st.t, kind: evFile, stream: "stderr", text: f})
				default:
					out("")
				}
				continue
			}
			if !st.files[f] {
				errLine(missingFile(st.fam, "cat", f))
				st.status = 1
			}
		}
	case name == "test" || name == "[":
		st.status = testFiles(args, func(f string) bool { return st.files[f] })
	case name == "tail" && slices.Contains(args, "-f"), slices.Contains(neverReturns, name):
		st.forever = true
	}
}

// parseSleep reads busybox sleep's arguments (summed); ok is false for "infinity".
func parseSleep(args []string) (time.Duration, bool) {
	var total time.Duration
	for _, a := range args {
		if a == "infinity" || a == "inf" {
			return 0, false
		}
		unit := time.Second
		switch {
		case strings.HasSuffix(a, "s"):
			a = strings.TrimSuffix(a, "s")
		case strings.HasSuffix(a, "m"):
			a, unit = strings.TrimSuffix(a, "m"), time.Minute
		case strings.HasSuffix(a, "h"):
			a, unit = strings.TrimSuffix(a, "h"), time.Hour
		case strings.HasSuffix(a, "d"):
			a, unit = strings.TrimSuffix(a, "d"), 24*time.Hour
		}
		if f, err := strconv.ParseFloat(a, 64); err == nil && f > 0 {
			total += time.Duration(f * float64(unit))
		}
	}
	return total, true
}

// testFiles evaluates the file tests of test / [ ] (-f, -e, -s, -d, with "!"); anything else is true.
func testFiles(args []string, exists func(string) bool) int {
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "]" })
	negate := len(args) > 0 && args[0] == "!"
	if negate {
		args = args[1:]
	}
	ok := true
	if len(args) == 2 && (args[0] == "-f" || args[0] == "-e" || args[0] == "-s" || args[0] == "-d") {
		ok = exists(args[1])
	}
	if ok != negate {
		return 0
	}
	return 1
}

// missingFile is the error a tool prints for a missing file, in busybox's or GNU's words.
func missingFile(fam *family, tool, file string) string {
	if fam.busybox {
		return tool + ": can't open '" + file + "': No such file or directory"
	}
	return tool + ": " + file + ": No such file or directory"
}

// logsUpTo returns the events of kind evLog/evDate/evFile at or before offset, oldest first, at most
// limit of them (the newest).
func (s *script) logsUpTo(offset time.Duration, limit int) []scriptEvent {
	var out []scriptEvent
	for _, e := range s.events {
		if e.at > offset {
			break
		}
		if isOutput(e.kind) {
			out = append(out, e)
		}
	}
	if l := s.loop; l != nil && offset >= l.start {
		perIter := 0
		for _, e := range l.events {
			if isOutput(e.kind) {
				perIter++
			}
		}
		if perIter > 0 {
			iters := int64((offset-l.start)/l.period) + 1
			first := max(0, iters-int64(limit/perIter)-2)
			for k := first; k < iters; k++ {
				base := l.start + time.Duration(k)*l.period
				for _, e := range l.events {
					if (isOutput(e.kind)) && base+e.at <= offset {
						e.at += base
						out = append(out, e)
					}
				}
			}
		}
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// fileExists replays the file events up to offset.
func (s *script) fileExists(file string, offset time.Duration) bool {
	exists := false
	apply := func(e scriptEvent) {
		if e.text == file && e.kind == evTouch {
			exists = true
		} else if e.text == file && e.kind == evRemove {
			exists = false
		}
	}
	for _, e := range s.events {
		if e.at <= offset {
			apply(e)
		}
	}
	if l := s.loop; l != nil && offset >= l.start {
		within := (offset - l.start) % l.period
		if offset-l.start >= l.period {
			for _, e := range l.events {
				apply(e) // a whole iteration has run: its last word on the file stands
			}
		}
		for _, e := range l.events {
			if e.at <= within {
				apply(e)
			}
		}
	}
	return exists
}

// isOutput reports whether an event writes to the log.
func isOutput(k eventKind) bool { return k == evLog || k == evDate || k == evFile }

// fileLines is a file's content as the lines cat prints.
func fileLines(content string) []string {
	if content == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(content, "\n"), "\n")
}
