// prompt.go: the prompt of a paused run (--step, --break, an interactive --until): it reads commands
// until one resumes the run.
//
//	next [N]      run N more steps (Enter: one)
//	continue      run to the next breakpoint, or the end
//	until COND    run until the condition holds (the language of --until)
//	section       run to the next heading of the story
//	get, describe, logs, etcd get, queue, explain, cache, crictl, journalctl, ls, cat, openssl,
//	date, timedatectl
//	              look at the cluster and its nodes (sim.Cluster.Inspect)
//	net trace, net rules                           the network as it stands (net_prompt.go)
//	help          these commands
//	q             stop the run
//
// A pause after a step that told nothing new is skipped: nothing to look at.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"kubesim/script"
	"kubesim/sim"
)

// console is the prompt's state between pauses.
type console struct {
	ctx context.Context
	// read shows the prompt and returns the learner's next command; false at the end of input. At a
	// terminal it is the line editor (lineedit.go), elsewhere plain lines (promptLines).
	read func(p sim.Pause, prompt string) (string, bool)
	out  io.Writer // the answers to commands
	say  func(format string, args ...any) string
	// show, if set, is told of every pause that tells something: one the learner's order lets go by
	// (asking false), and each time the console is about to read a command (asking true). The web view
	// shows the cluster then.
	show func(p sim.Pause, asking bool)

	resume sim.Resume // how far the learner said to run
}

func newConsole(ctx context.Context, read func(sim.Pause, string) (string, bool), out io.Writer, say func(string, ...any) string) *console {
	return &console{ctx: ctx, read: read, out: out, say: say}
}

// promptLines reads commands from lines, writing each prompt to ask.
func promptLines(ctx context.Context, lines <-chan string, ask io.Writer) func(sim.Pause, string) (string, bool) {
	return func(_ sim.Pause, prompt string) (string, bool) {
		fmt.Fprint(ask, prompt)
		select {
		case l, ok := <-lines:
			return l, ok
		case <-ctx.Done():
			return "", false
		}
	}
}

// readLines reads stdin's lines until ctx is cancelled.
func readLines(ctx context.Context, stdin io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		in := bufio.NewScanner(stdin)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return lines
}

// pause is sim.PlayOptions.Pause: it reports false when the learner stops the run.
func (c *console) pause(p sim.Pause) bool {
	if !c.resume.Ask(c.ctx, p) {
		if c.show != nil && !p.Quiet {
			c.show(p, false)
		}
		return true
	}
	if c.resume.Held != "" {
		fmt.Fprintln(c.out, c.say("%s holds.", c.resume.Held))
	}
	for {
		if c.show != nil {
			c.show(p, true)
		}
		line, ok := c.read(p, c.say("(kubesim) next, continue, section, until COND, get, describe, etcd get, queue, cache, help, q > "))
		if !ok || c.ctx.Err() != nil {
			return false
		}
		line = strings.TrimSpace(line)
		if resume, stop := c.command(p, line); stop || resume {
			return !stop
		}
	}
}

// command runs one line: it resumes the run, stops it, or answers and prompts again.
func (c *console) command(p sim.Pause, line string) (resume, stop bool) {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "q", "quit", "exit":
		return false, true
	case "", "n", "next":
		n := 1
		if rest != "" {
			var err error
			if n, err = strconv.Atoi(rest); err != nil || n < 1 {
				fmt.Fprintln(c.out, c.say("next takes a number of steps, 1 or more: next 5"))
				return false, false
			}
		}
		c.resume.Next(n)
		return true, false
	case "c", "continue":
		c.resume.Continue()
		return true, false
	case "s", "section":
		c.resume.Section(p)
		return true, false
	case "until":
		cond, err := script.ParseCondition(rest)
		if err != nil {
			fmt.Fprintln(c.out, err)
			return false, false
		}
		c.resume.Until(cond)
		return true, false
	case "net":
		netAtPrompt(c.ctx, c.out, p.Cluster, rest)
		return false, false
	case "help", "h", "?":
		fmt.Fprintln(c.out, c.say("At the prompt:"))
		for _, l := range []string{
			c.say("next [N]: run one step (Enter), or N"),
			c.say("continue: run to the next breakpoint, or the end"),
			c.say("until COND: run until a condition holds, e.g. until pods bound"),
			c.say("section: run to the next heading of the story"),
		} {
			fmt.Fprintln(c.out, "  "+l)
		}
		for _, cmd := range slices.Concat(sim.InspectCommands, netPromptCommands) {
			fmt.Fprintln(c.out, "  "+cmd)
		}
		fmt.Fprintln(c.out, "  q: "+c.say("stop the run"))
		return false, false
	}
	ok, err := p.Cluster.Inspect(c.ctx, c.out, line)
	switch {
	case err != nil && isNodeCommand(line):
		fmt.Fprintln(c.out, err) // a tool on the node, not a request to the apiserver
	case err != nil:
		fmt.Fprintf(c.out, "Error from server: %v\n", err)
	case !ok:
		fmt.Fprintln(c.out, c.say("unknown command %q: help lists the commands", line))
	}
	return false, false
}

// everydayKinds are the kinds a learner looks at most: the web view's tables, and what the prompt
// completes after get and describe.
var everydayKinds = []string{"deployments", "replicasets", "pods", "nodes"}

// words are the prompt's first words, for completion (not ls and cat: shorter typed than completed,
// they would only make l and ca ambiguous).
var words = []string{"next", "continue", "section", "until", "get", "describe", "logs", "etcd", "queue", "explain", "cache", "crictl", "journalctl", "openssl", "timedatectl", "help", "q"}

// completer completes the prompt's commands at pause p: the first word, the kind after get and
// describe, and the names of the objects the cluster holds now (pods after logs and explain).
func completer(ctx context.Context, p sim.Pause) func(before string) []string {
	return func(before string) []string {
		return complete(before, func(f []string) []string {
			switch {
			case len(f) == 1:
				return words
			case len(f) == 2 && (f[0] == "get" || f[0] == "describe"):
				return everydayKinds
			case len(f) == 2 && f[0] == "etcd":
				return []string{"get"}
			case len(f) == 2 && f[0] == "openssl":
				return []string{"x509"}
			case len(f) == 3 && (f[0] == "get" || f[0] == "describe"):
				return objectNames(ctx, p, f[1])
			case len(f) == 2 && (f[0] == "logs" || f[0] == "explain"):
				return objectNames(ctx, p, "pods")
			}
			return nil
		})
	}
}

// complete splits the line before the cursor into words, the last one the word being completed (""
// after a space), and returns those of choices(words) that begin with it.
func complete(before string, choices func(words []string) []string) []string {
	f := strings.Fields(before)
	if strings.HasSuffix(before, " ") || len(f) == 0 {
		f = append(f, "")
	}
	word := f[len(f)-1]
	var out []string
	for _, c := range choices(f) {
		if strings.HasPrefix(c, word) {
			out = append(out, c)
		}
	}
	return out
}

// objectNames are the names of the objects of a kind in the default namespace (and the cluster).
func objectNames(ctx context.Context, p sim.Pause, kind string) []string {
	if p.Cluster == nil {
		return nil
	}
	_, rows, err := p.Cluster.Table(ctx, kind, "default")
	if err != nil {
		return nil
	}
	var names []string
	for _, r := range rows {
		names = append(names, r[0])
	}
	return names
}
